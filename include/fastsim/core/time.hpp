// Simulated time: strong integer types over int64 picoseconds.
// Follows htsim (integer picoseconds) and quiche (a strong time type).
// - Picoseconds serialize one byte exactly up to 8 Tb/s (1 byte at 100 Gb/s = 80 ps)
//   and give +-106 days of range, far beyond any experiment (23 400 s is the longest published).
// - There is no global resolution setting; values are built through named factories only.
// - Conversion to seconds (double) is explicit and used only for output and algorithms.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>

namespace fastsim {

/// A span of simulated time in integer picoseconds.
class Duration {
 public:
  constexpr Duration() = default;
  static constexpr Duration picoseconds(int64_t ps) { return Duration(ps); }
  static constexpr Duration nanoseconds(int64_t ns) { return Duration(ns * 1000); }
  static constexpr Duration microseconds(int64_t us) { return Duration(us * 1'000'000); }
  static constexpr Duration milliseconds(int64_t ms) { return Duration(ms * 1'000'000'000); }
  static constexpr Duration seconds_int(int64_t s) { return Duration(s * 1'000'000'000'000); }
  /// Rounds to the nearest picosecond.
  static constexpr Duration seconds(double s) {
    const double ps = s * 1e12;
    return Duration(static_cast<int64_t>(ps < 0 ? ps - 0.5 : ps + 0.5));
  }
  static constexpr Duration zero() { return Duration(0); }
  static constexpr Duration infinite() { return Duration(std::numeric_limits<int64_t>::max() / 4); }

  [[nodiscard]] constexpr int64_t ps() const { return ps_; }
  [[nodiscard]] constexpr double to_seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr auto operator<=>(const Duration&) const = default;
  constexpr Duration operator+(Duration o) const { return Duration(ps_ + o.ps_); }
  constexpr Duration operator-(Duration o) const { return Duration(ps_ - o.ps_); }
  constexpr Duration& operator+=(Duration o) {
    ps_ += o.ps_;
    return *this;
  }
  constexpr Duration& operator-=(Duration o) {
    ps_ -= o.ps_;
    return *this;
  }
  constexpr Duration operator*(int64_t k) const { return Duration(ps_ * k); }
  constexpr Duration operator/(int64_t k) const { return Duration(ps_ / k); }

 private:
  constexpr explicit Duration(int64_t ps) : ps_(ps) {}
  int64_t ps_ = 0;
};

/// A point of simulated time (picoseconds since the start of the run).
class Time {
 public:
  constexpr Time() = default;
  static constexpr Time zero() { return Time(0); }
  static constexpr Time from_ps(int64_t ps) { return Time(ps); }
  static constexpr Time at(Duration since_start) { return Time(since_start.ps()); }
  static constexpr Time never() { return Time(std::numeric_limits<int64_t>::max() / 2); }

  [[nodiscard]] constexpr int64_t ps() const { return ps_; }
  [[nodiscard]] constexpr double to_seconds() const { return static_cast<double>(ps_) * 1e-12; }
  [[nodiscard]] constexpr Duration since_start() const { return Duration::picoseconds(ps_); }

  constexpr auto operator<=>(const Time&) const = default;
  constexpr Time operator+(Duration d) const { return Time(ps_ + d.ps()); }
  constexpr Time operator-(Duration d) const { return Time(ps_ - d.ps()); }
  constexpr Duration operator-(Time o) const { return Duration::picoseconds(ps_ - o.ps_); }
  constexpr Time& operator+=(Duration d) {
    ps_ += d.ps();
    return *this;
  }

 private:
  constexpr explicit Time(int64_t ps) : ps_(ps) {}
  int64_t ps_ = 0;
};

}  // namespace fastsim
