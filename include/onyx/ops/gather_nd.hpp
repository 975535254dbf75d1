// ops::GatherND: each innermost row of `indices` (length k) addresses a slice
// data[b..., i1, ..., ik, :] after the first batch_dims dims, which data and
// indices share. Output: indices.shape[:-1] + data.shape[batch_dims + k:].
// Negative indices count from the end; out-of-range ones fail with
// errc::out_of_range. Opsets 11-latest (12 added batch_dims). All types;
// int64 indices. Tested in test/unit/gather_elements_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct GatherND {
  static constexpr std::string_view domain = "", name = "GatherND";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::int64_t batch_dims = 0;
    static constexpr auto fields = std::tuple{field{"batch_dims", &attributes::batch_dims}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 1, dtypes::i64, "indices (int64)"));
    const sym_shape &x = c.input_shape(0), &idx = c.input_shape(1);
    if (!x.rank_known || !idx.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    const auto b = static_cast<std::size_t>(a.batch_dims);
    if (a.batch_dims < 0 || b >= std::min(x.rank(), idx.rank()))
      return c.fail("batch_dims " + std::to_string(a.batch_dims) + " must be below both ranks (data " + x.str() +
                    ", indices " + idx.str() + ")");
    const dim& kd = idx.dims.back();
    if (!kd.known()) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    const auto k = static_cast<std::size_t>(kd.value());
    if (k < 1 || b + k > x.rank())
      return c.fail("index rows of length " + std::to_string(k) + " do not fit data " + x.str() + " after " +
                    std::to_string(b) + " batch dims");
    std::vector<dim> out(idx.dims.begin(), idx.dims.end() - 1);
    out.insert(out.end(), x.dims.begin() + static_cast<std::ptrdiff_t>(b + k), x.dims.end());
    c.set_output(0, c.input_type(0), sym_shape(std::move(out)));
    return ok();
  }
};

}  // namespace onyx::ops
