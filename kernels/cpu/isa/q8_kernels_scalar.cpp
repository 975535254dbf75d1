// The int8 GEMM micro-kernel in portable C++ (every processor): int16 operands
// in pairs of K steps, the layout of the avx2 kernel, on a 4 x 8 tile.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/cpu/isa/q8.hpp"

namespace onyx::kernels::cpu::isa::scalar {

void u8s8_gemm__scalar_4x8(std::int64_t groups, const void* av, const void* bv, std::int32_t* c, std::int64_t ldc,
                           int m, int n, bool accumulate, const void* /*prefetch*/) {
  constexpr int mr = 4, nr = 8;
  const auto* a = static_cast<const std::int16_t*>(av);
  const auto* b = static_cast<const std::int16_t*>(bv);
  std::int32_t acc[mr][nr] = {};
  for (std::int64_t p = 0; p < groups; ++p, a += mr * 2, b += nr * 2)
    for (int i = 0; i < mr; ++i)
      for (int j = 0; j < nr; ++j) acc[i][j] += a[i * 2] * b[j * 2] + a[i * 2 + 1] * b[j * 2 + 1];
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) c[i * ldc + j] = accumulate ? c[i * ldc + j] + acc[i][j] : acc[i][j];
}

void f32_minmax__scalar(const float* x, std::int64_t n, float* lo, float* hi) {
  float l = *lo, h = *hi;
  for (std::int64_t i = 0; i < n; ++i) l = x[i] < l ? x[i] : l, h = x[i] > h ? x[i] : h;
  *lo = l, *hi = h;
}

void f32_quantize_u8__scalar(const float* x, std::int64_t n, float scale, float zero, std::uint8_t* y) {
  for (std::int64_t i = 0; i < n; ++i)
    y[i] = static_cast<std::uint8_t>(std::clamp(std::nearbyint(x[i] / scale) + zero, 0.0f, 255.0f));
}

#include "kernels/cpu/isa/q8_requantize.ipp"
#include "kernels/cpu/isa/q8_rows.ipp"

extern const q8_gemm_kernel q8_kernel{"u8s8_gemm__scalar_4x8", 4, 8, 2, 2, 2, u8s8_gemm__scalar_4x8,
                                      f32_minmax__scalar, f32_quantize_u8__scalar, requantize_row, depthwise_plane, interleave4};

}  // namespace onyx::kernels::cpu::isa::scalar
