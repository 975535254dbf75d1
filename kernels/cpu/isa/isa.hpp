// kernels/cpu/isa/isa.hpp: the per-ISA micro-kernels and their dispatch.
//
// The hot loops (GEMM tile, transcendentals, softmax) are written once as
// templates over xsimd::batch<float, Arch> in f32_kernels.ipp and compiled in
// one translation unit per level (f32_kernels_<isa>.cpp, each with its own
// -m flags, each in its own namespace isa::<level>). Baseline code reaches
// them only through the function pointers of a `table`, chosen once by CPUID,
// so no instruction above the baseline runs on a CPU that lacks it.
//
// ONYX_ISA=scalar|sse|avx2|avx512 in the environment lowers the selected level
// (never raises it above what the CPU has); tests use it to cover every path.
#pragma once

#include <cstdint>

namespace onyx::kernels::cpu::isa {

enum class level { scalar, sse, avx2, avx512 };

/// The highest level this CPU (and OS) supports: avx512 = F+DQ+BW+VL,
/// avx2 = AVX2+FMA, sse = SSE4.1.
level detected();
/// min(detected(), ONYX_ISA if set to a level name); computed once.
level selected();
/// "scalar", "sse", "avx2", "avx512".
const char* name(level l);

/// What a GEMM micro-kernel applies when it writes its tile:
///   C = clamp(alpha * acc + beta * C + row_bias[i] + col_bias[j], min, max)
/// beta == 0 never reads C (it may hold NaN). Bias pointers are null or
/// already offset to the tile's first row/column; the clamp runs only if set.
struct f32_gemm_params {
  float alpha = 1.0f;
  float beta = 0.0f;
  const float* row_bias = nullptr;
  const float* col_bias = nullptr;
  bool clamp = false;
  float min = 0.0f, max = 0.0f;
};

/// One mr x nr tile of C from packed panels: `a` holds kc columns of mr floats
/// (a[p*mr + i]), `b` kc rows of nr floats (b[p*nr + j]); both zero-padded to
/// the full tile. Writes only the top-left m x n of the tile (m <= mr, n <= nr)
/// at c with row stride ldc.
using f32_gemm_fn = void (*)(std::int64_t kc, const float* a, const float* b, float* c,
                             std::int64_t ldc, int m, int n, const f32_gemm_params& params);
/// y[i] = f(x[i]) for i < n; y may equal x.
using f32_unary_fn = void (*)(const float* x, float* y, std::int64_t n);

/// The micro-kernels of one level. Names follow <dtype>_<op>__<isa>_<tile>;
/// `gemm_name` is the GEMM kernel's (e.g. "f32_gemm__avx512_12x32").
struct table {
  level isa;
  const char* gemm_name;
  int gemm_mr, gemm_nr;
  f32_gemm_fn f32_gemm;
  f32_unary_fn f32_exp;       // rel err < 1e-6 for normal results; gradual subnormals
  f32_unary_fn f32_logistic;  // 1 / (1 + exp(-x))
  f32_unary_fn f32_tanh;      // abs and rel err ~1e-6
  f32_unary_fn f32_erf;       // abs err < 1e-6
  f32_unary_fn f32_softmax_row;  // y = exp(x - max x) / sum; n == 0 writes nothing
};

/// The table for selected().
const table& active();
/// The table for `l`, or nullptr when the CPU lacks that level.
const table* find(level l);

}  // namespace onyx::kernels::cpu::isa
