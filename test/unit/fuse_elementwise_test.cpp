// graph::passes::fuse_elementwise and onyx.fused.Elementwise: regions of
// elementwise ops become one node, and its outputs are bit for bit those of
// the ops run one by one (optimization off), at every ISA level the test runs
// under; regions the pass must not take stay as they are.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "kernels/cpu/fused_elementwise.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/fused/elementwise.hpp"
#include "onyx/session.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using list = std::vector<std::string>;
using test::ops_of;
using test::random_tensor;

/// x [N, C, H, W] -> `body` -> outputs; saved to `file`.
template <class Body>
std::filesystem::path build(const std::string& file, extents shape, Body body) {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, shape);
  body(b, x);
  auto path = onyx::test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

/// Runs `path` optimized and not on `x` (values in [-8, 8), a few of them
/// NaN, infinite or signed zeros); requires the same bits in every output and
/// returns the optimized graph's op types.
list compare(const std::filesystem::path& path, extents shape, int threads = 1) {
  session fused(path, {.threads = threads});
  session plain(path, {.threads = 1, .optimize = false});
  tensor x = random_tensor({shape}, -8, 8, 11);
  float* v = x.data<float>();
  const float special[] = {std::numeric_limits<float>::quiet_NaN(), INFINITY, -INFINITY, -0.0f, 0.0f, -3.0f, 3.0f};
  for (std::size_t i = 0; i < std::size(special) && i < static_cast<std::size_t>(x.size()); ++i)
    v[i * 7 % x.size()] = special[i];
  auto got = fused.run({{"x", x}});
  auto want = plain.run({{"x", x}});
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const tensor& a = got[i].as_tensor();
    const tensor& b = want[i].as_tensor();
    REQUIRE(a.shape() == b.shape());
    for (std::int64_t j = 0; j < a.size(); ++j) {
      const float p = a.data<float>()[j], q = b.data<float>()[j];
      INFO("output " << i << " element " << j << ": fused " << p << ", unfused " << q);
      REQUIRE((std::memcmp(&p, &q, sizeof p) == 0 || (std::isnan(p) && std::isnan(q))));
    }
  }
  return ops_of(fused);
}

/// hardswish written out, x * Clip(x + 3, 0, 6) / 6, then `a` * h + `b`.
std::string hardswish_affine(graph::model_builder& b, const std::string& x, const std::string& a, const std::string& c) {
  auto three = b.initializer("three", tensor::scalar(3.0f));
  auto zero = b.initializer("zero", tensor::scalar(0.0f));
  auto six = b.initializer("six", tensor::scalar(6.0f));
  auto clip = b.node("Clip", {b.node("Add", {x, three}), zero, six});
  auto h = b.node("Div", {b.node("Mul", {x, clip}), six});
  return b.node("Add", {b.node("Mul", {h, a}), c});
}

}  // namespace

TEST_CASE("fuse_elementwise: a written-out hardswish and an affine step per channel become one node") {
  // 5 x 7 x 37 = 1295 elements per batch: chunks end inside a plane.
  const extents shape{2, 5, 7, 37};
  auto path = build("fuse_elementwise_hardswish.onnx", shape, [](graph::model_builder& b, const std::string& x) {
    auto a = b.initializer("a", random_tensor({1, 5, 1, 1}, 0.5, 2, 1));
    auto c = b.initializer("c", random_tensor({5, 1, 1}, -1, 1, 2));
    b.output(hardswish_affine(b, x, a, c));
  });
  CHECK(compare(path, shape) == list{"onyx.fused.Elementwise"});
  CHECK(compare(path, shape, 2) == list{"onyx.fused.Elementwise"});
}

TEST_CASE("fuse_elementwise: the hardswish form in its other spellings runs in registers, bit for bit") {
  using E = ops::fused::Elementwise;
  const extents shape{1, 3, 5, 41};
  SECTION("operands swapped, no upper bound, no affine step") {
    auto path = build("fuse_elementwise_hardswish_swapped.onnx", shape, [](graph::model_builder& b, const std::string& x) {
      auto three = b.initializer("three", tensor::scalar(3.0f));
      auto zero = b.initializer("zero", tensor::scalar(0.0f));
      auto six = b.initializer("six", tensor::scalar(6.0f));
      auto clip = b.node("Clip", {b.node("Add", {three, x}), zero});
      b.output(b.node("Div", {b.node("Mul", {clip, x}), six}));
    });
    CHECK(compare(path, shape) == list{"onyx.fused.Elementwise"});
  }
  SECTION("the affine step's operands swapped") {
    auto path = build("fuse_elementwise_hardswish_affine.onnx", shape, [](graph::model_builder& b, const std::string& x) {
      auto three = b.initializer("three", tensor::scalar(3.0f));
      auto zero = b.initializer("zero", tensor::scalar(0.0f));
      auto six = b.initializer("six", tensor::scalar(6.0f));
      auto a = b.initializer("a", tensor::scalar(0.37f));
      auto c = b.initializer("c", random_tensor({3, 1, 1}, -1, 1, 3));
      auto clip = b.node("Clip", {b.node("Add", {x, three}), zero, six});
      auto h = b.node("Div", {b.node("Mul", {x, clip}), six});
      b.output(b.node("Add", {c, b.node("Mul", {a, h})}));
    });
    CHECK(compare(path, shape, 2) == list{"onyx.fused.Elementwise"});
  }
  SECTION("the kernel takes these step lists for the register path, and leaves others") {
    const auto step = [](E::op what, std::int64_t a, std::int64_t b, std::int64_t c = E::absent) {
      E::step s;
      s.what = what, s.operand[0] = a, s.operand[1] = b, s.operand[2] = c;
      return s;
    };
    std::vector<E::step> form{step(E::op::add, -1, 0), step(E::op::clip, 1, -2, -3), step(E::op::mul, 2, 0),
                              step(E::op::div, 3, -1)};
    auto f = kernels::cpu::match_hard_swish_form(form);
    REQUIRE(f);
    CHECK((f->c == -1 && f->lo == -2 && f->hi == -3 && f->d == -1 && !f->affine));
    CHECK((f->s == E::absent && f->t == E::absent));
    form.push_back(step(E::op::mul, -4, 4));
    form.push_back(step(E::op::add, 5, -5));
    f = kernels::cpu::match_hard_swish_form(form);
    REQUIRE(f);
    CHECK((f->s == -4 && f->t == -5 && f->affine));
    auto divided_by_x = form;
    divided_by_x[3] = step(E::op::div, -1, 3);  // 6 / (x * clip): not the form
    CHECK_FALSE(kernels::cpu::match_hard_swish_form(divided_by_x));
    auto squared = form;
    squared[2] = step(E::op::mul, 2, 2);  // clip * clip
    CHECK_FALSE(kernels::cpu::match_hard_swish_form(squared));
    form.pop_back();
    CHECK_FALSE(kernels::cpu::match_hard_swish_form(form));  // five steps
  }
}

TEST_CASE("fuse_elementwise: every op the region runs, with one-value constants") {
  const extents shape{3, 1000};
  auto path = build("fuse_elementwise_ops.onnx", shape, [](graph::model_builder& b, const std::string& x) {
    auto k = b.initializer("k", tensor::scalar(0.75f));
    auto lo = b.initializer("lo", tensor::scalar(-2.0f));
    auto s = b.node("Sigmoid", {x});
    auto t = b.node("Tanh", {b.node("Sub", {x, k})});
    auto m = b.node("Max", {b.node("Min", {s, t}), b.node("Neg", {x})});
    auto l = b.node("LeakyRelu", {b.node("Abs", {m})}, {{"alpha", 0.3f}});
    auto h = b.node("HardSigmoid", {b.node("Div", {k, l})}, {{"alpha", 0.25f}, {"beta", 0.4f}});
    auto w = b.node("HardSwish", {b.node("Sub", {k, h})});
    auto r = b.node("Relu", {b.node("Mul", {w, x})});
    b.output(b.node("Clip", {b.node("Add", {r, x}), lo}));
  });
  CHECK(compare(path, shape) == list{"onyx.fused.Elementwise"});
}

TEST_CASE("fuse_elementwise: what the pass leaves alone") {
  SECTION("a value inside the region read outside it: the region above it is fused, the rest stays") {
    const extents shape{1, 4, 9, 9};
    auto path = build("fuse_elementwise_escape.onnx", shape, [](graph::model_builder& b, const std::string& x) {
      auto three = b.initializer("three", tensor::scalar(3.0f));
      auto s = b.node("Sigmoid", {b.node("Add", {x, three})});
      b.output(b.node("Mul", {s, three}));
      b.output(b.node("Abs", {s}));
    });
    CHECK(compare(path, shape) == list{"onyx.fused.Elementwise", "Mul", "Abs"});
  }
  SECTION("two varying sources") {
    const extents shape{2, 3, 4};
    auto path = build("fuse_elementwise_two.onnx", shape, [](graph::model_builder& b, const std::string& x) {
      auto y = b.node("Relu", {b.node("Neg", {x})});  // a region of its own: Neg, Relu
      b.output(b.node("Mul", {b.node("Sigmoid", {x}), b.node("Exp", {y})}));
    });
    CHECK(compare(path, shape) == list{"onyx.fused.Elementwise", "Sigmoid", "Exp", "Mul"});
  }
  SECTION("a constant neither one value nor one per channel, and a lone node") {
    const extents shape{2, 3, 4};
    auto path = build("fuse_elementwise_wide.onnx", shape, [](graph::model_builder& b, const std::string& x) {
      auto c = b.initializer("c", random_tensor({3, 4}, -1, 1, 5));
      b.output(b.node("Mul", {b.node("Add", {x, c}), c}));
      b.output(b.node("Sigmoid", {x}));
    });
    CHECK(compare(path, shape) == list{"Add", "Mul", "Sigmoid"});
  }
  SECTION("broadcasting between varying values") {
    auto path = build("fuse_elementwise_broadcast.onnx", {4, 1}, [](graph::model_builder& b, const std::string& x) {
      auto t = b.node("Transpose", {x});  // [1, 4]
      b.output(b.node("Add", {b.node("Neg", {x}), t}));
    });
    CHECK(compare(path, {4, 1}) == list{"Transpose", "Neg", "Add"});
  }
}

TEST_CASE("onyx.fused.Elementwise: malformed steps are refused with the step named") {
  using E = ops::fused::Elementwise;
  auto parse = [](std::vector<std::string> steps, std::vector<std::int64_t> operands) {
    const std::size_t n = steps.size();
    return E::parse({attribute{"steps", steps}, attribute{"operands", operands},
                     attribute{"alphas", std::vector<float>(n)}, attribute{"betas", std::vector<float>(n)}});
  };
  const std::int64_t none = E::absent;
  CHECK(parse({"Add", "Relu"}, {0, -1, none, 1, none, none}).ok());
  auto later = parse({"Add", "Relu"}, {0, 2, none, 1, none, none});  // reads a value written after it
  REQUIRE_FALSE(later.ok());
  CHECK_THAT(later.error().message(), Catch::Contains("step 0 (Add)"));
  auto unknown = parse({"Softmax"}, {0, none, none});
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.error().message(), Catch::Contains("'Softmax'"));
  auto missing = parse({"Mul"}, {0, none, none});
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error().message(), Catch::Contains("bad operand 1"));
  CHECK_FALSE(parse({"Add"}, {-1, -2, none}).ok());  // no operand varies
  CHECK(parse({"Sub"}, {-1, 0, none}).ok());          // a constant first
  CHECK_FALSE(parse({"Neg"}, {-1, none, none}).ok());
  CHECK(parse({"Clip"}, {0, none, -1}).ok());
  CHECK_FALSE(parse({"Clip"}, {0, 0, none}).ok());  // a varying bound
  CHECK_FALSE(parse({"Add"}, {0, -1}).ok());  // operands of the wrong length
}
