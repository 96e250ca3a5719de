// Quantity parsing for scenario files (see units.hpp).
#include "fastsim/config/units.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace fastsim::config {

namespace {

struct UnitFactor {
  std::string_view suffix;
  double factor;
};

const std::vector<UnitFactor>& duration_units() {
  static const std::vector<UnitFactor> units = {{"s", 1},      {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9},
                                                {"ps", 1e-12}, {"min", 60},  {"h", 3600}};
  return units;
}

const std::vector<UnitFactor>& rate_units() {
  static const std::vector<UnitFactor> units = {{"bps", 1},      {"kbps", 1e3},   {"Mbps", 1e6},   {"Gbps", 1e9},
                                                {"Tbps", 1e12},  {"bit/s", 1},    {"kbit/s", 1e3}, {"Mbit/s", 1e6},
                                                {"Gbit/s", 1e9}, {"Tbit/s", 1e12}};
  return units;
}

const std::vector<UnitFactor>& size_units() {
  static const std::vector<UnitFactor> units = {
      {"B", 1},        {"KB", 1e3},        {"MB", 1e6},           {"GB", 1e9},
      {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"kB", 1e3}};
  return units;
}

const std::vector<std::string_view> kPacketUnits = {"pkt", "pkts", "packets", "p"};

/// Splits "1.5ms" into 1.5 and "ms"; false if there is no leading number.
bool split_number(const std::string& s, double& value, std::string& unit) {
  size_t used = 0;
  try {
    value = std::stod(s, &used);
  } catch (...) {
    return false;
  }
  // only decimal notation: std::stod would also take "0x10", "inf" or "nan"
  const bool decimal = std::all_of(s.begin(), s.begin() + static_cast<long>(used), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
  });
  if (!decimal)
    return false;
  unit = s.substr(used);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front())))
    unit.erase(0, 1);
  return std::isfinite(value);
}

/// Number or "<number><unit>" with one of `units`; `what` names the expected form.
Parsed<double> parse_quantity(const nlohmann::json& j, const std::vector<UnitFactor>& units, std::string_view example,
                              bool case_insensitive = false) {
  const std::string expected = fmt::format("expected {}", example);
  if (j.is_number()) {
    const double v = j.get<double>();
    if (!std::isfinite(v))
      return fmt::format("{}, got {}", expected, j.dump());
    return v;
  }
  if (!j.is_string())
    return fmt::format("{}, got {}", expected, j.dump());
  double value = 0;
  std::string unit;
  if (!split_number(j.get<std::string>(), value, unit))
    return fmt::format("{}, got {}", expected, j.dump());
  for (const auto& u : units) {
    bool match = unit == u.suffix;
    if (!match && case_insensitive && unit.size() == u.suffix.size()) {
      match = true;
      for (size_t i = 0; i < unit.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(unit[i])) !=
            std::tolower(static_cast<unsigned char>(u.suffix[i]))) {
          match = false;
          break;
        }
      }
    }
    if (match)
      return value * u.factor;
  }
  std::string allowed;
  for (const auto& u : units)
    allowed += (allowed.empty() ? "" : ", ") + std::string(u.suffix);
  return fmt::format("{}, got {} (unknown unit \"{}\"; allowed: {})", expected, j.dump(), unit, allowed);
}

}  // namespace

std::vector<std::string> unit_suffixes(Quantity q) {
  std::vector<std::string> out;
  if (q == Quantity::kPackets) {
    out.assign(kPacketUnits.begin(), kPacketUnits.end());
    return out;
  }
  const auto& units = q == Quantity::kDuration ? duration_units() : q == Quantity::kRate ? rate_units() : size_units();
  for (const auto& u : units)
    out.emplace_back(u.suffix);
  return out;
}

Parsed<int64_t> parse_integer(const nlohmann::json& j, int64_t min, int64_t max) {
  const bool integral =
      j.is_number_integer() || (j.is_number_float() && std::isfinite(j.get<double>()) &&
                                j.get<double>() == std::floor(j.get<double>()) && std::fabs(j.get<double>()) < 9e15);
  const bool too_big = j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX);
  if (!integral || too_big)
    return fmt::format("expected an integer in [{}, {}], got {}", min, max, j.dump());
  const int64_t i = j.is_number_unsigned()  ? static_cast<int64_t>(j.get<uint64_t>())
                    : j.is_number_integer() ? j.get<int64_t>()
                                            : static_cast<int64_t>(j.get<double>());
  if (i < min || i > max)
    return fmt::format("expected an integer in [{}, {}], got {}", min, max, j.dump());
  return i;
}

Parsed<Duration> parse_duration(const nlohmann::json& j) {
  auto q = parse_quantity(j, duration_units(), "a duration like \"100ms\" or a number of seconds");
  if (auto* err = std::get_if<std::string>(&q))
    return *err;
  const double s = std::get<double>(q);
  if (s < 0)
    return fmt::format("expected a duration like \"100ms\", got {} (negative)", j.dump());
  if (s > kMaxDurationSeconds)
    return fmt::format("duration {} is too long (at most 1e6 s)", j.dump());
  return Duration::seconds(s);
}

Parsed<Rate> parse_rate(const nlohmann::json& j) {
  auto q = parse_quantity(j, rate_units(), "a rate like \"100Mbps\" or a number of bits/s");
  if (auto* err = std::get_if<std::string>(&q))
    return *err;
  const double bps = std::get<double>(q);
  if (bps < kMinRateBps)
    return fmt::format("expected a rate of at least 1 bit/s like \"100Mbps\", got {}", j.dump());
  if (bps > kMaxRateBps)
    return fmt::format("rate {} is above the supported 10 Tb/s", j.dump());
  return Rate{static_cast<uint64_t>(std::llround(bps))};
}

Parsed<uint64_t> parse_size(const nlohmann::json& j) {
  auto q = parse_quantity(j, size_units(), "a size like \"1.5MB\" or a number of bytes");
  if (auto* err = std::get_if<std::string>(&q))
    return *err;
  const double b = std::get<double>(q);
  if (b < kMinSizeBytes)
    return fmt::format("expected a size of at least 1 byte like \"1.5MB\", got {}", j.dump());
  if (b > kMaxSizeBytes)
    return fmt::format("size {} is above the supported {:.0f} bytes (\"1000000GB\")", j.dump(), kMaxSizeBytes);
  return static_cast<uint64_t>(std::llround(b));
}

Parsed<net::BufferLimit> parse_buffer(const nlohmann::json& j) {
  if (j.is_string()) {
    double value = 0;
    std::string unit;
    if (split_number(j.get<std::string>(), value, unit) &&
        std::find(kPacketUnits.begin(), kPacketUnits.end(), unit) != kPacketUnits.end()) {
      if (value < 1 || value != std::floor(value) || value > kMaxBufferPackets) {
        return fmt::format("expected a whole number of packets from 1 to {:.0f} like \"2000pkt\", got {}",
                           kMaxBufferPackets, j.dump());
      }
      return net::BufferLimit{static_cast<uint64_t>(value), 0};
    }
  }
  auto s = parse_size(j);
  if (std::holds_alternative<std::string>(s)) {
    return fmt::format(
        "expected a buffer like \"2000pkt\" or \"1.5MB\" (or a number of bytes): 1 to {:.0f} packets or 1 byte "
        "to 1000000GB, got {}",
        kMaxBufferPackets, j.dump());
  }
  return net::BufferLimit{0, std::get<uint64_t>(s)};
}

std::string format_duration(Duration d) {
  const int64_t ps = d.ps();
  if (ps % 1'000'000'000'000 == 0)
    return fmt::format("{}s", ps / 1'000'000'000'000);
  if (ps % 1'000'000'000 == 0)
    return fmt::format("{}ms", ps / 1'000'000'000);
  if (ps % 1'000'000 == 0)
    return fmt::format("{}us", ps / 1'000'000);
  if (ps % 1000 == 0)
    return fmt::format("{}ns", ps / 1000);
  return fmt::format("{}ps", ps);
}

std::string format_bytes(uint64_t b) {
  const double x = static_cast<double>(b);
  if (x >= 1024.0 * 1024 * 1024)
    return fmt::format("{:.1f} GiB", x / (1024.0 * 1024 * 1024));
  if (x >= 1024.0 * 1024)
    return fmt::format("{:.1f} MiB", x / (1024.0 * 1024));
  if (x >= 1024.0)  // a limit set that low ("--limit memory=1K") once read 0.0 MiB
    return fmt::format("{:.1f} KiB", x / 1024.0);
  return fmt::format("{} B", b);
}

std::string format_rate(Rate r) {
  if (r.bps % 1'000'000'000 == 0)
    return fmt::format("{}Gbps", r.bps / 1'000'000'000);
  if (r.bps % 1'000'000 == 0)
    return fmt::format("{}Mbps", r.bps / 1'000'000);
  if (r.bps % 1000 == 0)
    return fmt::format("{}kbps", r.bps / 1000);
  return fmt::format("{}bps", r.bps);
}

}  // namespace fastsim::config
