// The TCP settings a scenario may give ("defaults", or per flow), as one table like the
// congestion-control parameters (cc/params.hpp): for each setting its scenario key, the
// TcpConfig member it sets, its unit, its bounds and what it means. The scenario parser
// reads, checks and echoes TcpConfig from this table alone. A setting's default is the
// member's initializer in TcpConfig (tcp_config.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <variant>

#include "fastsim/core/time.hpp"
#include "fastsim/tcp/tcp_config.hpp"

namespace fastsim::tcp {

struct TcpSetting {
  /// The member set, whose type says how the value is given:
  /// - uint32_t: an integer in [min, max];
  /// - bool: true or false;
  /// - Duration: a positive duration (or zero, meaning "off", with zero_is_off);
  /// - double: a number in [min, max];
  /// - uint64_t: a window given as a size in bytes, held in TcpConfig in packets of mss
  ///   bytes (at least one) once the flow's mss is known.
  using Member = std::variant<uint32_t TcpConfig::*, bool TcpConfig::*, Duration TcpConfig::*, double TcpConfig::*,
                              uint64_t TcpConfig::*>;

  std::string_view name;  ///< the scenario key
  Member member;
  std::string_view unit;  ///< "bytes", "packets", "duration" or "" (a switch)
  double min = 0;         ///< integers and numbers
  double max = 0;
  /// Numbers: values at or above it mean "no limit" (left out of the resolved scenario); 0: none.
  double unlimited_from = 0;
  std::string_view help;
  bool zero_is_off = false;  ///< durations: "0s" is allowed and switches the model off
};

/// Every TCP setting, in the order the scenario format documents them.
std::span<const TcpSetting> tcp_settings();

}  // namespace fastsim::tcp
