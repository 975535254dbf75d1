// ops::fused::MatMul (domain onyx.fused): a MatMul against a matrix, with a
// bias and a pointwise function applied as the product is written,
//   Y = f(MatMul(A, B) + bias)     A [..., M, K], B [K, N], bias [N] (optional)
// where f is none, GELU (erf form) or GELU (tanh form). Produced by the fusion
// pass (graph/passes/fuse_matmul.hpp) from MatMul -> Add (a constant bias
// along the last axis) -> Gelu, which sets the typed attributes directly; the
// kernel (kernels/cpu/mat_mul.hpp) packs a constant B once, folds A's batch
// axes into M, and runs bias and f in the GEMM's epilogue on each finished
// tile. float32 (float16 models reach it through compute_float16_in_float32).
// As node attributes (a model written after optimization, or a test) the
// function reads `activation`: "" | "Gelu" | "GeluTanh".
// detail::with_activation gives the quantized MatMuls (fused/
// dynamic_quantize_mat_mul.hpp, fused/mat_mul_integer_to_float.hpp) the same
// function, spelling and parse.
// Tested in test/unit/fuse_transformer_test.cpp.
#pragma once

#include <cstdint>

#include "onyx/ops/mat_mul.hpp"

namespace onyx::ops::fused {

struct MatMul {
  static constexpr std::string_view domain = "onyx.fused", name = "MatMul";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32;
  enum class function : std::uint8_t { none, gelu, gelu_tanh };
  struct attributes {
    function then = function::none;
  };
  struct spelled {
    std::string activation;
    static constexpr auto fields = std::tuple{field{"activation", &spelled::activation}};
  };
  /// How `then` is spelled as the `activation` attribute.
  static constexpr std::string_view spelling(function f) {
    return f == function::gelu ? "Gelu" : f == function::gelu_tanh ? "GeluTanh" : "";
  }

  static result<attributes> parse(const std::vector<attribute>& given) {
    ONYX_ASSIGN(spelled s, parse_attributes<spelled>(given));
    for (auto f : {function::none, function::gelu, function::gelu_tanh})
      if (s.activation == spelling(f)) return attributes{f};
    return status(errc::invalid_model, "activation '" + s.activation + "' is not \"\", \"Gelu\" or \"GeluTanh\"");
  }

  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, T, "T"));
    const sym_shape& A = c.input_shape(0);
    const sym_shape& B = c.input_shape(1);
    if (B.rank_known && B.rank() != 2) return c.fail("B must be a matrix, got " + B.str());
    if (A.rank_known && A.rank() < 2) return c.fail("A must have rank >= 2, got " + A.str());
    if (c.has_input(2)) {
      ONYX_TRY(require_type(c, 2, T, "T"));
      const sym_shape& bias = c.input_shape(2);
      if (bias.rank_known && (bias.rank() != 1 || (B.rank_known && bias[0].known() && B[1].known() &&
                                                   bias[0].value() != B[1].value())))
        return c.fail("bias must hold B's " + (B.rank_known ? B[1].str() : std::string("N")) + " columns, got " +
                      bias.str());
    }
    return ops::MatMul::infer({}, c);
  }
};

}  // namespace onyx::ops::fused

namespace onyx::ops::detail {

/// `Base`, a com.microsoft MatMul with a float output, with fused::MatMul's
/// function applied to that output: Base's inputs, types and shape rule, in
/// domain onyx.fused, with the `activation` attribute.
template <class Base> struct with_activation : Base {
  static constexpr std::string_view domain = "onyx.fused";
  using attributes = fused::MatMul::attributes;
  static result<attributes> parse(const std::vector<attribute>& given) { return fused::MatMul::parse(given); }
  static status infer(const attributes&, infer_context& c) { return Base::infer({}, c); }
};

}  // namespace onyx::ops::detail
