// Winograd F(4x4, 3x3) (kernels/cpu/winograd.hpp) at every ISA level this CPU
// has, against a direct convolution in double; and Conv through the kernel
// on shapes where it takes that path.
//
// Tolerance: |y - ref| <= 1e-5 * mag + 1e-6, mag being the sum of the
// absolute values of the element's terms (|bias| + sum |w x|). Winograd's
// transforms add and subtract values up to ~100 times larger than a term
// (the 4s, 5s and 8s of B and A, and G's 1/6 and 1/24), so its error is
// about 100x float rounding of the terms: ~1e-5 relative to mag, against
// ~1e-7 for the direct product. Measured worst case here: 2.2e-6 * mag.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/cpu/winograd.hpp"
#include "onyx/core/thread_pool.hpp"
#include "op_harness.hpp"

namespace {

using namespace onyx::kernels::cpu;
using std::int64_t;

std::vector<float> random_floats(int64_t n, unsigned seed) {
  return onyx::test::random_values<float>(static_cast<std::size_t>(n), -1, 1, seed);
}

struct wcase {
  int64_t N, C, M, H, W;
  int64_t pad_top, pad_left, pad_bottom, pad_right;
  bool bias;
  float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
};

void check(const wcase& k, const isa::table& t, const onyx::thread_pool* pool) {
  const int64_t out_h = k.H + k.pad_top + k.pad_bottom - 2, out_w = k.W + k.pad_left + k.pad_right - 2;
  const auto x = random_floats(k.N * k.C * k.H * k.W, 1), w = random_floats(k.M * k.C * 9, 2);
  const auto b = random_floats(k.M, 3);
  const float* bias = k.bias ? b.data() : nullptr;

  const winograd::shape s{k.N, k.C, k.M, k.H, k.W, out_h, out_w, k.pad_top, k.pad_left};
  const auto u = winograd::transform_weights(w.data(), k.M, k.C, t);
  const auto p = winograd::make_plan(s, pool ? pool->size() : 1, t);
  std::vector<float> scratch(static_cast<std::size_t>(p.slots * p.slot_elements));
  std::vector<float> y(static_cast<std::size_t>(k.N * k.M * out_h * out_w), std::nanf(""));
  winograd::run(p, u, x.data(), bias, k.lo, k.hi, y.data(), scratch.data(), pool, t);

  double worst = 0;
  for (int64_t n = 0; n < k.N; ++n)
    for (int64_t m = 0; m < k.M; ++m)
      for (int64_t oy = 0; oy < out_h; ++oy)
        for (int64_t ox = 0; ox < out_w; ++ox) {
          double acc = bias ? bias[m] : 0.0, mag = bias ? std::abs(bias[m]) : 0.0;
          for (int64_t c = 0; c < k.C; ++c)
            for (int64_t i = 0; i < 3; ++i)
              for (int64_t j = 0; j < 3; ++j) {
                const int64_t iy = oy + i - k.pad_top, ix = ox + j - k.pad_left;
                if (iy < 0 || iy >= k.H || ix < 0 || ix >= k.W) continue;
                const double term = double(w[((m * k.C + c) * 3 + i) * 3 + j]) * x[((n * k.C + c) * k.H + iy) * k.W + ix];
                acc += term;
                mag += std::abs(term);
              }
          acc = std::min<double>(std::max<double>(acc, k.lo), k.hi);
          const double got = y[static_cast<std::size_t>(((n * k.M + m) * out_h + oy) * out_w + ox)];
          const double err = std::abs(got - acc);
          worst = std::max(worst, err / (mag + 1e-30));
          if (!(err <= 1e-5 * mag + 1e-6)) {
            INFO(isa::name(t.isa) << " n=" << n << " m=" << m << " y=" << oy << " x=" << ox << " got " << got
                                  << " want " << acc);
            REQUIRE(err <= 1e-5 * mag + 1e-6);
          }
        }
  INFO(isa::name(t.isa) << " worst error / magnitude " << worst);
  CHECK(worst < 1e-5);
}

}  // namespace

TEST_CASE("Winograd F(4x4,3x3) against a direct convolution", "[conv][winograd]") {
  const onyx::thread_pool pool(4);
  for (auto l : isa::all_levels) {
    const isa::table* t = isa::find(l);
    if (!t) {
      WARN("skipping ISA level " << isa::name(l) << ": this CPU lacks it");
      continue;
    }
    INFO(isa::name(l));
    // Sizes not multiples of 4 (partial output tiles), M not a multiple of
    // any mr, tile counts not multiples of nb, two images sharing a block.
    check({2, 19, 23, 13, 11, 1, 1, 1, 1, true}, *t, nullptr);
    // Asymmetric and zero padding, no bias, a clamp (fused Clip).
    check({1, 8, 9, 10, 9, 0, 2, 1, 0, false, -0.5f, 0.75f}, *t, nullptr);
    // More output channels than one slice of M, on a pool.
    check({1, 16, 100, 20, 20, 1, 1, 1, 1, true, 0.0f}, *t, &pool);
    // Many blocks over the pool, tile ranges not multiples of nb.
    check({2, 12, 14, 30, 27, 1, 1, 1, 1, true}, *t, &pool);
    // Few tiles over the pool: phased (two images in one block, M and C
    // not multiples of the threads, a clamp).
    check({2, 13, 37, 7, 7, 1, 1, 1, 1, true, -0.25f, 0.5f}, *t, &pool);
    check({1, 32, 30, 14, 14, 1, 1, 1, 1, false}, *t, &pool);
  }
}

TEST_CASE("Winograd gives each thread an even range of tiles, or runs few tiles phased") {
  const isa::table& t = isa::active();
  const auto plan = [&](int64_t hw, int64_t threads) {
    return winograd::make_plan({1, 128, 32, hw, hw, hw, hw, 1, 1}, threads, t);
  };
  // One thread: one slot, the whole map in blocks.
  CHECK(!plan(14, 1).phased);
  CHECK(plan(14, 1).slots == 1);
  // DenseNet's 14x14 growth layers (16 tiles) on two threads: 8 tiles each
  // would pad each GEMM to a panel (AVX-512) or fall from the full kernel to
  // the narrow one (AVX2, 16 columns), so the phases split the block instead.
  CHECK(plan(14, 2).phased == (8 <= t.gemm_narrow_nr / 2 || winograd::block_width(8, t) < winograd::block_width(16, t)));
  if (t.gemm_nr == 16 && t.gemm_narrow_nr == 8) CHECK(plan(14, 2).phased);
  // 28x28 (49 tiles): 25 : 24 in blocks no wider than one thread's range needs.
  const auto p28 = plan(28, 2);
  CHECK(!p28.phased);
  CHECK(p28.slots == 2);
  CHECK(p28.nb == t.gemm_nr);
  // Blocks are full but for a range's last few tiles: a 56x56 map's 196
  // tiles are 12 blocks on the full kernel and one of 4 tiles on the narrow
  // one (every block narrow to pad 8 columns fewer ran ResNet-50's 56x56
  // layers 10-25% slower on AVX2: six accumulators leave the FMAs waiting).
  const auto p56 = plan(56, 1);
  CHECK(p56.nb == t.gemm_nr);
  CHECK(winograd::block_width(t.gemm_narrow_nr, t) == t.gemm_narrow_nr);
  CHECK(winograd::block_width(t.gemm_narrow_nr + 1, t) == t.gemm_nr);
  if (t.gemm_nr == 16 && t.gemm_narrow_nr == 8) {  // AVX2
    CHECK(winograd::padded_columns(196, t) == 12 * 16 + 8);
    CHECK(winograd::padded_columns(25, t) == 16 + 16);
    CHECK(winograd::padded_columns(4, t) == 8);
  }
}
