// Softmax, LogSoftmax, Hardmax against double references, and the expansion
// of their opset 1-12 forms.
#include "kernels/cpu/softmax.hpp"
#include "onyx/ops/hardmax.hpp"
#include "onyx/ops/log_softmax.hpp"
#include "onyx/ops/softmax.hpp"

#include "op_harness.hpp"

namespace {

using namespace onyx;
using onyx::test::attr;

enum class which { softmax, log_softmax, hardmax };

std::vector<double> reference(const std::vector<double>& x, const extents& shape, int axis, which w) {
  std::int64_t inner = 1;
  for (std::size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const std::int64_t len = shape[axis];
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::int64_t pos = (static_cast<std::int64_t>(i) / inner) % len, base = static_cast<std::int64_t>(i) - pos * inner;
    double m = -INFINITY, sum = 0;
    std::int64_t best = 0;
    for (std::int64_t j = 0; j < len; ++j) {
      const double v = x[base + j * inner];
      if (v > m) m = v, best = j;
    }
    for (std::int64_t j = 0; j < len; ++j) sum += std::exp(x[base + j * inner] - m);
    y[i] = w == which::softmax ? std::exp(x[i] - m) / sum
           : w == which::log_softmax ? x[i] - m - std::log(sum)
                                     : double(pos == best);
  }
  return y;
}

template <class Op> void check(which w) {
  for (extents shape : {extents{37}, extents{3, 19}, extents{2, 5, 7}, extents{2, 3, 4, 33}}) {
    auto x = onyx::test::random_values<double>(static_cast<std::size_t>(element_count(shape)), -5, 5, 9);
    for (int axis = -static_cast<int>(shape.size()); axis < static_cast<int>(shape.size()); ++axis) {
      const int ax = axis < 0 ? axis + static_cast<int>(shape.size()) : axis;
      auto y = reference(x, shape, ax, w);
      INFO("shape " << to_string(shape) << " axis " << axis);
      auto r = onyx::test::run_op<Op>({tensor::from(std::vector<float>(x.begin(), x.end()), shape)},
                                      {attr("axis", axis)});
      REQUIRE(r.ok());
      onyx::test::require_close((*r)[0], std::vector<float>(y.begin(), y.end()), 1e-5, 1e-6);
      auto rd = onyx::test::run_op<Op>({tensor::from(x, shape)}, {attr("axis", axis)});
      REQUIRE(rd.ok());
      onyx::test::require_close((*rd)[0], y, 1e-12, 1e-14);
    }
  }
  // float16 through float
  std::vector<float16_t> xh;
  std::vector<double> xr;
  for (double v : onyx::test::random_values<double>(30, -3, 3, 4)) xh.push_back(to_float16(float(v))), xr.push_back(to_float(xh.back()));
  auto y = reference(xr, {5, 6}, 1, w);
  auto r = onyx::test::run_op<Op>({tensor::from(xh, {5, 6})});
  REQUIRE(r.ok());
  for (std::size_t i = 0; i < y.size(); ++i) REQUIRE(std::abs(to_float((*r)[0].template values<float16_t>()[i]) - y[i]) < 4e-3);
  // a bad axis
  auto bad = onyx::test::run_op<Op>({tensor::zeros(dtype::float32, {2, 3})}, {attr("axis", 2)});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("axis 2") != std::string::npos);
}

struct recording_expand final : ops::expand_context {
  std::vector<std::string> ops;
  std::vector<std::vector<attribute>> attrs;
  int next = 1, out = -1;
  int input_count() const override { return 1; }
  int output_count() const override { return 1; }
  ref input(int) const override { return 0; }
  ref constant(tensor) override { return next++; }
  result<std::vector<ref>> add(std::string_view op, std::vector<ref>, std::vector<attribute> a,
                               int) override {
    ops.emplace_back(op);
    attrs.push_back(std::move(a));
    return std::vector<ref>{next++};
  }
  void set_output(int, ref r) override { out = r; }
};

template <class Op> void check_v1(const char* name) {
  recording_expand c;
  REQUIRE(Op::expand(typename Op::attributes{}, c).ok());
  REQUIRE(c.ops == std::vector<std::string>{"Flatten", name, "Shape", "Reshape"});
  CHECK(std::get<std::int64_t>(c.attrs[0][0].data) == 1);   // Flatten at the default axis 1
  CHECK(std::get<std::int64_t>(c.attrs[1][0].data) == -1);  // the op along the last axis
  CHECK(c.out == 4);
}

}  // namespace

TEST_CASE("Softmax", "[softmax]") { check<ops::Softmax>(which::softmax); }
TEST_CASE("LogSoftmax", "[softmax]") { check<ops::LogSoftmax>(which::log_softmax); }
TEST_CASE("Hardmax", "[softmax]") { check<ops::Hardmax>(which::hardmax); }
TEST_CASE("Opset 1-12 forms expand through Flatten and Reshape", "[softmax]") {
  check_v1<ops::Softmax_v1>("Softmax");
  check_v1<ops::LogSoftmax_v1>("LogSoftmax");
  check_v1<ops::Hardmax_v1>("Hardmax");
}
