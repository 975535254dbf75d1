// ops::ReverseSequence: for each batch entry b, the first sequence_lens[b]
// steps along `time_axis` reversed, the rest copied. batch_axis and
// time_axis are 0 and 1 in either order; rank >= 2.
// Opsets 10-latest. A length outside [0, time steps] is errc::out_of_range.
// Kernel (kernels/cpu/reverse_sequence.hpp): every byte-addressed type, per
// element width. Tested in test/unit/reverse_sequence_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct ReverseSequence {
  static constexpr std::string_view domain = "", name = "ReverseSequence";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all - dtypes::sub_byte;
  struct attributes {
    std::int64_t batch_axis = 1;
    std::int64_t time_axis = 0;
    static constexpr auto fields = std::tuple{field{"batch_axis", &attributes::batch_axis},
                                              field{"time_axis", &attributes::time_axis}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, dtypes::i64, "tensor(int64)"));
    if (!((a.batch_axis == 0 && a.time_axis == 1) || (a.batch_axis == 1 && a.time_axis == 0)))
      return c.fail("batch_axis and time_axis must be 0 and 1, got " + std::to_string(a.batch_axis) + " and " +
                    std::to_string(a.time_axis));
    const sym_shape& x = c.input_shape(0);
    const sym_shape& l = c.input_shape(1);
    if (x.rank_known && x.rank() < 2) return c.fail("input must have rank >= 2, got " + x.str());
    if (l.rank_known && l.rank() != 1) return c.fail("sequence_lens must be 1-D, got " + l.str());
    if (x.rank_known && l.rank_known && x[a.batch_axis].known() && l[0].known() &&
        x[a.batch_axis].value() != l[0].value())
      return c.fail("sequence_lens " + l.str() + " does not match batch dim of " + x.str());
    c.set_output(0, c.input(0));
    return ok();
  }
};

}  // namespace onyx::ops
