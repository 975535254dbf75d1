// ops::MatMul: numpy matmul. 2-D operands multiply as matrices; higher ranks
// are stacks of matrices in the last two axes with the leading (batch) axes
// broadcast; a 1-D A is promoted to 1 x K and a 1-D B to K x 1, and the added
// axis is removed from the result. Opsets 1-latest (9 and 13 added types).
// Kernel: float32 (packed SGEMM, B prepacked when it is a constant matrix,
// batches folded into M when B is shared), float16 (through float32),
// float64, int32, int64, uint32, uint64. Tested in test/unit/mat_mul_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct MatMul {
  static constexpr std::string_view domain = "", name = "MatMul";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats | dtypes::i32 | dtypes::i64 | dtypes::u32 | dtypes::u64;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, T, "T"));
    if (c.input_type(1) != c.input_type(0)) return c.fail("B's type differs from A's");
    const sym_shape& A = c.input_shape(0);
    const sym_shape& B = c.input_shape(1);
    if (!A.rank_known || !B.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    if (A.rank() == 0 || B.rank() == 0) return c.fail("MatMul operands must have rank >= 1, got " + A.str() + " and " + B.str());
    const dim K = A[A.rank() - 1];
    const dim K2 = B.rank() == 1 ? B[0] : B[B.rank() - 2];
    if (K.known() && K2.known() && K.value() != K2.value())
      return c.fail("A " + A.str() + " and B " + B.str() + " disagree on the inner dimension");
    sym_shape ab(std::vector<dim>(A.dims.begin(), A.dims.end() - std::min<std::size_t>(A.rank(), 2)));
    sym_shape bb(std::vector<dim>(B.dims.begin(), B.dims.end() - std::min<std::size_t>(B.rank(), 2)));
    auto batch = broadcast(ab, bb);
    if (!batch.ok()) return c.fail("batch dims of A " + A.str() + " and B " + B.str() + " do not broadcast");
    std::vector<dim> y = batch->dims;
    if (A.rank() >= 2) y.push_back(A[A.rank() - 2]);
    if (B.rank() >= 2) y.push_back(B[B.rank() - 1]);
    c.set_output(0, c.input_type(0), sym_shape(std::move(y)));
    return ok();
  }
};

}  // namespace onyx::ops
