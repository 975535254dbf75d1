// ops::Compress: the slices of `input` along `axis` whose `condition` entry
// is true (no axis: of the flattened input), like numpy.compress.
// Opsets 9-latest in one struct (11 allowed a negative axis). A condition
// shorter than the axis selects from its length only; a longer one may have
// no true entry past the axis (errc::out_of_range otherwise).
// Kernel (kernels/cpu/compress.hpp): every byte-addressed type, per element
// width. Tested in test/unit/compress_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct Compress {
  static constexpr std::string_view domain = "", name = "Compress";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all - dtypes::sub_byte;
  static constexpr dtype_set T1 = dtypes::boolean;
  struct attributes {
    std::optional<std::int64_t> axis;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, T1, "T1"));
    const sym_shape& cond = c.input_shape(1);
    if (cond.rank_known && cond.rank() != 1) return c.fail("condition must be 1-D, got shape " + cond.str());
    const sym_shape& x = c.input_shape(0);
    if (!a.axis) {
      c.set_output(0, c.input_type(0), sym_shape({dim::unknown()}));
      return ok();
    }
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    ONYX_ASSIGN(int axis, normalize_axis(*a.axis, x.rank()));
    sym_shape y = x;
    y.dims[axis] = dim::unknown();
    c.set_output(0, c.input_type(0), std::move(y));
    return ok();
  }
};

}  // namespace onyx::ops
