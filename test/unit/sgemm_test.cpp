// sgemm, its packed variants and its threaded split, at every ISA level this
// CPU has, against a double-precision reference.
//
// Tolerance: |C - ref| <= (K + 4) * 2^-23 * mag + 1e-6, mag being the sum of
// the absolute values of the terms of the element (|alpha| sum_k |a b|, |beta
// C|, |bias|): the worst-case bound of float accumulation. Packed, unpacked
// and threaded runs must agree bit for bit (same tiles, same operation order),
// except that one row (M = 1) is a GEMV whose order depends on how B is
// stored (dot products of transposed rows, sums down packed panels, the
// tiles for a packed A): those are each checked against the reference and
// against themselves on every pool.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <tuple>
#include <utility>
#include <random>
#include <vector>

#include "kernels/cpu/sgemm.hpp"

namespace {

using namespace onyx::kernels::cpu;
using std::int64_t;

std::vector<const isa::table*> levels() {
  std::vector<const isa::table*> out;
  for (auto l : isa::all_levels) {
    if (const isa::table* t = isa::find(l)) out.push_back(t);
    else WARN("skipping ISA level " << isa::name(l) << ": this CPU lacks it");
  }
  return out;
}

std::vector<float> random_floats(int64_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

// One test problem: op(A) M x K, op(B) K x N, with leading dimensions padded
// by `pad` so strides are exercised.
struct gemm_case {
  bool ta = false, tb = false;
  int64_t M = 1, N = 1, K = 1, pad = 0;
  float alpha = 1.0f, beta = 0.0f;
  gemm_epilogue ep;

  int64_t lda() const { return (ta ? M : K) + pad; }
  int64_t ldb() const { return (tb ? K : N) + pad; }
  int64_t ldc() const { return N + pad; }
  int64_t a_size() const { return (ta ? K : M) * lda(); }
  int64_t b_size() const { return (tb ? N : K) * ldb(); }
};

// Checks C (as computed) against the reference from A, B and the initial C0.
void check(const gemm_case& g, const std::vector<float>& A, const std::vector<float>& B,
           const std::vector<float>& C0, const std::vector<float>& C) {
  int64_t bad = 0;
  for (int64_t i = 0; i < g.M; ++i) {
    for (int64_t j = 0; j < g.N; ++j) {
      double acc = 0, mag = 0;
      for (int64_t k = 0; k < g.K; ++k) {
        const double a = A[g.ta ? k * g.lda() + i : i * g.lda() + k];
        const double b = B[g.tb ? j * g.ldb() + k : k * g.ldb() + j];
        acc += a * b;
        mag += std::abs(a * b);
      }
      double ref = g.alpha * acc;
      mag *= std::abs(g.alpha);
      if (g.beta != 0) {
        ref += g.beta * double(C0[i * g.ldc() + j]);
        mag += std::abs(g.beta * double(C0[i * g.ldc() + j]));
      }
      if (g.ep.kind != gemm_epilogue::bias_kind::none) {
        const double bias = g.ep.bias[g.ep.kind == gemm_epilogue::bias_kind::per_row ? i : j];
        ref += bias;
        mag += std::abs(bias);
      }
      ref = std::min<double>(std::max<double>(ref, g.ep.min), g.ep.max);
      const double tol = (g.K + 4) * std::ldexp(1.0, -23) * mag + 1e-6;
      const double got = C[i * g.ldc() + j];
      if (!(std::abs(got - ref) <= tol) && bad++ < 5)
        FAIL_CHECK("C[" << i << "," << j << "] = " << got << ", expected " << ref << " +- " << tol);
    }
  }
  // The padding between rows of C must be untouched.
  for (int64_t i = 0; i < g.M; ++i)
    for (int64_t j = g.N; j < g.ldc(); ++j)
      if (!(C[i * g.ldc() + j] == C0[i * g.ldc() + j]) && !(std::isnan(C0[i * g.ldc() + j])) && bad++ < 5)
        FAIL_CHECK("padding C[" << i << "," << j << "] was written");
  CHECK(bad == 0);
}

// Runs the case through sgemm, both packed variants and pools of 2 and 3.
void run_case(const isa::table& t, const gemm_case& g, const std::vector<onyx::thread_pool*>& pools = {}) {
  INFO(isa::name(t.isa) << " " << t.gemm_name << " ta=" << g.ta << " tb=" << g.tb << " M=" << g.M
                        << " N=" << g.N << " K=" << g.K << " pad=" << g.pad << " alpha=" << g.alpha
                        << " beta=" << g.beta << " bias=" << int(g.ep.kind) << " clamp=[" << g.ep.min
                        << "," << g.ep.max << "]");
  const auto A = random_floats(g.a_size(), 1);
  const auto B = random_floats(g.b_size(), 2);
  auto C0 = random_floats(g.M * g.ldc(), 3);
  if (g.beta == 0) C0.assign(C0.size(), std::numeric_limits<float>::quiet_NaN());

  auto C = C0;
  sgemm(g.ta, g.tb, g.M, g.N, g.K, g.alpha, A.data(), g.lda(), B.data(), g.ldb(), g.beta, C.data(),
        g.ldc(), nullptr, g.ep, t);
  check(g, A, B, C0, C);

  auto Cb = C0;
  const packed_b pb = pack_b(g.tb, g.K, g.N, B.data(), g.ldb(), t);
  sgemm_packed(g.ta, g.M, g.N, g.K, g.alpha, A.data(), g.lda(), pb, g.beta, Cb.data(), g.ldc(),
               nullptr, g.ep, t);
  if (g.M == 1) check(g, A, B, C0, Cb);
  if (g.M > 1 || !g.tb) CHECK(std::memcmp(Cb.data(), C.data(), C.size() * sizeof(float)) == 0);

  auto Ca = C0;
  const packed_a pa = pack_a(g.ta, g.M, g.K, A.data(), g.lda(), t);
  sgemm_packed(g.tb, g.M, g.N, g.K, g.alpha, pa, B.data(), g.ldb(), g.beta, Ca.data(), g.ldc(),
               nullptr, g.ep, t);
  if (g.M == 1) check(g, A, B, C0, Ca);
  else CHECK(std::memcmp(Ca.data(), C.data(), C.size() * sizeof(float)) == 0);

  for (const onyx::thread_pool* pool : pools) {
    INFO("pool of " << pool->size());
    auto Ct = C0;
    sgemm(g.ta, g.tb, g.M, g.N, g.K, g.alpha, A.data(), g.lda(), B.data(), g.ldb(), g.beta,
          Ct.data(), g.ldc(), pool, g.ep, t);
    CHECK(std::memcmp(Ct.data(), C.data(), C.size() * sizeof(float)) == 0);
    auto Ctb = C0;
    sgemm_packed(g.ta, g.M, g.N, g.K, g.alpha, A.data(), g.lda(), pb, g.beta, Ctb.data(), g.ldc(),
                 pool, g.ep, t);
    CHECK(std::memcmp(Ctb.data(), Cb.data(), C.size() * sizeof(float)) == 0);
    auto Cta = C0;
    sgemm_packed(g.tb, g.M, g.N, g.K, g.alpha, pa, B.data(), g.ldb(), g.beta, Cta.data(), g.ldc(),
                 pool, g.ep, t);
    CHECK(std::memcmp(Cta.data(), Ca.data(), C.size() * sizeof(float)) == 0);
  }
}

}  // namespace

TEST_CASE("isa: selected level honours ONYX_ISA and the CPU", "[gemm][isa]") {
  CHECK(isa::selected() <= isa::detected());
  CHECK(isa::active().isa == isa::selected());
  CHECK(isa::find(isa::level::scalar) != nullptr);
  for (auto l : isa::all_levels) {
    CHECK((isa::find(l) != nullptr) == (l <= isa::detected()));
    // ONYX_ISA naming a level this CPU has selects exactly that level.
    const char* env = std::getenv("ONYX_ISA");
    if (env && std::strcmp(env, isa::name(l)) == 0 && l <= isa::detected()) CHECK(isa::selected() == l);
  }
}

TEST_CASE("sgemm: odd sizes, every transpose, every level", "[gemm]") {
  for (const isa::table* t : levels()) {
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        // M's last tile takes each row count of the smaller tiles (gemm_rows_of):
        // 3, 7, 14, 17, 20 and 33 leave 2-9 rows past the 6-, 8- or 12-row tiles.
        for (int64_t M : {1, 3, 7, 14, 17, 20, 33})
          // 1-4 and 33/36/65: f32_gemm_few's columns; 9, 17 and 49: a narrow
          // tile and a few columns (16 + 1 of 32, 8 + 1 of 16, 32 + 16 + 1)
          for (int64_t N : {1, 2, 3, 4, 9, 17, 33, 36, 49, 65})
            for (int64_t K : {0, 1, 7, 33}) {
              gemm_case g;
              g.ta = ta, g.tb = tb, g.M = M, g.N = N, g.K = K, g.pad = (M + N) % 3;
              run_case(*t, g);
            }
  }
}

TEST_CASE("sgemm: alpha, beta (NaN C when beta = 0), strides", "[gemm]") {
  for (const isa::table* t : levels()) {
    for (float alpha : {1.0f, -0.5f})
      for (float beta : {0.0f, 1.0f, 0.25f})
        for (int64_t pad : {0, 5}) {
          gemm_case g;
          g.M = 19, g.N = 37, g.K = 29, g.pad = pad, g.alpha = alpha, g.beta = beta;
          g.ta = pad != 0;
          run_case(*t, g);
        }
  }
}

TEST_CASE("sgemm: epilogue bias and clamp", "[gemm]") {
  const auto bias = random_floats(300, 4);
  using kind = gemm_epilogue::bias_kind;
  for (const isa::table* t : levels()) {
    for (kind k : {kind::none, kind::per_row, kind::per_col})
      for (auto [lo, hi] : {std::pair{-INFINITY, INFINITY}, std::pair{0.0f, INFINITY},
                            std::pair{-0.5f, 0.5f}})
        for (float beta : {0.0f, 0.5f})
          for (int64_t K : {0, 13, 300, 1100}) {  // 1100: two K blocks (gemm_kc), bias and clamp only once
            gemm_case g;
            g.M = 23, g.N = 41, g.K = K, g.beta = beta, g.tb = true;
            g.ep.bias = bias.data(), g.ep.kind = k, g.ep.min = lo, g.ep.max = hi;
            run_case(*t, g);
          }
  }
}

// Whole tiles at alpha 1 and beta 0 or 1 take the epilogue that AVX2's
// assembly applies in registers (f32_kernels.ipp, avx2_tile_full): every
// bias kind and clamp, with and without C added, on depths that leave 0-3
// last single steps, two K blocks (the second adds to C), 6-, 4- and
// 2-row tiles and B packed by the tile or prepacked (run_case runs both).
TEST_CASE("sgemm: whole tiles at alpha 1, beta 0 or 1, every epilogue", "[gemm]") {
  const auto bias = random_floats(600, 6);
  using kind = gemm_epilogue::bias_kind;
  for (const isa::table* t : levels()) {
    for (kind k : {kind::none, kind::per_row, kind::per_col})
      for (auto [lo, hi] : {std::pair{-INFINITY, INFINITY}, std::pair{-0.25f, 0.25f}})
        for (float beta : {0.0f, 1.0f})
          for (int64_t K : {4, 7, 66, 1031})
            for (auto [M, N] : {std::pair<int64_t, int64_t>{12, 48}, {16, 40}, {14, 56}}) {
              gemm_case g;
              g.M = M, g.N = N, g.K = K, g.beta = beta, g.tb = K % 2 == 1;
              g.ep.bias = bias.data(), g.ep.kind = k, g.ep.min = lo, g.ep.max = hi;
              run_case(*t, g);
            }
  }
}

TEST_CASE("sgemm: large blocks and threads equal serial", "[gemm][threads]") {
  onyx::thread_pool two(2), three(3);
  const auto bias = random_floats(1100, 5);
  for (const isa::table* t : levels()) {
    for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{130, 65, 300},
                           {251, 67, 2100},    // more than one MC block and three K blocks (gemm_kc)
                           {7, 1030, 70},      // more than one NC block, split over N
                           {300, 5, 17},       // split over M
                           {65, 130, 257},
                           {251, 36, 1030},    // a few last columns over K blocks (beta, then accumulate)
                           {130, 4, 300}}) {   // only a few columns
      gemm_case g;
      g.M = M, g.N = N, g.K = K, g.pad = 3, g.beta = 0.5f, g.alpha = 0.75f;
      g.ep.bias = bias.data(), g.ep.kind = gemm_epilogue::bias_kind::per_col, g.ep.min = -1.0f;
      run_case(*t, g, {&two, &three});
    }
  }
}

TEST_CASE("sgemm: one row (GEMV) in place, transposed and packed, chunked over threads", "[gemm][threads]") {
  onyx::thread_pool two(2), three(3);
  const auto bias = random_floats(9000, 6);
  using kind = gemm_epilogue::bias_kind;
  for (const isa::table* t : levels()) {
    // N: within four vectors, past them, past one 4096-column chunk with a
    // tail; K: a multiple of 4 and not, past one K block of the packed panels.
    for (int64_t N : {5, 16, 63, 64, 65, 100, 4096 + 37})
      for (int64_t K : {3, 768, 1030})
        for (bool ta : {false, true})
          for (bool tb : {false, true}) {
            gemm_case g;
            g.M = 1, g.N = N, g.K = K, g.ta = ta, g.tb = tb, g.pad = ta ? 2 : 1;
            g.alpha = 0.5f, g.beta = N % 2 ? 0.25f : 0.0f;
            g.ep.bias = bias.data(), g.ep.kind = N % 3 == 0 ? kind::per_row : kind::per_col;
            g.ep.min = -2.0f, g.ep.max = 2.0f;
            g.ep.accumulate = N == 63;
            if (g.ep.accumulate) g.beta = 1.0f;
            run_case(*t, g, {&two, &three});
          }
  }
}

// The clamp of the epilogue turns NaN into min (clamp_to), whichever path
// computes the row: the tiles, the few-column kernel or the one-row GEMV.
TEST_CASE("sgemm: the clamp turns NaN into min on every path", "[gemm]") {
  for (const isa::table* t : levels()) {
    for (int64_t M : {1, 2})
      for (int64_t N : {3, 37}) {
        INFO(isa::name(t->isa) << " M=" << M << " N=" << N);
        const int64_t K = 9;
        auto A = random_floats(M * K, 7);
        A[2] = std::numeric_limits<float>::quiet_NaN();  // row 0 sums to NaN in every column
        const auto B = random_floats(K * N, 8);
        std::vector<float> C(static_cast<std::size_t>(M * N));
        gemm_epilogue ep;
        ep.min = -0.25f, ep.max = 0.5f;
        sgemm(false, false, M, N, K, 1.0f, A.data(), K, B.data(), N, 0.0f, C.data(), N, nullptr, ep, *t);
        for (int64_t j = 0; j < N; ++j) CHECK(C[j] == -0.25f);
      }
  }
}

TEST_CASE("sgemm: empty problems", "[gemm]") {
  for (const isa::table* t : levels()) {
    float c = 7.0f;
    sgemm(false, false, 0, 5, 3, 1.0f, nullptr, 3, nullptr, 5, 0.0f, &c, 5, nullptr, {}, *t);
    sgemm(false, false, 5, 0, 3, 1.0f, nullptr, 3, nullptr, 0, 0.0f, &c, 0, nullptr, {}, *t);
    CHECK(c == 7.0f);
  }
}
