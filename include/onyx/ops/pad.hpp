// ops::Pad: the input grown (or, with negative pads, cropped) by pads =
// [x1_begin, x2_begin, ..., x1_end, x2_end, ...] over `axes` (all when
// omitted). Modes: constant (constant_value, default 0), reflect (mirror
// without repeating the edge), edge (repeat the edge), wrap (periodic).
// Opsets 11-latest (pads as an input; 18 added axes, 19 wrap); ops::Pad_v2
// (opsets 2-10, pads/value attributes) expands into it.
// Deviation: constant_value may have any numeric type (it is converted to
// T), so Pad_v2 expands without knowing T. All types; the kernel maps each
// output coordinate to a source coordinate per dim and copies by width.
// Tested in test/unit/pad_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

/// Begin and end pads per dim of a rank-`r` input.
struct pad_amounts {
  std::vector<std::int64_t> begin, end;
};

inline result<pad_amounts> resolve_pads(std::size_t r, const std::vector<std::int64_t>& pads,
                                        const std::optional<std::vector<std::int64_t>>& axes) {
  std::vector<int> ax;
  if (axes) {
    ONYX_ASSIGN(ax, normalize_axes(*axes, r));
  } else {
    for (std::size_t i = 0; i < r; ++i) ax.push_back(static_cast<int>(i));
  }
  if (pads.size() != 2 * ax.size())
    return status(errc::invalid_graph, "pads has " + std::to_string(pads.size()) + " entries, expected " +
                                           std::to_string(2 * ax.size()) + " (begin and end per padded axis)");
  pad_amounts p{std::vector<std::int64_t>(r, 0), std::vector<std::int64_t>(r, 0)};
  for (std::size_t i = 0; i < ax.size(); ++i) {
    p.begin[ax[i]] = pads[i];
    p.end[ax[i]] = pads[i + ax.size()];
  }
  return p;
}

struct Pad {
  static constexpr std::string_view domain = "", name = "Pad";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{2, 4}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all, Tind = dtypes::indices;
  struct attributes {
    std::string mode = "constant";
    static constexpr auto fields = std::tuple{field{"mode", &attributes::mode}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.mode != "constant" && a.mode != "reflect" && a.mode != "edge" && a.mode != "wrap")
      return c.fail("mode '" + a.mode + "' is not one of constant, reflect, edge, wrap");
    ONYX_TRY(require_type(c, 1, dtypes::i64, "pads (int64)"));
    if (c.has_input(3)) ONYX_TRY(require_type(c, 3, Tind, "Tind"));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    auto pads = c.input_ints(1);
    auto axes = c.input_ints(3);
    if (!pads || (c.has_input(3) && !axes)) {
      c.set_output(0, c.input_type(0), unknown_dims(x.rank()));
      return ok();
    }
    ONYX_ASSIGN(auto p, resolve_pads(x.rank(), *pads, axes));
    std::vector<dim> out;
    for (std::size_t k = 0; k < x.rank(); ++k) {
      dim d = x.dims[k] + p.begin[k] + p.end[k];
      if (d.known() && d.value() < 0)
        return c.fail("pads shrink dim " + std::to_string(k) + " of " + x.str() + " below 0");
      out.push_back(d);
    }
    c.set_output(0, c.input_type(0), sym_shape(std::move(out)));
    return ok();
  }
};

struct Pad_v2 {
  static constexpr std::string_view domain = "", name = "Pad";
  static constexpr int since = 2, until = 10;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  struct attributes {
    std::string mode = "constant";
    std::vector<std::int64_t> pads;
    float value = 0;
    static constexpr auto fields = std::tuple{field{"mode", &attributes::mode},
                                              field{"pads", &attributes::pads, true},
                                              field{"value", &attributes::value}};
  };
  static status infer(const attributes&, infer_context& c) {
    c.set_output(0, c.input_type(0),
                 c.input_shape(0).rank_known ? unknown_dims(c.input_shape(0).rank()) : sym_shape::unknown_rank());
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    ONYX_ASSIGN(auto outs, c.add("Pad",
                                 {c.input(0), c.constant(int64_tensor(a.pads)), c.constant(tensor::scalar<float>(a.value))},
                                 {attribute{"mode", a.mode}}));
    c.set_output(0, outs[0]);
    return ok();
  }
};

}  // namespace onyx::ops
