// ops::Squeeze: the input without the size-1 dims listed in `axes` (all
// size-1 dims when axes is omitted).
// Opsets 13-latest (axes as an optional int64 input); ops::Squeeze_v1 (opsets
// 1-12, axes as an attribute) expands into it. All types; the kernel copies
// bytes. Tested in test/unit/squeeze_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

/// x without the dims in `axes` (which must be 1 where known); without axes,
/// without every dim known to be 1 (unknown rank if a dim is unknown).
inline result<sym_shape> squeeze_shape(const sym_shape& x, const std::optional<std::vector<std::int64_t>>& axes) {
  if (!x.rank_known) return sym_shape::unknown_rank();
  std::vector<dim> out;
  if (!axes) {
    for (auto& d : x.dims) {
      if (!d.known()) return sym_shape::unknown_rank();
      if (d.value() != 1) out.push_back(d);
    }
    return sym_shape(std::move(out));
  }
  ONYX_ASSIGN(auto ax, normalize_axes(*axes, x.rank()));
  for (std::size_t i = 0; i < x.rank(); ++i) {
    if (std::find(ax.begin(), ax.end(), static_cast<int>(i)) == ax.end()) {
      out.push_back(x.dims[i]);
    } else if (x.dims[i].known() && x.dims[i].value() != 1) {
      return status(errc::invalid_graph, "cannot squeeze axis " + std::to_string(i) + " of shape " + x.str() +
                                             ": its size is not 1");
    }
  }
  return sym_shape(std::move(out));
}

struct Squeeze {
  static constexpr std::string_view domain = "", name = "Squeeze";
  static constexpr int since = 13, until = latest;
  static constexpr arity inputs{1, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    if (c.has_input(1)) {
      ONYX_TRY(require_type(c, 1, dtypes::i64, "axes (int64)"));
      auto axes = c.input_ints(1);
      if (!axes) {
        auto n = known_length(c, 1);
        const sym_shape& x = c.input_shape(0);
        c.set_output(0, c.input_type(0),
                     n && x.rank_known && static_cast<std::size_t>(*n) <= x.rank()
                         ? unknown_dims(x.rank() - static_cast<std::size_t>(*n))
                         : sym_shape::unknown_rank());
        return ok();
      }
      ONYX_ASSIGN(auto s, squeeze_shape(c.input_shape(0), axes));
      c.set_output(0, c.input_type(0), std::move(s));
      return ok();
    }
    ONYX_ASSIGN(auto s, squeeze_shape(c.input_shape(0), std::nullopt));
    c.set_output(0, c.input_type(0), std::move(s));
    return ok();
  }
};

struct Squeeze_v1 {
  static constexpr std::string_view domain = "", name = "Squeeze";
  static constexpr int since = 1, until = 12;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  struct attributes {
    std::optional<std::vector<std::int64_t>> axes;
    static constexpr auto fields = std::tuple{field{"axes", &attributes::axes}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_ASSIGN(auto s, squeeze_shape(c.input_shape(0), a.axes));
    c.set_output(0, c.input_type(0), std::move(s));
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    std::vector<expand_context::ref> in{c.input(0)};
    if (a.axes) in.push_back(c.constant(int64_tensor(*a.axes)));
    ONYX_ASSIGN(auto outs, c.add("Squeeze", std::move(in)));
    c.set_output(0, outs[0]);
    return ok();
  }
};

}  // namespace onyx::ops
