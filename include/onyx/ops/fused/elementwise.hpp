// ops::fused::Elementwise (domain onyx.fused): a region of float elementwise
// ops computed from one value X, as one pass over X: a hardswish written out
// (x * Clip(x + 3, 0, 6) / 6), the learned affine step after it, x *
// Sigmoid(x), and the like.
//
// Inputs: X (float32), then the region's constant operands C0, C1, ..., each
// one value or one per channel (the size of X's axis 1, every other dim 1,
// lined up with X under numpy broadcasting). Y: X's type and shape.
// Attributes, one entry per step in order (step s writes value s + 1; value 0
// is X; Y is the last step's value):
//   steps     the op: Add Sub Mul Div Max Min Relu Clip LeakyRelu HardSigmoid
//             HardSwish Sigmoid Tanh Neg Abs
//   operands  three per step: a value (0 .. s), or -1 - i for constant Ci, or
//             absent (the unary ops' second and third; a Clip without a
//             bound); Clip reads (x, min, max), its bounds constants; a unary
//             op's x is a value, and one of a binary op's two operands at least
//   alphas, betas  LeakyRelu's alpha, HardSigmoid's alpha and beta (else 0)
// Each step computes what the op's own kernel computes (the same functors and
// the same ISA micro-kernels), so Y is bit for bit the unfused ops' result.
// Made by graph/passes/fuse_elementwise.hpp. Kernel: kernels/cpu/fused_elementwise.hpp.
// Tested in test/unit/fuse_elementwise_test.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "onyx/ops/op.hpp"

namespace onyx::ops::fused {

struct Elementwise {
  static constexpr std::string_view domain = "onyx.fused", name = "Elementwise";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, variadic}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32;

  enum class op : std::uint8_t {
    add, sub, mul, div, max, min, relu, clip, leaky_relu, hard_sigmoid, hard_swish, sigmoid, tanh, neg, abs
  };
  static constexpr std::array<std::string_view, 15> spellings{
      "Add", "Sub", "Mul", "Div", "Max", "Min", "Relu", "Clip", "LeakyRelu", "HardSigmoid", "HardSwish",
      "Sigmoid", "Tanh", "Neg", "Abs"};
  static constexpr std::int64_t absent = std::numeric_limits<std::int32_t>::min();
  /// The most steps the pass makes and the kernel runs.
  static constexpr std::size_t max_steps = 32;
  static constexpr bool binary(op o) { return o <= op::min; }

  struct step {
    op what = op::add;
    std::int64_t operand[3] = {absent, absent, absent};
    float alpha = 0, beta = 0;
  };
  struct attributes {
    std::vector<step> steps;
  };
  struct spelled {
    std::vector<std::string> steps;
    std::vector<std::int64_t> operands;
    std::vector<float> alphas, betas;
    static constexpr auto fields = std::tuple{field{"steps", &spelled::steps}, field{"operands", &spelled::operands},
                                              field{"alphas", &spelled::alphas}, field{"betas", &spelled::betas}};
  };

  /// The steps from `steps`, `operands`, `alphas` and `betas`; each operand a
  /// value written before its step, a constant input or absent where allowed.
  static result<attributes> parse(const std::vector<attribute>& given) {
    ONYX_ASSIGN(spelled s, parse_attributes<spelled>(given));
    const std::size_t n = s.steps.size();
    if (n == 0 || s.operands.size() != 3 * n || s.alphas.size() != n || s.betas.size() != n)
      return status(errc::invalid_model, "Elementwise needs steps, 3 operands per step, alphas and betas of one "
                                         "length; got " + std::to_string(n) + " steps, " +
                                         std::to_string(s.operands.size()) + " operands");
    attributes a;
    for (std::size_t i = 0; i < n; ++i) {
      step st;
      const auto* at = std::find(spellings.begin(), spellings.end(), s.steps[i]);
      if (at == spellings.end()) return status(errc::invalid_model, "Elementwise step '" + s.steps[i] + "' is not an op it runs");
      st.what = static_cast<op>(at - spellings.begin());
      const int needed = binary(st.what) ? 2 : 1;
      for (int j = 0; j < 3; ++j) {
        const std::int64_t v = s.operands[3 * i + j];
        const bool none = v == absent;
        if ((j < needed && none) || (j >= needed && !none && st.what != op::clip) ||
            (!none && v >= static_cast<std::int64_t>(i + 1)) || (j == 0 && !none && v < 0 && !binary(st.what)) ||
            (j == 1 && binary(st.what) && v < 0 && s.operands[3 * i] < 0) ||  // one operand at least varies
            (j > 0 && st.what == op::clip && v >= 0))                          // Clip's bounds are constants
          return status(errc::invalid_model, "Elementwise step " + std::to_string(i) + " (" + s.steps[i] +
                                                 ") has a bad operand " + std::to_string(j) + ": " + std::to_string(v));
        st.operand[j] = v;
      }
      st.alpha = s.alphas[i];
      st.beta = s.betas[i];
      a.steps.push_back(st);
    }
    return a;
  }

  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const sym_shape& x = c.input_shape(0);
    for (int i = 1; i < c.input_count(); ++i) {
      ONYX_TRY(require_type(c, i, T, "T"));
      const sym_shape& k = c.input_shape(i);
      if (!k.rank_known || !x.rank_known) continue;
      bool fits = k.rank() <= x.rank();
      for (std::size_t d = 0; fits && d < k.rank(); ++d) {
        const std::size_t at = x.rank() - k.rank() + d;
        const dim kd = k[d];
        fits = !kd.known() || kd.value() == 1 || (at == 1 && (!x[1].known() || x[1].value() == kd.value()));
      }
      if (!fits) return c.fail("constant " + std::to_string(i - 1) + " of shape " + k.str() +
                               " is neither one value nor one per channel of X " + x.str());
    }
    for (const step& s : a.steps)
      for (std::int64_t v : s.operand)
        if (v != absent && v < 0 && -1 - v >= c.input_count() - 1)
          return c.fail("a step reads constant " + std::to_string(-1 - v) + " of " + std::to_string(c.input_count() - 1));
    c.set_output(0, value_type{value_kind::tensor, dtype::float32, x});
    return ok();
  }
};

}  // namespace onyx::ops::fused
