// Adagrad, Momentum (standard and Nesterov) and Adam against values worked
// out from the spec's formulas (ai.onnx.preview.training, opset 1), on two
// tensors at once (the variadic lists), float32 and float64; bad lists fail.
#include "kernels/cpu/adagrad.hpp"
#include "kernels/cpu/adam.hpp"
#include "kernels/cpu/momentum.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

namespace {

template <class T>
tensor vec(std::vector<T> v) {
  return tensor::from(v, {static_cast<std::int64_t>(v.size())});
}
template <class T>
tensor scalar(T v) {
  return tensor::from(std::vector<T>{v}, {});
}

}  // namespace

TEMPLATE_TEST_CASE("Adagrad: one step on two tensors", "[optimizer]", float, double) {
  using T = TestType;
  // r = 0.1 / (1 + 3 * 0.1); per element g' = 0.001 x + g, H' = H + g'^2,
  // X' = X - r g' / (sqrt(H') + 1e-5). X2 gets the same values as X1, reversed.
  auto r =
      run_op<ops::Adagrad>({scalar<float>(0.1f), scalar<std::int64_t>(3), vec<T>({1.0, -2.0}), vec<T>({-2.0, 1.0}),
                            vec<T>({-1.0, 0.5}), vec<T>({0.5, -1.0}), vec<T>({2.0, 0.25}), vec<T>({0.25, 2.0})},
                           {attr("decay_factor", 0.1f), attr("epsilon", 1e-5f), attr("norm_coefficient", 0.001f)}, 4);
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<T>{T(1.0443816803320156), T(-2.0542829474394755)}, 1e-6, 0);
  test::require_close((*r)[1], std::vector<T>{T(-2.0542829474394755), T(1.0443816803320156)}, 1e-6, 0);
  test::require_close((*r)[2], std::vector<T>{T(2.998001), T(0.498004)}, 1e-6, 0);
  test::require_close((*r)[3], std::vector<T>{T(0.498004), T(2.998001)}, 1e-6, 0);
}

TEMPLATE_TEST_CASE("Momentum: standard and Nesterov steps", "[optimizer]", float, double) {
  using T = TestType;
  // T = 1 > 0, so beta applies: V' = 0.95 V + 0.1 (0.001 X + G).
  const std::vector<tensor> in{scalar<double>(0.1), scalar<std::int64_t>(1), vec<T>({1.2, 2.8}), vec<T>({-0.94, -2.5}),
                               vec<T>({1.7, 3.6})};
  auto with = [](const char* mode) {
    return std::vector<attribute>{attr("alpha", 0.95f), attr("beta", 0.1f), attr("mode", std::string(mode)),
                                  attr("norm_coefficient", 0.001f)};
  };
  auto standard = run_op<ops::Momentum>(in, with("standard"), 2);
  REQUIRE(standard.ok());
  test::require_close((*standard)[0], std::vector<T>{T(1.047888), T(2.482972)}, 1e-6, 0);
  test::require_close((*standard)[1], std::vector<T>{T(1.52112), T(3.17028)}, 1e-6, 0);
  auto nesterov = run_op<ops::Momentum>(in, with("nesterov"), 2);
  REQUIRE(nesterov.ok());
  test::require_close((*nesterov)[0], std::vector<T>{T(1.1493736), T(2.7485434)}, 1e-6, 0);
  test::require_close((*nesterov)[1], std::vector<T>{T(1.52112), T(3.17028)}, 1e-6, 0);
  // At T = 0 the gradient's coefficient is 1, whatever beta is.
  auto first = run_op<ops::Momentum>({in[0], scalar<std::int64_t>(0), in[2], in[3], in[4]}, with("standard"), 2);
  REQUIRE(first.ok());
  const double g0 = 0.001 * 1.2 - 0.94, v0 = 0.95 * 1.7 + g0;
  test::require_close((*first)[1], std::vector<T>{T(v0), T(0.95 * 3.6 + (0.001 * 2.8 - 2.5))}, 1e-6, 0);
  CHECK_FALSE(run_op<ops::Momentum>(in, with("heavy-ball"), 2).ok());
}

TEMPLATE_TEST_CASE("Adam: one step with bias correction", "[optimizer]", float, double) {
  using T = TestType;
  // T = 10: r = 0.1 sqrt(1 - 0.1^10) / (1 - 0.95^10).
  auto r = run_op<ops::Adam>(
      {scalar<float>(0.1f), scalar<std::int64_t>(10), vec<T>({1.2, 2.8}), vec<T>({-0.94, -2.5}), vec<T>({1.7, 3.6}),
       vec<T>({0.1, 0.1})},
      {attr("alpha", 0.95f), attr("beta", 0.1f), attr("epsilon", 1e-7f), attr("norm_coefficient", 0.001f)}, 3);
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<T>{T(0.7639677110013046), T(2.4536752504691917)}, 1e-5, 0);
  test::require_close((*r)[1], std::vector<T>{T(1.56806), T(3.29514)}, 1e-6, 0);
  test::require_close((*r)[2], std::vector<T>{T(0.803210896), T(5.622407056)}, 1e-5, 0);
}

TEST_CASE("Optimizers: lists of different lengths or shapes fail", "[optimizer]") {
  auto x = vec<float>({1, 2}), y = vec<float>({1, 2, 3});
  // R, T and 4 tensors cannot be 3 lists.
  CHECK_FALSE(run_op<ops::Adagrad>({scalar<float>(0.1f), scalar<std::int64_t>(0), x, x, x, x}, {}, 2).ok());
  // G of another shape than X.
  CHECK_FALSE(run_op<ops::Adagrad>({scalar<float>(0.1f), scalar<std::int64_t>(0), x, y, x}, {}, 2).ok());
  // R must be a scalar.
  CHECK_FALSE(run_op<ops::Adagrad>({x, scalar<std::int64_t>(0), x, x, x}, {}, 2).ok());
}
