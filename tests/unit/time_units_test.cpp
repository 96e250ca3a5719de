// Time arithmetic, exact serialization times and quantity parsing.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "fastsim/config/units.hpp"
#include "fastsim/core/units.hpp"

using namespace fastsim;
using nlohmann::json;

TEST_CASE("serialization time is exact in integer picoseconds", "[units]") {
  CHECK(serialization_time(1500, Rate{100'000'000}).ps() == 120'000'000);  // 120 us
  CHECK(serialization_time(1500, Rate{800'000'000}).ps() == 15'000'000);   // 15 us
  CHECK(serialization_time(1, Rate{100'000'000'000}).ps() == 80);          // 1 byte at 100 Gb/s
  CHECK(serialization_time(1500, Rate{3}).ps() == 4'000'000'000'000'000);  // no overflow at 3 b/s
  CHECK(serialization_time(1, Rate{3}).ps() == 2'666'666'666'667);         // rounded up
}

TEST_CASE("durations convert without drift", "[units]") {
  CHECK(Duration::milliseconds(100).ps() == 100'000'000'000);
  CHECK(Duration::seconds(0.1) == Duration::milliseconds(100));
  CHECK(Duration::seconds(23400.0).to_seconds() == Approx(23400.0));
  CHECK((Time::zero() + Duration::seconds_int(5) - Time::zero()) == Duration::seconds_int(5));
}

TEST_CASE("quantities parse with units and reject bad values", "[units][config]") {
  using config::parse_buffer, config::parse_duration, config::parse_rate, config::parse_size;
  CHECK(std::get<Duration>(parse_duration(json("100ms"))) == Duration::milliseconds(100));
  CHECK(std::get<Duration>(parse_duration(json(1.5))) == Duration::milliseconds(1500));
  CHECK(std::get<Duration>(parse_duration(json("250us"))) == Duration::microseconds(250));
  CHECK(std::get<Rate>(parse_rate(json("800Mbps"))).bps == 800'000'000);
  CHECK(std::get<Rate>(parse_rate(json("2.5Gbit/s"))).bps == 2'500'000'000);
  CHECK(std::get<uint64_t>(parse_size(json("1.5MB"))) == 1'500'000);
  CHECK(std::get<uint64_t>(parse_size(json("1KiB"))) == 1024);
  CHECK(std::get<net::BufferLimit>(parse_buffer(json("2000pkt"))).packets == 2000);
  CHECK(std::get<net::BufferLimit>(parse_buffer(json("64KB"))).bytes == 64'000);

  CHECK(std::holds_alternative<std::string>(parse_duration(json(-5))));
  CHECK(std::holds_alternative<std::string>(parse_duration(json("100 parsecs"))));
  CHECK(std::holds_alternative<std::string>(parse_rate(json("0Mbps"))));
  CHECK(std::holds_alternative<std::string>(parse_rate(json("-1Gbps"))));
  CHECK(std::holds_alternative<std::string>(parse_rate(json(true))));
  CHECK(std::holds_alternative<std::string>(parse_buffer(json("0pkt"))));
  CHECK(std::holds_alternative<std::string>(parse_buffer(json("1.5pkt"))));
  CHECK(std::holds_alternative<std::string>(parse_size(json("-3MB"))));
  const auto err = std::get<std::string>(parse_duration(json(-5)));
  CHECK_THAT(err, Catch::Contains("expected a duration like \"100ms\""));
}
