// The f32 transcendental and softmax micro-kernels at every ISA level this CPU
// has, against double-precision std:: functions.
//
// Tolerances (the kernels' documented accuracy):
//   exp       rel 1e-6 where the result is normal; specials exact
//   logistic  rel 1e-6
//   tanh      abs 1e-6 and rel 2e-6 (rel only where |tanh| > 1e-30)
//   erf       abs 1e-6
//   gelu      abs 2e-6 (4 ulp at 8), rel 2e-6 where |gelu| > 0.1; 0 or x past +-4 sqrt 2
//   softmax   rel 1e-6 + 2^-23 |x - max| per element (the rounding of x - max
//             in float, inherent to a float softmax, dominates for large gaps)
// and f32_hard_swish_form, bit for bit the f32_step sequence it stands for.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "kernels/cpu/isa/isa.hpp"

namespace {

namespace isa = onyx::kernels::cpu::isa;
using std::int64_t;

constexpr float inf = std::numeric_limits<float>::infinity();
constexpr float qnan = std::numeric_limits<float>::quiet_NaN();

std::vector<const isa::table*> levels() {
  std::vector<const isa::table*> out;
  for (auto l : isa::all_levels) {
    if (const isa::table* t = isa::find(l)) out.push_back(t);
    else WARN("skipping ISA level " << isa::name(l) << ": this CPU lacks it");
  }
  return out;
}

std::vector<float> grid(float lo, float hi, int64_t n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[i] = lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(n - 1);
  return x;
}

struct error_bound {
  double abs = 0, rel = 0;
  double rel_floor = 0;  // rel checked only where |ref| > rel_floor
};

// Applies f over x (odd length, so every level has a tail) and checks against
// ref; reports the worst errors seen.
template <class Ref>
void check_unary(isa::f32_unary_fn f, const std::vector<float>& x, Ref ref, error_bound bound) {
  std::vector<float> y(x.size());
  f(x.data(), y.data(), static_cast<int64_t>(x.size()));
  double worst_abs = 0, worst_rel = 0;
  float at_abs = 0, at_rel = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = ref(static_cast<double>(x[i]));
    const double e = std::abs(y[i] - r);
    if (e > worst_abs) worst_abs = e, at_abs = x[i];
    if (std::abs(r) > bound.rel_floor && e / std::abs(r) > worst_rel) worst_rel = e / std::abs(r), at_rel = x[i];
  }
  INFO("worst abs " << worst_abs << " at " << at_abs << ", worst rel " << worst_rel << " at " << at_rel);
  if (bound.abs > 0) CHECK(worst_abs <= bound.abs);
  if (bound.rel > 0) CHECK(worst_rel <= bound.rel);
}

// Special values and every length up to 3 vectors, in place and not.
template <class Ref>
void check_lengths(isa::f32_unary_fn f, Ref ref, float lo, float hi, double tol) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(lo, hi);
  for (int64_t n = 0; n <= 49; ++n) {
    std::vector<float> x(static_cast<std::size_t>(n) + 1, 123.0f), y(x.size(), -7.0f);
    for (int64_t i = 0; i < n; ++i) x[i] = d(rng);
    auto in_place = x;
    f(x.data(), y.data(), n);
    f(in_place.data(), in_place.data(), n);
    for (int64_t i = 0; i < n; ++i) {
      CHECK(std::abs(y[i] - ref(double(x[i]))) <= tol * std::max(1.0, std::abs(ref(double(x[i])))));
      CHECK(in_place[i] == y[i]);
    }
    CHECK(y[n] == -7.0f);  // nothing written past n
  }
}

}  // namespace

TEST_CASE("f32_exp: accuracy, specials, tails", "[isa][math]") {
  for (const isa::table* t : levels()) {
    INFO(isa::name(t->isa));
    // ln(FLT_MIN) .. ln(FLT_MAX): results are normal floats.
    check_unary(t->f32_exp, grid(-87.3f, 88.72f, 200001), [](double x) { return std::exp(x); },
                {0, 1e-6, 0});
    check_unary(t->f32_exp, grid(-1.0f, 1.0f, 20001), [](double x) { return std::exp(x); }, {0, 1e-6, 0});
    // Subnormal results: gradual, abs error within one subnormal step.
    check_unary(t->f32_exp, grid(-103.0f, -87.5f, 1001), [](double x) { return std::exp(x); },
                {2e-45, 0, 0});
    const std::vector<float> x = {-inf, inf, qnan, 0.0f, -0.0f, 89.0f, 1000.0f, -1000.0f, 88.72f};
    std::vector<float> y(x.size());
    t->f32_exp(x.data(), y.data(), static_cast<int64_t>(x.size()));
    CHECK(y[0] == 0.0f);
    CHECK(y[1] == inf);
    CHECK(std::isnan(y[2]));
    CHECK(y[3] == 1.0f);
    CHECK(y[4] == 1.0f);
    CHECK(y[5] == inf);
    CHECK(y[6] == inf);
    CHECK(y[7] == 0.0f);
    CHECK(std::isfinite(y[8]));
    check_lengths(t->f32_exp, [](double v) { return std::exp(v); }, -10.0f, 10.0f, 1e-6);
  }
}

TEST_CASE("f32_logistic", "[isa][math]") {
  auto ref = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  for (const isa::table* t : levels()) {
    INFO(isa::name(t->isa));
    check_unary(t->f32_logistic, grid(-87.0f, 87.0f, 100001), ref, {0, 1e-6, 0});
    const std::vector<float> x = {-inf, inf, qnan, 0.0f, -200.0f, 200.0f};
    std::vector<float> y(x.size());
    t->f32_logistic(x.data(), y.data(), static_cast<int64_t>(x.size()));
    CHECK(y[0] == 0.0f);
    CHECK(y[1] == 1.0f);
    CHECK(std::isnan(y[2]));
    CHECK(y[3] == 0.5f);
    CHECK(y[4] == 0.0f);
    CHECK(y[5] == 1.0f);
    check_lengths(t->f32_logistic, ref, -10.0f, 10.0f, 1e-6);
  }
}

TEST_CASE("f32_tanh", "[isa][math]") {
  auto ref = [](double x) { return std::tanh(x); };
  for (const isa::table* t : levels()) {
    INFO(isa::name(t->isa));
    check_unary(t->f32_tanh, grid(-20.0f, 20.0f, 100001), ref, {1e-6, 2e-6, 1e-30});
    check_unary(t->f32_tanh, grid(-1.0f, 1.0f, 100001), ref, {1e-6, 2e-6, 1e-30});
    check_unary(t->f32_tanh, grid(-1e-4f, 1e-4f, 10001), ref, {1e-6, 2e-6, 1e-30});
    const std::vector<float> x = {-inf, inf, qnan, 0.0f, 100.0f, -100.0f};
    std::vector<float> y(x.size());
    t->f32_tanh(x.data(), y.data(), static_cast<int64_t>(x.size()));
    CHECK(y[0] == -1.0f);
    CHECK(y[1] == 1.0f);
    CHECK(std::isnan(y[2]));
    CHECK(y[3] == 0.0f);
    CHECK(y[4] == 1.0f);
    CHECK(y[5] == -1.0f);
    check_lengths(t->f32_tanh, ref, -3.0f, 3.0f, 2e-6);
  }
}

TEST_CASE("f32_erf", "[isa][math]") {
  auto ref = [](double x) { return std::erf(x); };
  for (const isa::table* t : levels()) {
    INFO(isa::name(t->isa));
    check_unary(t->f32_erf, grid(-8.0f, 8.0f, 200001), ref, {1e-6, 0, 0});
    const std::vector<float> x = {-inf, inf, qnan, 0.0f};
    std::vector<float> y(x.size());
    t->f32_erf(x.data(), y.data(), static_cast<int64_t>(x.size()));
    CHECK(y[0] == -1.0f);
    CHECK(y[1] == 1.0f);
    CHECK(std::isnan(y[2]));
    CHECK(std::abs(y[3]) <= 1e-6f);
    check_lengths(t->f32_erf, ref, -4.0f, 4.0f, 1e-6);
  }
}

TEST_CASE("f32_gelu", "[isa][math]") {
  auto ref = [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); };
  for (const isa::table* t : levels()) {
    INFO(isa::name(t->isa));
    check_unary(t->f32_gelu, grid(-8.0f, 8.0f, 200001), ref, {2e-6, 2e-6, 0.1});
    // Past +-4 sqrt 2 GELU is 0 or x exactly, however large x is.
    const std::vector<float> x = {-1e30f, -1e6f, -100.0f, -5.7f, 5.7f, 100.0f, 1e6f, 1e30f, inf, -inf, qnan, 0.0f};
    std::vector<float> y(x.size());
    t->f32_gelu(x.data(), y.data(), static_cast<int64_t>(x.size()));
    for (std::size_t i = 0; i < 4; ++i) CHECK(y[i] == 0.0f);
    for (std::size_t i = 4; i < 9; ++i) CHECK(y[i] == x[i]);
    CHECK(std::isnan(y[9]));  // -inf * 0, as x/2 (1 + erf(x / sqrt 2)) gives
    CHECK(std::isnan(y[10]));
    CHECK(y[11] == 0.0f);
  }
}

TEST_CASE("f32_softmax_rows", "[isa][math]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> d(-20.0f, 20.0f);
  for (const isa::table* t : levels()) {
    INFO(isa::name(t->isa));
    for (int64_t n : {1, 2, 3, 7, 15, 16, 17, 31, 33, 64, 65, 128, 1000, 1001}) {
      // 1..9 rows (groups of four and single rows), a row stride past n,
      // with no bias, one bias row for all (ldb 0) and a bias row per row.
      for (int64_t rows : {1, 3, 4, 5, 9}) {
        for (int bias_kind = 0; bias_kind < 3; ++bias_kind) {
          INFO("n = " << n << ", rows = " << rows << ", bias " << bias_kind);
          const int64_t ld = n + 3, ldb = bias_kind == 2 ? n + 1 : 0;
          std::vector<float> x(static_cast<std::size_t>(rows * ld)), y(x.size(), -7.0f), bias;
          for (auto& v : x) v = d(rng);
          if (n > 3) x[2] = -inf;  // a masked position in row 0
          if (bias_kind) {
            bias.resize(static_cast<std::size_t>(bias_kind == 2 ? rows * ldb : n));
            for (auto& v : bias) v = d(rng) * 0.25f;
            if (n > 5) bias[4] = -inf;  // masked by the bias (row 0, or every row)
          }
          const float* bp = bias.empty() ? nullptr : bias.data();
          t->f32_softmax_rows(x.data(), ld, y.data(), ld, rows, n, bp, ldb, nullptr);
          std::vector<float> unscaled(x.size(), -7.0f), inv(static_cast<std::size_t>(rows), -1.0f);
          t->f32_softmax_rows(x.data(), ld, unscaled.data(), ld, rows, n, bp, ldb, inv.data());
          int64_t bad = 0, bad_unscaled = 0, touched = 0;
          for (int64_t r = 0; r < rows; ++r) {
            const auto tv = [&](int64_t i) {
              return double(x[r * ld + i]) + (bp ? double(bp[r * ldb + i]) : 0.0);
            };
            double m = -INFINITY, sum = 0;
            for (int64_t i = 0; i < n; ++i) m = std::max(m, tv(i));
            for (int64_t i = 0; i < n; ++i) sum += std::exp(tv(i) - m);
            for (int64_t i = 0; i < n; ++i) {
              const double e = std::exp(tv(i) - m), want = e / sum, got = y[r * ld + i];
              // The float sum x + b rounds once: allow for it in exp's argument.
              const double tol = 1e-6 + std::ldexp(std::abs(tv(i) - m) + std::abs(tv(i)), -23);
              if (e == 0) bad += got != 0.0f;
              else bad += !(std::abs(got - want) <= tol * want);
              if (e != 0) bad_unscaled += !(std::abs(unscaled[r * ld + i] - e) <= tol * e);
            }
            // The float sum of n terms: up to about n rounding errors of 2^-24.
            bad_unscaled += !(std::abs(inv[r] - 1.0 / sum) <= (1e-6 + std::ldexp(double(n), -24)) / sum);
            for (int64_t i = n; i < ld && r * ld + i < static_cast<int64_t>(y.size()); ++i)
              touched += y[r * ld + i] != -7.0f || unscaled[r * ld + i] != -7.0f;
          }
          CHECK(bad == 0);
          CHECK(bad_unscaled == 0);
          CHECK(touched == 0);
          auto in_place = x;  // in place gives the same bits
          t->f32_softmax_rows(in_place.data(), ld, in_place.data(), ld, rows, n, bp, ldb, nullptr);
          int64_t differ = 0;
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t i = 0; i < n; ++i) differ += in_place[r * ld + i] != y[r * ld + i];
          CHECK(differ == 0);
          if (rows > 1) {  // a row in a group of four gives the bits it gives alone
            std::vector<float> alone(static_cast<std::size_t>(n));
            t->f32_softmax_rows(x.data() + ld, ld, alone.data(), n, 1, n, bp ? bp + ldb : nullptr, ldb, nullptr);
            for (int64_t i = 0; i < n; ++i) differ += alone[i] != y[ld + i];
            CHECK(differ == 0);
          }
        }
      }
    }
    float none = 5.0f;
    t->f32_softmax_rows(&none, 1, &none, 1, 1, 0, nullptr, 0, nullptr);
    CHECK(none == 5.0f);
    // A NaN reaches the output (through exp and the sum), at every length.
    for (int64_t n : {3, 17, 40}) {
      std::vector<float> x(static_cast<std::size_t>(n), 1.0f), y(x.size());
      x[1] = qnan;
      t->f32_softmax_rows(x.data(), n, y.data(), n, 1, n, nullptr, 0, nullptr);
      CHECK(std::isnan(y[1]));
    }
  }
}

TEST_CASE("f32_strided_copy: every stride, length and level; reads stop at the last element", "[isa]") {
  for (const isa::table* t : levels()) {
    INFO(isa::name(t->isa));
    for (int64_t stride : {1, 2, 3, 4})
      for (int64_t n : {0, 1, 2, 15, 16, 17, 18, 31, 32, 33, 34, 100}) {
        INFO("stride " << stride << ", n = " << n);
        // The source ends exactly at its last read element (on the heap, so
        // a sanitizer build catches a read past it).
        const auto len = static_cast<std::size_t>(n > 0 ? (n - 1) * stride + 1 : 0);
        std::vector<float> src(len);
        for (std::size_t i = 0; i < len; ++i) src[i] = static_cast<float>(i) + 0.5f;
        std::vector<float> dst(static_cast<std::size_t>(n) + 1, -1.0f);
        t->f32_strided_copy(src.data(), stride, n, dst.data());
        int64_t bad = 0;
        for (int64_t k = 0; k < n; ++k) bad += dst[static_cast<std::size_t>(k)] != static_cast<float>(k * stride) + 0.5f;
        CHECK(bad == 0);
        CHECK(dst[static_cast<std::size_t>(n)] == -1.0f);
      }
  }
}

TEST_CASE("isa f32_hard_swish_form: bit for bit the f32_step sequence, at every ISA level") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(-9.0f, 9.0f);
  std::vector<float> x(1001);
  for (auto& v : x) v = d(rng);
  const float special[] = {qnan, inf, -inf, -0.0f, 0.0f, -3.0f, 3.0f, 1e-40f, -1e-40f, 3e38f, -3e38f};
  for (std::size_t i = 0; i < std::size(special); ++i) x[i * 13] = special[i];
  const auto n = static_cast<int64_t>(x.size());
  for (const isa::table* t : levels())
    for (bool affine : {false, true})
      for (float hi : {6.0f, std::numeric_limits<float>::max()}) {
        INFO((affine ? "affine" : "no affine") << ", hi " << hi);
        std::vector<float> a(x.size()), b(x.size()), got(x.size());
        t->f32_step(isa::f32_step::add, x.data(), 0, nullptr, 3.0f, 0, 0, a.data(), n);
        t->f32_step(isa::f32_step::clip, a.data(), 0, nullptr, 0, 0.0f, hi, b.data(), n);
        t->f32_step(isa::f32_step::mul, x.data(), 0, b.data(), 0, 0, 0, a.data(), n);
        t->f32_step(isa::f32_step::div, a.data(), 0, nullptr, 6.0f, 0, 0, b.data(), n);
        if (affine) {
          t->f32_step(isa::f32_step::mul, b.data(), 0, nullptr, 0.7f, 0, 0, a.data(), n);
          t->f32_step(isa::f32_step::add, a.data(), 0, nullptr, -0.2f, 0, 0, b.data(), n);
        }
        t->f32_hard_swish_form(x.data(), 3.0f, 0.0f, hi, 6.0f, affine, 0.7f, -0.2f, got.data(), n);
        for (int64_t i = 0; i < n; ++i) {
          INFO("x = " << x[i] << ": steps " << b[i] << ", form " << got[i]);
          REQUIRE((std::memcmp(&b[i], &got[i], sizeof(float)) == 0 || (std::isnan(b[i]) && std::isnan(got[i]))));
        }
      }
}
