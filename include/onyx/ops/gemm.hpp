// ops::Gemm: Y = alpha * op(A) * op(B) + beta * C, op(X) = X or X^T by transA /
// transB; A and B are 2-D, C (optional since opset 11) broadcasts
// unidirectionally to M x N. Opsets 1-latest in one struct: opsets 1-6's
// `broadcast` attribute is accepted and ignored (C always broadcasts).
// Kernel: float32 (packed SGEMM, B prepacked when constant, C folded into the
// epilogue when it is a row or column vector), float16 (through float32),
// float64, int32, int64. Tested in test/unit/mat_mul_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct Gemm {
  static constexpr std::string_view domain = "", name = "Gemm";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats | dtypes::i32 | dtypes::i64 | dtypes::u32 | dtypes::u64;
  struct attributes {
    float alpha = 1.0f;
    float beta = 1.0f;
    std::int64_t transA = 0;
    std::int64_t transB = 0;
    static constexpr auto fields =
        std::tuple{field{"alpha", &attributes::alpha}, field{"beta", &attributes::beta},
                   field{"transA", &attributes::transA}, field{"transB", &attributes::transB}};
  };
  static status infer(const attributes& a, infer_context& c) {
    for (int i = 0; i < c.input_count(); ++i)
      if (c.has_input(i)) {
        ONYX_TRY(require_type(c, i, T, "T"));
        if (c.input_type(i) != c.input_type(0)) return c.fail("input " + std::to_string(i) + "'s type differs from A's");
      }
    const sym_shape& A = c.input_shape(0);
    const sym_shape& B = c.input_shape(1);
    if (A.rank_known && A.rank() != 2) return c.fail("A must be 2-D, got " + A.str());
    if (B.rank_known && B.rank() != 2) return c.fail("B must be 2-D, got " + B.str());
    const dim M = A.rank_known ? A[a.transA ? 1 : 0] : dim::unknown();
    const dim K = A.rank_known ? A[a.transA ? 0 : 1] : dim::unknown();
    const dim K2 = B.rank_known ? B[a.transB ? 1 : 0] : dim::unknown();
    const dim N = B.rank_known ? B[a.transB ? 0 : 1] : dim::unknown();
    if (K.known() && K2.known() && K.value() != K2.value())
      return c.fail("op(A) " + A.str() + " and op(B) " + B.str() + " disagree on K (transA " +
                    std::to_string(a.transA) + ", transB " + std::to_string(a.transB) + ")");
    sym_shape y(std::vector<dim>{M, N});
    if (c.has_input(2)) {
      const sym_shape& C = c.input_shape(2);
      if (C.rank_known) {
        auto b = broadcast(y, C);
        if (!b.ok() || C.rank() > 2 || !(b->dims[0] == M || !M.known()) || !(b->dims[1] == N || !N.known()))
          return c.fail("C " + C.str() + " does not broadcast to " + y.str());
      }
    }
    c.set_output(0, c.input_type(0), std::move(y));
    return ok();
  }
};

}  // namespace onyx::ops
