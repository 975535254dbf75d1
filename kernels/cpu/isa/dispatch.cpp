// Baseline code: CPUID detection and the choice of table. Each per-ISA TU
// defines `kernel_table` in its own namespace as a constant (no code runs to
// build it, so touching it on a CPU without that ISA is harmless). Only the
// levels of the build's processor (all_levels, cmake/isa.cmake) are compiled.
#include "kernels/cpu/isa/isa.hpp"

#include <cstdlib>
#include <cstring>

// Which levels this program holds: all of the processor's (cmake/isa.cmake),
// or, when kernels/cpu/isa/single_tu.hpp compiles the layer into one TU,
// scalar and the one level the compiler's flags enable (it sets ONYX_ISA_HAS_*).
#if !defined(ONYX_ISA_SINGLE_TU)
#define ONYX_ISA_HAS_SSE 1
#define ONYX_ISA_HAS_AVX2 1
#define ONYX_ISA_HAS_AVX512 1
#define ONYX_ISA_HAS_NEON 1
#endif

namespace onyx::kernels::cpu::isa {

namespace scalar { extern const table kernel_table; }
#if defined(__x86_64__) || defined(__i386__)
namespace sse { extern const table kernel_table; }
namespace avx2 { extern const table kernel_table; }
namespace avx512 { extern const table kernel_table; }
#elif defined(__aarch64__)
namespace neon { extern const table kernel_table; }
#endif

namespace {
/// Whether this program holds `l`'s kernels.
bool compiled(level l) {
  switch (l) {
    case level::scalar: return true;
#if defined(__x86_64__) || defined(__i386__)
    case level::sse: return ONYX_ISA_HAS_SSE != 0;
    case level::avx2: return ONYX_ISA_HAS_AVX2 != 0;
    case level::avx512: return ONYX_ISA_HAS_AVX512 != 0;
#elif defined(__aarch64__)
    case level::neon: return ONYX_ISA_HAS_NEON != 0;
#endif
    default: return false;
  }
}
}  // namespace

level detected() {
  static const level l = [] {
    level cpu = level::scalar;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
      cpu = level::avx512;
    else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      cpu = level::avx2;
    else if (__builtin_cpu_supports("sse4.1"))
      cpu = level::sse;
#elif defined(__aarch64__)
    cpu = level::neon;
#endif
    while (!compiled(cpu)) cpu = static_cast<level>(static_cast<int>(cpu) - 1);  // scalar always is
    return cpu;
  }();
  return l;
}

const char* name(level l) {
  switch (l) {
    case level::scalar: return "scalar";
    case level::sse: return "sse";
    case level::avx2: return "avx2";
    case level::avx512: return "avx512";
    case level::neon: return "neon";
  }
  return "unknown";
}

level selected() {
  static const level l = [] {
    level cap = detected();
    if (const char* env = std::getenv("ONYX_ISA")) {
      for (level c : all_levels)
        if (std::strcmp(env, name(c)) == 0) cap = c;
    }
    return detected() < cap ? detected() : cap;
  }();
  return l;
}

const table* find(level l) {
  if (l > detected()) return nullptr;
  switch (l) {
    case level::scalar: return &scalar::kernel_table;
#if defined(__x86_64__) || defined(__i386__)
#if ONYX_ISA_HAS_SSE
    case level::sse: return &sse::kernel_table;
#endif
#if ONYX_ISA_HAS_AVX2
    case level::avx2: return &avx2::kernel_table;
#endif
#if ONYX_ISA_HAS_AVX512
    case level::avx512: return &avx512::kernel_table;
#endif
#elif defined(__aarch64__) && ONYX_ISA_HAS_NEON
    case level::neon: return &neon::kernel_table;
#endif
    default: return nullptr;  // not a level of this processor
  }
}

const table& active() {
  static const table& t = *find(selected());
  return t;
}

}  // namespace onyx::kernels::cpu::isa
