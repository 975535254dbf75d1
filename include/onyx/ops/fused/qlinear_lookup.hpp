// ops::fused::QLinearLookup (domain onyx.fused): an elementwise function of
// one 8-bit tensor with per-tensor quantization, as a table of its 256 results,
//   Y[i] = table[X[i] as a byte]       X uint8/int8, table [256] uint8/int8
// or, with a table [C, 256], one table per channel (axis 1 of X, of size C):
//   Y[n, c, ...] = table[c][X[n, c, ...]]
// Y has X's shape and the table's type. Made by graph/passes/fuse_qdq.hpp from
// DequantizeLinear -> chain of elementwise float ops -> QuantizeLinear (an
// activation such as Clip, HardSigmoid, Sigmoid or LeakyRelu, an affine step
// by scalar or per-channel constants, or several of them): the pass runs the chain's own
// kernels once on the 256 values the input can hold, so the table holds
// exactly what the float chain would give. Kernel: kernels/cpu/qlinear_lookup.hpp.
// Tested in test/unit/fuse_qdq_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops::fused {

struct QLinearLookup {
  static constexpr std::string_view domain = "onyx.fused", name = "QLinearLookup";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::u8 | dtypes::i8;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, T, "T"));
    const sym_shape& t = c.input_shape(1);
    const sym_shape& x = c.input_shape(0);
    const bool one = t.rank_known && t.rank() == 1, per_channel = t.rank_known && t.rank() == 2;
    if (t.rank_known && ((!one && !per_channel) || (t[t.rank() - 1].known() && t[t.rank() - 1].value() != 256)))
      return c.fail("table must be [256] or [C, 256], got " + t.str());
    if (per_channel && x.rank_known && (x.rank() < 2 || (x[1].known() && t[0].known() && x[1].value() != t[0].value())))
      return c.fail("a [C, 256] table needs X with C channels on axis 1, got X " + x.str() + " and table " + t.str());
    c.set_output(0, value_type{value_kind::tensor, c.input_type(1), c.input_shape(0)});
    return ok();
  }
};

}  // namespace onyx::ops::fused
