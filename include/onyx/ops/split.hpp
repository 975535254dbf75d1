// ops::Split: the input cut along `axis` into the outputs, by the `split`
// input (sizes), else into `num_outputs` chunks of ceil(d / n) (the last
// smaller), else into equal parts, one per output.
// Opsets 13-latest (split as an input; 18 added num_outputs); ops::Split_v1
// (opsets 1-12, split as an attribute or, in opset 1, an input) expands into
// it. All types; the kernel copies blocks by width. Tested in test/unit/split_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Split {
  static constexpr std::string_view domain = "", name = "Split";
  static constexpr int since = 13, until = latest;
  static constexpr arity inputs{1, 2}, outputs{1, variadic};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::int64_t axis = 0;
    std::optional<std::int64_t> num_outputs;
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"num_outputs", &attributes::num_outputs}};
  };
  /// The piece sizes for an axis of extent d into n outputs, validated.
  static result<std::vector<std::int64_t>> sizes(const attributes& a, const std::optional<std::vector<std::int64_t>>& split,
                                                 std::int64_t d, int n) {
    if (split) {
      if (static_cast<int>(split->size()) != n)
        return status(errc::invalid_graph, "split has " + std::to_string(split->size()) + " entries for " +
                                               std::to_string(n) + " outputs");
      std::int64_t total = 0;
      for (auto s : *split) {
        if (s < 0) return status(errc::invalid_graph, "split holds a negative size " + std::to_string(s));
        total += s;
      }
      if (total != d)
        return status(errc::invalid_graph, "split sizes add up to " + std::to_string(total) + ", not the axis's " +
                                               std::to_string(d));
      return *split;
    }
    if (a.num_outputs) {
      if (*a.num_outputs != n)
        return status(errc::invalid_graph, "num_outputs is " + std::to_string(*a.num_outputs) + " but the node has " +
                                               std::to_string(n) + " outputs");
      std::int64_t chunk = (d + n - 1) / n;
      std::vector<std::int64_t> s;
      for (int i = 0; i < n; ++i) s.push_back(std::clamp<std::int64_t>(d - i * chunk, 0, chunk));
      return s;
    }
    if (d % n != 0)
      return status(errc::invalid_graph, "an axis of " + std::to_string(d) + " does not split evenly into " +
                                             std::to_string(n) + " outputs");
    return std::vector<std::int64_t>(static_cast<std::size_t>(n), d / n);
  }
  static status infer(const attributes& a, infer_context& c) {
    const sym_shape& x = c.input_shape(0);
    const int n = c.output_count();
    if (!x.rank_known) {
      for (int i = 0; i < n; ++i) c.set_output(i, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, x.rank()));
    if (c.has_input(1)) ONYX_TRY(require_type(c, 1, dtypes::i64, "split (int64)"));
    auto split = c.input_ints(1);
    const dim& d = x.dims[axis];
    std::vector<dim> piece(static_cast<std::size_t>(n), dim::unknown());
    if (d.known() && (split || !c.has_input(1))) {
      ONYX_ASSIGN(auto s, sizes(a, split, d.value(), n));
      for (int i = 0; i < n; ++i) piece[i] = s[i];
    } else if (split) {
      for (int i = 0; i < n && i < static_cast<int>(split->size()); ++i) piece[i] = (*split)[i];
    } else if (!c.has_input(1) && !a.num_outputs) {
      for (int i = 0; i < n; ++i) piece[i] = floordiv(d, n);
    }
    for (int i = 0; i < n; ++i) {
      std::vector<dim> o = x.dims;
      o[axis] = piece[i];
      c.set_output(i, c.input_type(0), sym_shape(std::move(o)));
    }
    return ok();
  }
};

struct Split_v1 {
  static constexpr std::string_view domain = "", name = "Split";
  static constexpr int since = 1, until = 12;
  static constexpr arity inputs{1, 2}, outputs{1, variadic};
  struct attributes {
    std::int64_t axis = 0;
    std::optional<std::vector<std::int64_t>> split;
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"split", &attributes::split}};
  };
  static status infer(const attributes& a, infer_context& c) {
    return Split::infer(Split::attributes{a.axis, std::nullopt}, c);
  }
  static status expand(const attributes& a, expand_context& c) {
    std::vector<expand_context::ref> in{c.input(0)};
    if (a.split) in.push_back(c.constant(int64_tensor(*a.split)));
    else if (c.input_count() > 1 && c.input(1) >= 0) in.push_back(c.input(1));
    ONYX_ASSIGN(auto outs, c.add("Split", std::move(in), {attribute{"axis", a.axis}}, c.output_count()));
    for (int i = 0; i < c.output_count(); ++i) c.set_output(i, outs[i]);
    return ok();
  }
};

}  // namespace onyx::ops
