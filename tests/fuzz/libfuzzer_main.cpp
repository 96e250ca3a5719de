// libFuzzer entry point of one harness, chosen at compile time (FASTSIM_FUZZ_HARNESS).
#include "harnesses.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fastsim::fuzz::FASTSIM_FUZZ_HARNESS(data, size);
  return 0;
}
