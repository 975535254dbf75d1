// The 256-entry byte table lookup for AVX-512 VBMI: vpermi2b picks bytes from
// a 128-entry table held in two zmm registers by the low 7 bits of each index;
// two of them (the table's halves) and a blend on the index's top bit give 64
// lookups in a handful of instructions, where the scalar loop does one per
// cycle. Compiled with -mavx512vbmi and chosen only when CPUID reports it.
#include <immintrin.h>

#include <cstdint>

#include "kernels/cpu/isa/q8.hpp"

namespace onyx::kernels::cpu::isa::avx512vbmi {

void u8_lookup__avx512vbmi_x64(const std::uint8_t* table, const std::uint8_t* x, std::uint8_t* y, std::int64_t n) {
  const __m512i t0 = _mm512_loadu_si512(table), t1 = _mm512_loadu_si512(table + 64);
  const __m512i t2 = _mm512_loadu_si512(table + 128), t3 = _mm512_loadu_si512(table + 192);
  for (std::int64_t i = 0; i < n; i += 64) {
    const __mmask64 k = n - i >= 64 ? ~__mmask64(0) : (__mmask64(1) << (n - i)) - 1;
    const __m512i idx = _mm512_maskz_loadu_epi8(k, x + i);
    const __m512i lo = _mm512_permutex2var_epi8(t0, idx, t1);  // entries 0..127 by idx & 127
    const __m512i hi = _mm512_permutex2var_epi8(t2, idx, t3);  // entries 128..255
    const __mmask64 top = _mm512_movepi8_mask(idx);            // idx >= 128
    _mm512_mask_storeu_epi8(y + i, k, _mm512_mask_blend_epi8(top, lo, hi));
  }
}

}  // namespace onyx::kernels::cpu::isa::avx512vbmi
