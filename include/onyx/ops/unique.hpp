// ops::Unique: the distinct elements of X (flattened), or its distinct slices
// along `axis`, sorted ascending (`sorted` = 1; slices compare
// lexicographically in row-major order) or in order of first occurrence; with
// the optional outputs indices (first occurrence), inverse_indices (for each
// element or slice of X, its position in Y) and counts, all int64.
// Opsets 11-latest. Values compare with <, so NaNs are not merged.
// Kernel (kernels/cpu/unique.hpp): every numeric type, bool and string.
// Tested in test/unit/unique_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct Unique {
  static constexpr std::string_view domain = "", name = "Unique";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 4};
  static constexpr dtype_set T = dtypes::numeric | dtypes::boolean | dtypes::string;
  struct attributes {
    std::optional<std::int64_t> axis;
    std::int64_t sorted = 1;
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"sorted", &attributes::sorted}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const sym_shape& x = c.input_shape(0);
    sym_shape y({dim::unknown()});
    dim n = dim::unknown();
    if (a.axis) {
      if (x.rank_known) {
        ONYX_ASSIGN(int axis, normalize_axis(*a.axis, x.rank()));
        y = x;
        y.dims[axis] = dim::unknown();
        n = x[axis];
      } else {
        y = sym_shape::unknown_rank();
      }
    } else if (auto e = x.concrete_extents()) {
      n = dim(element_count(*e));
    }
    c.set_output(0, c.input_type(0), std::move(y));
    for (int i = 1; i < c.output_count(); ++i)
      c.set_output(i, dtype::int64, sym_shape({i == 2 ? n : dim::unknown()}));
    return ok();
  }
};

}  // namespace onyx::ops
