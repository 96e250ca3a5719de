// How sweep backends' reports and fastsim run's progress look on the user's terminal: the progress line is redrawn
// in place when stderr is a terminal and written as plain lines when it is a file (no
// carriage returns in logs); messages stay on their own lines; dry-run scripts go to
// stdout. `quiet` hides the progress only.
#pragma once

#include <unistd.h>

#include <iostream>
#include <string_view>

#include "fastsim/sweep/backends.hpp"

namespace fastsim::cli {

class TerminalReporter final : public sweep::Reporter {
 public:
  explicit TerminalReporter(bool quiet) : quiet_(quiet), terminal_(isatty(STDERR_FILENO) != 0) {}
  ~TerminalReporter() override { finish(); }
  TerminalReporter(const TerminalReporter&) = delete;
  TerminalReporter& operator=(const TerminalReporter&) = delete;

  void progress(std::string_view line) override {
    if (quiet_)
      return;
    if (terminal_) {
      std::cerr << '\r' << line << "   " << std::flush;
      line_open_ = true;
    } else {
      std::cerr << line << '\n';
    }
  }
  void note(std::string_view line) override {
    finish();
    std::cerr << line << '\n';
  }
  void output(std::string_view text) override { std::cout << text; }
  /// True when stderr is a terminal (the progress line is redrawn in place).
  [[nodiscard]] bool terminal() const { return terminal_; }
  void finish() override {
    if (line_open_)
      std::cerr << '\n';
    line_open_ = false;
  }

 private:
  bool quiet_;
  bool terminal_;
  bool line_open_ = false;
};

}  // namespace fastsim::cli
