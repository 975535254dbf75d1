// q8_gemm (kernels/cpu/qgemm.hpp) with every int8 micro-kernel this CPU runs,
// against an int64 reference sum_k (A - za)(B - zb): uint8 and int8 operands
// in all four combinations, scalar and per-row / per-column zero points, both
// storage orders, prepacked and packed-per-call operands, edge tiles, K = 0,
// threads. Results must be exact. The saturation corner: all-255 activations
// against all-127 and all-(-128) weights at K = 65536, where vpmaddubsw's int16
// pair sums would saturate; the products fit int32 and must come out exact.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "kernels/cpu/qgemm.hpp"

namespace {

using namespace onyx::kernels::cpu;
using std::int64_t;

std::vector<const isa::q8_gemm_kernel*> q8_kernels() {
  int n = 0;
  const isa::q8_gemm_kernel* const* all = isa::q8_available(&n);
  return {all, all + n};
}

struct qcase {
  int64_t M, N, K;
  bool a_signed, b_signed;
  bool a_trans = false, b_trans = false;  // storage: A as K x M, B as N x K
  bool per_index = false;
  bool prepack_a = false, prepack_b = false;
  bool adding = false;  // the sink adds the zero-point terms (q8_sink::adding)
};

int value_of(std::uint8_t byte, bool is_signed) {
  return is_signed ? static_cast<int>(static_cast<std::int8_t>(byte)) : static_cast<int>(byte);
}

void run_case(const qcase& c, const isa::q8_gemm_kernel& kernel, const onyx::thread_pool* pool,
              std::vector<std::uint8_t> A = {}, std::vector<std::uint8_t> B = {}) {
  std::mt19937 rng(static_cast<std::uint32_t>(c.M * 131 + c.N * 17 + c.K));
  std::uniform_int_distribution<int> byte(0, 255);
  if (A.empty()) {
    A.resize(static_cast<std::size_t>(c.M * c.K));
    for (auto& v : A) v = static_cast<std::uint8_t>(byte(rng));
  }
  if (B.empty()) {
    B.resize(static_cast<std::size_t>(c.K * c.N));
    for (auto& v : B) v = static_cast<std::uint8_t>(byte(rng));
  }
  const auto a_at = [&](int64_t i, int64_t k) { return value_of(A[c.a_trans ? k * c.M + i : i * c.K + k], c.a_signed); };
  const auto b_at = [&](int64_t k, int64_t j) { return value_of(B[c.b_trans ? j * c.K + k : k * c.N + j], c.b_signed); };
  std::vector<std::int32_t> za(static_cast<std::size_t>(c.per_index ? c.M : 1)), zb(static_cast<std::size_t>(c.per_index ? c.N : 1));
  for (auto& z : za) z = c.a_signed ? byte(rng) - 128 : byte(rng);
  for (auto& z : zb) z = c.b_signed ? byte(rng) - 128 : byte(rng);

  q8_operand a, b;
  a.matrix = {A.data(), c.a_signed, c.a_trans ? c.M : c.K, c.a_trans};
  b.matrix = {B.data(), c.b_signed, c.b_trans ? c.K : c.N, !c.b_trans};
  a.zero_point = za.data();
  b.zero_point = zb.data();
  a.per_index = b.per_index = c.per_index;
  q8_panels pa, pb;
  if (c.prepack_a) a.packed = &(pa = q8_pack_a(c.M, c.K, a.matrix, kernel));
  if (c.prepack_b) b.packed = &(pb = q8_pack_b(c.K, c.N, b.matrix, kernel));

  std::vector<std::int32_t> C(static_cast<std::size_t>(c.M * c.N), 0x5a5a5a5a);
  std::vector<int> seen(C.size(), 0);
  auto sink = [&](const q8_block& blk) {
    for (int64_t r = 0; r < blk.rows; ++r)
      for (int64_t col = 0; col < blk.cols; ++col) {
        const auto at = static_cast<std::size_t>((blk.i0 + r) * c.N + blk.j0 + col);
        C[at] = c.adding ? blk.at(r, col) : blk.acc[r * blk.ld + col];
        ++seen[at];
      }
  };
  q8_gemm(c.M, c.N, c.K, a, b, c.adding ? q8_sink::adding(sink) : q8_sink::of(sink), pool, kernel);

  int64_t wrong = 0;
  for (int64_t i = 0; i < c.M; ++i)
    for (int64_t j = 0; j < c.N; ++j) {
      int64_t ref = 0;
      const int64_t zai = za[static_cast<std::size_t>(c.per_index ? i : 0)], zbj = zb[static_cast<std::size_t>(c.per_index ? j : 0)];
      for (int64_t k = 0; k < c.K; ++k) ref += (a_at(i, k) - zai) * (b_at(k, j) - zbj);
      const auto at = static_cast<std::size_t>(i * c.N + j);
      if (C[at] != static_cast<std::int32_t>(ref) || seen[at] != 1) {
        if (wrong++ < 3)
          UNSCOPED_INFO(kernel.name << " M" << c.M << " N" << c.N << " K" << c.K << " at (" << i << "," << j
                                    << "): " << C[at] << " vs " << ref << ", written " << seen[at] << "x");
      }
    }
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("q8_gemm: every kernel, every operand type, exact", "[qgemm]") {
  for (const auto* k : q8_kernels()) {
    INFO(k->name);
    for (bool as : {false, true})
      for (bool bs : {false, true})
        for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {7, 9, 5}, {8, 32, 4}, {13, 50, 37},
                                {33, 65, 600}, {100, 70, 1030}, {3, 300, 17}})
          for (bool per : {false, true})
            for (bool adding : {false, true}) {
              qcase c{M, N, K, as, bs};
              c.per_index = per;
              c.adding = adding;
              run_case(c, *k, nullptr);
              c.a_trans = true, c.b_trans = true, c.prepack_a = true, c.prepack_b = true;
              run_case(c, *k, nullptr);
            }
  }
}

TEST_CASE("q8_gemm: K = 0 gives zeros, threads give the serial result", "[qgemm]") {
  onyx::thread_pool pool(2);
  for (const auto* k : q8_kernels()) {
    INFO(k->name);
    run_case({5, 6, 0, false, true}, *k, nullptr);
    run_case({200, 300, 70, false, true}, *k, &pool);
    run_case({1, 1000, 300, true, true, false, false, true, false, true}, *k, &pool);
    run_case({300, 9, 130, false, false, false, true, true, true, false}, *k, &pool);
    run_case({200, 300, 70, false, true, false, false, false, false, true, true}, *k, &pool);
  }
}

TEST_CASE("q8_gemm: saturation corner, all-255 activations at K = 65536", "[qgemm]") {
  const int64_t M = 3, N = 35, K = 65536;
  std::vector<std::uint8_t> A(static_cast<std::size_t>(M * K), 255);
  for (std::uint8_t w : {std::uint8_t(127), std::uint8_t(0x80)}) {  // int8 127 and -128
    std::vector<std::uint8_t> B(static_cast<std::size_t>(K * N), w);
    for (const auto* k : q8_kernels()) {
      INFO(k->name << " weight " << value_of(w, true));
      qcase c{M, N, K, false, true};
      run_case(c, *k, nullptr, A, B);
    }
  }
  // int8 x int8 at both ends: -128 * -128 summed 65536 times is 2^30.
  std::vector<std::uint8_t> A8(static_cast<std::size_t>(M * K), 0x80), B8(static_cast<std::size_t>(K * N), 0x80);
  for (const auto* k : q8_kernels()) run_case({M, N, K, true, true}, *k, nullptr, A8, B8);
}

// requantize_row of every level against the formula in long double: int32
// sums with the terms (wrapping), ties at .5 (to even), values far outside
// the range, rows of every length around the vector widths.
TEST_CASE("q8 requantize_row: terms, ties, saturation, every length", "[qgemm]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::int32_t> acc_dist(-40000, 40000);
  for (const auto* k : q8_kernels()) {
    INFO(k->name);
    for (int64_t n : {1, 7, 15, 16, 17, 31, 32, 33, 100})
      for (bool is_signed : {false, true})
        for (int form = 0; form < 4; ++form) {  // bias / scale as arrays or scalars, terms or not
          std::vector<std::int32_t> acc(static_cast<std::size_t>(n)), add(static_cast<std::size_t>(n));
          std::vector<double> bias(static_cast<std::size_t>(n)), scale(static_cast<std::size_t>(n));
          for (int64_t j = 0; j < n; ++j) {
            acc[j] = acc_dist(rng);
            add[j] = acc_dist(rng);
            bias[j] = static_cast<double>(acc_dist(rng) / 16);
            // 1/8: (sum) / 8 lands on .5 for sums = 4 mod 8; some rows far out of range
            scale[j] = j % 5 == 0 ? 0.125 : j % 5 == 1 ? 1.0 : 0.003 + 0.001 * static_cast<double>(j % 7);
          }
          if (n > 2) acc[1] = 2147483000, add[1] = 2000;  // wraps to a large negative sum
          const bool arrays = form & 1, terms = form & 2;
          const std::int32_t add0 = terms ? -1234 : 0;
          const double zero = is_signed ? -3.0 : 120.0;
          std::vector<std::uint8_t> y(static_cast<std::size_t>(n), 0xEE);
          k->requantize(acc.data(), n, terms ? add.data() : nullptr, add0, arrays ? bias.data() : nullptr, 7.0,
                        arrays ? scale.data() : nullptr, 0.125, zero, is_signed, y.data());
          for (int64_t j = 0; j < n; ++j) {
            const auto a = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc[j]) + static_cast<std::uint32_t>(add0) +
                                                     (terms ? static_cast<std::uint32_t>(add[j]) : 0u));
            const long double v = (static_cast<long double>(a) + (arrays ? bias[j] : 7.0)) * (arrays ? scale[j] : 0.125) + zero;
            const long double r = std::clamp(std::nearbyintl(v), is_signed ? -128.0L : 0.0L, is_signed ? 127.0L : 255.0L);
            const int got = is_signed ? static_cast<int>(static_cast<std::int8_t>(y[j])) : static_cast<int>(y[j]);
            INFO("n " << n << " j " << j << " form " << form << " signed " << is_signed << " value " << static_cast<double>(v));
            CHECK(got == static_cast<int>(r));
          }
        }
  }
}

// The vector QLinearMul / QLinearAdd of a level that has them, on every pair
// of input bytes (as dense runs, and with either operand a scalar), against
// the float32 order the portable loops of qlinear_binary.hpp use: each
// operation rounded on its own, then rounded half to even and saturated.
// Scales of 1/2 and 1/4 put many results on .5 exactly.
TEST_CASE("q8 qlinear_mul / qlinear_add: every byte pair, MLAS's float order", "[qgemm]") {
  std::vector<std::uint8_t> a(256 * 256), b(256 * 256);
  for (int i = 0; i < 256 * 256; ++i) a[i] = static_cast<std::uint8_t>(i / 256), b[i] = static_cast<std::uint8_t>(i % 256);
  const auto saturate = [](float v, bool is_signed) {
    const float r = std::nearbyint(v);
    return is_signed ? static_cast<int>(std::clamp(r, -128.0f, 127.0f)) : static_cast<int>(std::clamp(r, 0.0f, 255.0f));
  };
  const auto as_int = [](std::uint8_t v, bool is_signed) { return is_signed ? int(std::int8_t(v)) : int(v); };
  for (const auto* k : q8_kernels()) {
    if (!k->qmul || !k->qadd) continue;
    INFO(k->name);
    for (bool is_signed : {false, true})
      for (float scale : {0.5f, 0.25f, 0.0123f, 3.7f})
        for (int form = 0; form < 3; ++form) {  // both dense, a scalar, b scalar
          const bool da = form != 1, db = form != 2;
          const std::int64_t n = form == 0 ? 256 * 256 : 256;
          const std::uint8_t* pa = da ? a.data() : a.data() + 200 * 256;  // scalar a: byte 200
          const std::uint8_t* pb = db ? (form == 0 ? b.data() : b.data()) : b.data() + 77;  // scalar b: byte 77
          const int za = is_signed ? -3 : 17, zb = is_signed ? 5 : 130;
          const float zc = is_signed ? -1.0f : 128.0f;
          std::vector<std::uint8_t> ym(static_cast<std::size_t>(n)), ya(static_cast<std::size_t>(n));
          k->qmul(pa, pb, n, da, db, za, zb, scale, zc, is_signed, ym.data());
          const float ra = scale, rb = scale * 0.75f, c0 = zc - 0.3f;
          k->qadd(pa, pb, n, da, db, c0, ra, rb, is_signed, ya.data());
          std::int64_t wrong = 0;
          for (std::int64_t i = 0; i < n; ++i) {
            const int va = as_int(pa[da ? i : 0], is_signed), vb = as_int(pb[db ? i : 0], is_signed);
            volatile float prod = static_cast<float>((va - za) * (vb - zb)) * scale;  // rounded alone
            const int want_mul = saturate(prod + zc, is_signed);
            float sum = c0;
            if (da) {
              volatile float t = static_cast<float>(va) * ra;
              sum = sum + t;
            }
            if (db) {
              volatile float t = static_cast<float>(vb) * rb;
              sum = sum + t;
            }
            const int want_add = saturate(sum, is_signed);
            wrong += as_int(ym[i], is_signed) != want_mul;
            wrong += as_int(ya[i], is_signed) != want_add;
          }
          INFO("signed " << is_signed << " scale " << scale << " form " << form);
          CHECK(wrong == 0);
        }
  }
}

TEST_CASE("q8 dequantize: wrapping int32 terms, product then bias rounded apart, every length", "[qgemm]") {
  // y = float(acc + add0 + add) * scale + bias, each step rounded alone, as
  // the Cast -> Mul -> Add chain of a dynamically quantized MatMul computes it.
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::int32_t> ints(-(1 << 30), 1 << 30);
  std::uniform_real_distribution<float> reals(-2.0f, 2.0f);
  for (const auto* k : q8_kernels()) {
    if (!k->dequantize) continue;
    INFO(k->name);
    for (std::int64_t n : {1, 7, 15, 16, 17, 33, 100}) {
      std::vector<std::int32_t> acc(static_cast<std::size_t>(n)), add(static_cast<std::size_t>(n));
      std::vector<float> scale(static_cast<std::size_t>(n)), bias(static_cast<std::size_t>(n));
      for (std::int64_t j = 0; j < n; ++j) {
        acc[j] = j == 0 ? INT32_MAX : ints(rng);  // INT32_MAX + add0 wraps
        add[j] = ints(rng);
        scale[j] = reals(rng) * 1e-4f;
        bias[j] = reals(rng);
      }
      const std::int32_t add0 = 12345;
      for (std::int64_t step : {1, 0})  // a scale per column, or one for the row
      for (bool with_add : {false, true})
        for (bool with_bias : {false, true}) {
          std::vector<float> y(static_cast<std::size_t>(n) + 1, -7.0f);  // one past the end: untouched
          k->dequantize(acc.data(), n, with_add ? add.data() : nullptr, add0, scale.data(),
                        with_bias ? bias.data() : nullptr, step, y.data());
          std::int64_t wrong = 0;
          for (std::int64_t j = 0; j < n; ++j) {
            std::uint32_t s = static_cast<std::uint32_t>(acc[j]) + static_cast<std::uint32_t>(add0);
            if (with_add) s += static_cast<std::uint32_t>(add[j]);
            volatile float prod = static_cast<float>(static_cast<std::int32_t>(s)) * scale[j * step];  // rounded alone
            const float want = with_bias ? prod + bias[j * step] : prod;
            wrong += std::memcmp(&want, &y[j], sizeof want) != 0;
          }
          INFO("n " << n << " step " << step << " add " << with_add << " bias " << with_bias);
          CHECK(wrong == 0);
          CHECK(y[n] == -7.0f);
        }
    }
  }
}

TEST_CASE("q8_gemm float output: the kernel's float tiles give the dequantized blocks' bits", "[qgemm]") {
  // y = float(exact sum) * scale[j] (+ bias[j]) written tile by tile by the
  // kernel (gemm_float, where it has one) against the same values through the
  // adding sink and write-by-row dequantize; K past one slice (the earlier
  // slices' sums read back), edge tiles, zero points on either side, threads.
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_real_distribution<float> reals(-2.0f, 2.0f);
  const onyx::thread_pool pool(2);
  for (const auto* k : q8_kernels()) {
    INFO(k->name);
    for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{10, 24, 16}, {13, 40, 1030}, {16, 64, 2100},
                           {1, 5, 3}, {9, 33, 0}}) {
      std::vector<std::uint8_t> A(static_cast<std::size_t>(M * K)), B(static_cast<std::size_t>(K * N));
      for (auto& v : A) v = static_cast<std::uint8_t>(byte(rng));
      for (auto& v : B) v = static_cast<std::uint8_t>(byte(rng));
      std::vector<float> scale(static_cast<std::size_t>(N)), bias(static_cast<std::size_t>(N));
      for (auto& v : scale) v = reals(rng) * 1e-3f;
      for (auto& v : bias) v = reals(rng);
      for (std::int32_t za : {0, 131})
        for (std::int32_t zb : {0, -7})
          for (bool with_bias : {false, true}) {
            INFO("M " << M << " N " << N << " K " << K << " za " << za << " zb " << zb << " bias " << with_bias);
            q8_operand a, b;
            a.matrix = {A.data(), false, K, false};
            b.matrix = {B.data(), true, N, true};
            a.zero_point = &za;
            b.zero_point = &zb;
            const float* bp = with_bias ? bias.data() : nullptr;
            std::vector<float> want(static_cast<std::size_t>(M * N), -7.0f), got(want.size(), -7.0f);
            auto by_rows = [&](const q8_block& blk) {
              for (int64_t r = 0; r < blk.rows; ++r)
                for (int64_t j = 0; j < blk.cols; ++j) {
                  volatile float prod = static_cast<float>(blk.at(r, j)) * scale[blk.j0 + j];  // rounded alone
                  want[(blk.i0 + r) * N + blk.j0 + j] = bp ? prod + bp[blk.j0 + j] : prod;
                }
            };
            q8_gemm(M, N, K, a, b, q8_sink::adding(by_rows), &pool, *k);
            int64_t blocks = 0;
            auto counted = [&](const q8_block& blk) {  // what the kernel leaves, if anything
              ++blocks;
              for (int64_t r = 0; r < blk.rows; ++r)
                for (int64_t j = 0; j < blk.cols; ++j) {
                  volatile float prod = static_cast<float>(blk.at(r, j)) * scale[blk.j0 + j];
                  got[(blk.i0 + r) * N + blk.j0 + j] = bp ? prod + bp[blk.j0 + j] : prod;
                }
            };
            q8_sink to = q8_sink::adding(counted);
            to.floats = {got.data(), N, scale.data(), bp};
            q8_gemm(M, N, K, a, b, to, &pool, *k);
            CHECK((k->gemm_float ? blocks == 0 : blocks > 0));
            int64_t differ = 0;
            for (std::size_t i = 0; i < want.size(); ++i) differ += std::memcmp(&want[i], &got[i], sizeof(float)) != 0;
            CHECK(differ == 0);
          }
    }
  }
}

TEST_CASE("q8 f32_quantize_u8: the bytes of the true division, ties and near-ties included", "[qgemm]") {
  // y = clamp(round_half_even(x / scale) + zero, 0, 255) with x / scale the
  // correctly rounded float quotient (DynamicQuantizeLinear's rule), NaN -> 0.
  // The inputs: random values over the range, the float nearest each
  // (k + 1/2) * scale and its neighbours a few ulps apart (the quotients a
  // kernel computing x * (1 / scale) could round to the other integer),
  // zeros, infinities and NaN; scales ordinary, 1, tiny and huge.
  const auto reference = [](float x, float scale, float zero) -> std::uint8_t {
    volatile float q = x / scale;
    const float v = std::nearbyint(q) + zero;
    if (!(v > 0.0f)) return 0;
    return static_cast<std::uint8_t>(v < 255.0f ? v : 255.0f);
  };
  std::mt19937 rng(5);
  for (const auto* k : q8_kernels()) {
    INFO(k->name);
    for (float scale : {0.0123f, 0.37f, 1.0f, 3.0f / 255.0f, 1e-30f, 1e-40f, 7e37f, 0.1f}) {
      std::vector<float> x;
      std::uniform_real_distribution<float> d(-300.0f * scale, 300.0f * scale);
      for (int i = 0; i < 2000; ++i) x.push_back(d(rng));
      for (int kq = -300; kq <= 300; ++kq) {
        float t = static_cast<float>((kq + 0.5) * static_cast<double>(scale));
        for (int u = 0; u < 4; ++u) t = std::nextafter(t, -INFINITY);
        for (int u = 0; u < 9; ++u, t = std::nextafter(t, INFINITY)) x.push_back(t);
      }
      for (float v : {0.0f, -0.0f, INFINITY, -INFINITY, std::numeric_limits<float>::quiet_NaN()}) x.push_back(v);
      for (float zero : {0.0f, 128.0f, 255.0f}) {
        INFO("scale " << scale << " zero " << zero);
        std::vector<std::uint8_t> y(x.size() + 1, 0xA5);
        k->f32_quantize_u8(x.data(), static_cast<std::int64_t>(x.size()), scale, zero, y.data());
        std::int64_t wrong = 0;
        for (std::size_t i = 0; i < x.size(); ++i)
          if (y[i] != reference(x[i], scale, zero) && wrong++ < 3)
            UNSCOPED_INFO("x " << x[i] << ": " << int(y[i]) << " vs " << int(reference(x[i], scale, zero)));
        CHECK(wrong == 0);
        CHECK(y[x.size()] == 0xA5);
      }
    }
  }
}

// q8_pack_weights: for a kernel with a pair-bound twin (avx2's), weights
// with a few pairs over the bound go to the twin with those pairs in fixes,
// and the product stays exact across K slices and edge tiles; weights with
// many such pairs (uniform bytes: about half) stay with the kernel itself.
TEST_CASE("q8_pack_weights: the pair-bound kernel where fixes are few, exact either way", "[qgemm]") {
  for (const auto* k : q8_kernels()) {
    if (!k->for_weights) continue;
    INFO(k->name);
    const int64_t M = 13, N = 37, K = 2100;  // three K slices, a last panel of 5 columns
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> small(-40, 40), byte(0, 255);
    std::vector<std::uint8_t> A(static_cast<std::size_t>(M * K)), few(static_cast<std::size_t>(K * N)), many(few.size());
    for (auto& v : A) v = static_cast<std::uint8_t>(byte(rng));
    for (auto& v : few) v = static_cast<std::uint8_t>(static_cast<std::int8_t>(small(rng)));
    for (int64_t t = 0; t < 60; ++t)  // pairs over the bound, in every slice
      few[static_cast<std::size_t>((t * 997) % (K * N))] = static_cast<std::uint8_t>(t % 2 ? 127 : 0x80),
      few[static_cast<std::size_t>((t * 997 + N) % (K * N))] = static_cast<std::uint8_t>(t % 3 ? 0x81 : 100);
    for (auto& v : many) v = static_cast<std::uint8_t>(byte(rng));
    for (const auto* B : {&few, &many}) {
      const q8_matrix bm{B->data(), true, N, true};
      const q8_panels packed = q8_pack_weights(K, N, bm, *k);
      if (B == &few) {
        CHECK(packed.kernel() == k->for_weights);
        CHECK(packed.fix_count() > 0);
        CHECK(packed.fix_count() * 8 <= (K + 3) / 4 * ((N + 15) / 16));
      } else {
        CHECK(packed.kernel() == k);
      }
      q8_operand a, b;
      const std::int32_t za = 77, zb = 3;
      a.matrix = {A.data(), false, K, false};
      b.matrix = bm;
      b.packed = &packed;
      a.zero_point = &za;
      b.zero_point = &zb;
      std::vector<std::int32_t> C(static_cast<std::size_t>(M * N), 0x5a5a5a5a);
      auto sink = [&](const q8_block& blk) {
        for (int64_t r = 0; r < blk.rows; ++r)
          for (int64_t col = 0; col < blk.cols; ++col)
            C[static_cast<std::size_t>((blk.i0 + r) * N + blk.j0 + col)] = blk.at(r, col);
      };
      q8_gemm(M, N, K, a, b, q8_sink::adding(sink), nullptr);  // the panels' kernel runs
      int64_t wrong = 0;
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          int64_t ref = 0;
          for (int64_t kk = 0; kk < K; ++kk)
            ref += (A[static_cast<std::size_t>(i * K + kk)] - za) *
                   (value_of((*B)[static_cast<std::size_t>(kk * N + j)], true) - zb);
          wrong += C[static_cast<std::size_t>(i * N + j)] != static_cast<std::int32_t>(ref);
        }
      CHECK(wrong == 0);
    }
  }
}

// The vectorized QLinearMul / QLinearAdd rows of each int8 kernel (q8_qmul_fn,
// q8_qadd_fn) against MLAS's float order written out here, bit for bit: every
// length across the vector width and its tail, dense and broadcast operands,
// both types, values at both ends.
TEST_CASE("q8 kernels: QLinearMul and QLinearAdd rows in MLAS's float order, bit for bit", "[qgemm]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(0, 255);
  const auto round_to = [](float v, bool is_signed) {
    const float lo = is_signed ? -128.0f : 0.0f, hi = is_signed ? 127.0f : 255.0f;
    const float r = std::clamp(std::nearbyint(v), lo, hi);
    return is_signed ? static_cast<std::uint8_t>(static_cast<std::int8_t>(r)) : static_cast<std::uint8_t>(r);
  };
  for (const isa::q8_gemm_kernel* k : q8_kernels()) {
    if (!k->qmul && !k->qadd) continue;
    INFO(k->name);
    for (int64_t n : {1, 7, 8, 9, 16, 17, 31, 64, 100})
      for (bool is_signed : {false, true})
        for (int dense = 1; dense < 4; ++dense) {
          const bool da = dense & 1, db = dense & 2;
          std::vector<std::uint8_t> a(static_cast<std::size_t>(n)), b(a.size()), y(a.size()), want(a.size());
          for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::uint8_t(byte(rng)), b[i] = std::uint8_t(byte(rng));
          a[0] = is_signed ? 0x80 : 255, b[a.size() - 1] = is_signed ? 0x7f : 0;
          INFO("n " << n << (is_signed ? " int8" : " uint8") << " dense a " << da << " b " << db);
          if (k->qmul) {
            const int za = is_signed ? -5 : 130, zb = is_signed ? 9 : 121;
            const float scale = 0.0173f, zc = is_signed ? 3.0f : 127.0f;
            for (int64_t i = 0; i < n; ++i) {
              volatile float p = static_cast<float>((value_of(a[da ? i : 0], is_signed) - za) *
                                                    (value_of(b[db ? i : 0], is_signed) - zb)) * scale;
              want[i] = round_to(p + zc, is_signed);
            }
            k->qmul(a.data(), b.data(), n, da, db, za, zb, scale, zc, is_signed, y.data());
            CHECK(y == want);
          }
          if (k->qadd && (da || db)) {
            const float c0 = 17.25f, ra = 0.731f, rb = -0.377f;
            for (int64_t i = 0; i < n; ++i) {
              float v = c0;
              if (da) {
                volatile float t = static_cast<float>(value_of(a[i], is_signed)) * ra;
                v = v + t;
              }
              if (db) {
                volatile float t = static_cast<float>(value_of(b[i], is_signed)) * rb;
                v = v + t;
              }
              want[i] = round_to(v, is_signed);
            }
            k->qadd(a.data(), b.data(), n, da, db, c0, ra, rb, is_signed, y.data());
            CHECK(y == want);
          }
        }
  }
}
