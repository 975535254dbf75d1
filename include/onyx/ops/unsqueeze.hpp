// ops::Unsqueeze: the input with size-1 dims inserted at `axes` (positions in
// the output, negatives counted from the output's end).
// Opsets 13-latest (axes as an int64 input); ops::Unsqueeze_v1 (opsets 1-12,
// axes as an attribute) expands into it. All types; the kernel copies bytes.
// Tested in test/unit/squeeze_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

inline result<sym_shape> unsqueeze_shape(const sym_shape& x, std::span<const std::int64_t> axes) {
  if (!x.rank_known) return sym_shape::unknown_rank();
  const std::size_t r = x.rank() + axes.size();
  ONYX_ASSIGN(auto ax, normalize_axes(axes, r));
  std::vector<dim> out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < r; ++i)
    out.push_back(std::find(ax.begin(), ax.end(), static_cast<int>(i)) != ax.end() ? dim(1) : x.dims[next++]);
  return sym_shape(std::move(out));
}

struct Unsqueeze {
  static constexpr std::string_view domain = "", name = "Unsqueeze";
  static constexpr int since = 13, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 1, dtypes::i64, "axes (int64)"));
    const sym_shape& x = c.input_shape(0);
    if (auto axes = c.input_ints(1)) {
      ONYX_ASSIGN(auto s, unsqueeze_shape(x, *axes));
      c.set_output(0, c.input_type(0), std::move(s));
    } else if (auto n = known_length(c, 1); n && x.rank_known) {
      c.set_output(0, c.input_type(0), unknown_dims(x.rank() + static_cast<std::size_t>(*n)));
    } else {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
    }
    return ok();
  }
};

struct Unsqueeze_v1 {
  static constexpr std::string_view domain = "", name = "Unsqueeze";
  static constexpr int since = 1, until = 12;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  struct attributes {
    std::vector<std::int64_t> axes;
    static constexpr auto fields = std::tuple{field{"axes", &attributes::axes, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_ASSIGN(auto s, unsqueeze_shape(c.input_shape(0), a.axes));
    c.set_output(0, c.input_type(0), std::move(s));
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    ONYX_ASSIGN(auto outs, c.add("Unsqueeze", {c.input(0), c.constant(int64_tensor(a.axes))}));
    c.set_output(0, outs[0]);
    return ok();
  }
};

}  // namespace onyx::ops
