// Test helpers: build scenarios from JSON text, run the CLI, check conservation.
#pragma once

#include <sys/wait.h>
#include <unistd.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "fastsim/config/parse.hpp"
#include "fastsim/run/experiment.hpp"

namespace fastsim::testing {

inline config::Scenario scenario_from(const std::string& json_text) {
  return config::parse_scenario(nlohmann::json::parse(json_text));
}

/// A dumbbell scenario with the given bottleneck and flows (JSON array text).
inline std::string dumbbell_json(const std::string& rate, const std::string& delay, const std::string& buffer,
                                 const std::string& duration, const std::string& flows,
                                 const std::string& defaults = R"({"delayed_ack": false})",
                                 const std::string& extra_bottleneck = "") {
  return R"({"name": "test", "seed": 1, "duration": ")" + duration +
         R"(", "topology": {"dumbbell": {"bottleneck": {"rate": ")" + rate + R"(", "delay": ")" + delay +
         R"(", "buffer": ")" + buffer + "\"" + extra_bottleneck +
         R"(}, "access": {"rate": "10Gbps", "buffer": "100000pkt"}}}, "defaults": )" + defaults + R"(, "flows": )" +
         flows + "}";
}

/// The mean of v[from], ..., v[to - 1] (per-period samples over a range of periods).
inline double mean_of(const std::vector<double>& v, size_t from, size_t to) {
  double s = 0;
  for (size_t i = from; i < to; ++i)
    s += v[i];
  return s / static_cast<double>(to - from);
}

/// The whole content of a file ("" if it cannot be read).
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A fresh, empty directory under the system temp dir, unique per test process.
inline std::filesystem::path temp_dir(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() / ("fastsim-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

/// Relative path -> content of every file under a run's output directory, with
/// summary.json re-serialized (indent as nlohmann's dump, a final newline when >= 0)
/// without the keys in `drop` (fields that measure the machine, not the model).
inline std::map<std::string, std::string> run_outputs(const std::filesystem::path& dir,
                                                      const std::vector<std::string>& drop, int indent = -1) {
  std::map<std::string, std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file())
      continue;
    std::string text = read_file(e.path());
    if (e.path().filename() == "summary.json") {
      auto j = nlohmann::json::parse(text);
      for (const auto& key : drop)
        j.erase(key);
      text = j.dump(indent) + (indent >= 0 ? "\n" : "");
    }
    files[std::filesystem::relative(e.path(), dir).string()] = text;
  }
  return files;
}

struct CommandResult {
  int exit_code = -1;
  std::string output;  ///< stdout and stderr
};

inline CommandResult run_command(const std::string& cmd) {
  CommandResult r;
  FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
  if (pipe == nullptr)
    return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return r;
}

/// Packet conservation at the end of (part of) a run, for every flow and link.
inline void check_conservation(run::Experiment& exp) {
  uint64_t on_links_total = 0;
  for (const auto& id : exp.link_ids()) {
    auto& l = exp.link(id);
    const auto c = l.counters();
    INFO("link " << id);
    CHECK(c.arrivals == c.drops + c.random_losses + c.departures + l.packets_on_link());
    on_links_total += l.packets_on_link();
  }
  uint64_t held_total = 0;  // in host noise elements (net/host_noise.hpp)
  for (size_t i = 0; i < exp.flow_count(); ++i) {
    auto& f = exp.flow(i);
    INFO("flow " << f.spec->id);
    const uint64_t data_held = f.send_jitter ? f.send_jitter->held() : 0;
    const uint64_t acks_held = f.ack_coalescer ? f.ack_coalescer->held() : 0;
    held_total += data_held + acks_held;
    const uint64_t data_dropped = f.data_counters.queue_drops + f.data_counters.random_losses;
    CHECK(f.sender->counters().data_sent ==
          f.receiver->counters().data_arrivals + data_dropped + exp.packets_on_links(f.data_route) + data_held);
    const uint64_t acks_dropped = f.ack_counters.queue_drops + f.ack_counters.random_losses;
    CHECK(f.receiver->counters().acks_sent ==
          f.sender->counters().acks_received + acks_dropped + exp.packets_on_links(f.ack_route) + acks_held);
  }
  CHECK(exp.pool().live() == on_links_total + held_total);
}

}  // namespace fastsim::testing
