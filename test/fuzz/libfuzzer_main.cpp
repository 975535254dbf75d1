// test/fuzz/libfuzzer_main.cpp: libFuzzer's entry for one target, chosen by
// ONYX_FUZZ_TARGET (model, tensor, compact) when the fuzzer is compiled.
#include "fuzz_targets.hpp"

#define ONYX_STR_(x) #x
#define ONYX_STR(x) ONYX_STR_(x)

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto f = onyx::fuzz::entry(ONYX_STR(ONYX_FUZZ_TARGET));
  return f(data, size);
}
