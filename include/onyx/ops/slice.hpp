// ops::Slice: data[starts:ends:steps] along `axes` (all leading axes when
// omitted; steps default to 1, may be negative, never 0). Starts and ends
// are clamped as the spec says, so out-of-range bounds are not errors.
// Opsets 10-latest (inputs form; 11 negative axes); ops::Slice_v1 (opsets 1-9,
// starts/ends/axes attributes) expands into it. All types; the kernel is a
// strided copy by width. Tested in test/unit/slice_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

/// Per-axis start and step, and the output extent, of one slice.
struct slice_axis {
  std::int64_t start = 0, step = 1, size = 0;
};

/// Resolves start/end/step against an axis of extent d (spec clamping rules).
inline slice_axis resolve_slice(std::int64_t start, std::int64_t end, std::int64_t step, std::int64_t d) {
  if (start < 0) start += d;
  if (end < 0) end += d;
  if (step > 0) {
    start = std::clamp<std::int64_t>(start, 0, d);
    end = std::clamp<std::int64_t>(end, 0, d);
  } else {
    start = std::clamp<std::int64_t>(start, 0, d - 1);
    end = std::clamp<std::int64_t>(end, -1, d - 1);
  }
  std::int64_t n = step > 0 ? (end - start + step - 1) / step : (start - end + (-step) - 1) / (-step);
  return {start, step, std::max<std::int64_t>(n, 0)};
}

/// The normalized axes and steps of a slice, validated.
inline status slice_axes(std::size_t rank, std::size_t n, const std::optional<std::vector<std::int64_t>>& axes,
                         const std::optional<std::vector<std::int64_t>>& steps, std::vector<int>& ax,
                         std::vector<std::int64_t>& st) {
  if (axes) {
    if (axes->size() != n) return status(errc::invalid_graph, "axes and starts differ in length");
    ONYX_ASSIGN(ax, normalize_axes(*axes, rank));
  } else {
    if (n > rank) return status(errc::invalid_graph, "starts has more entries than the data has dims");
    ax.resize(n);
    for (std::size_t i = 0; i < n; ++i) ax[i] = static_cast<int>(i);
  }
  st = steps ? *steps : std::vector<std::int64_t>(n, 1);
  if (st.size() != n) return status(errc::invalid_graph, "steps and starts differ in length");
  for (auto s : st)
    if (s == 0) return status(errc::invalid_graph, "a slice step is 0");
  return ok();
}

struct Slice {
  static constexpr std::string_view domain = "", name = "Slice";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{3, 5}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all, Tind = dtypes::indices;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    for (int i = 1; i < c.input_count(); ++i)
      if (c.has_input(i)) ONYX_TRY(require_type(c, i, Tind, "Tind"));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    auto starts = c.input_ints(1), ends = c.input_ints(2);
    auto axes = c.input_ints(3), steps = c.input_ints(4);
    bool axes_known = !c.has_input(3) || axes, steps_known = !c.has_input(4) || steps;
    if (!starts || !ends || !axes_known || !steps_known) {
      c.set_output(0, c.input_type(0), unknown_dims(x.rank()));
      return ok();
    }
    if (starts->size() != ends->size()) return c.fail("starts and ends differ in length");
    std::vector<int> ax;
    std::vector<std::int64_t> st;
    ONYX_TRY(slice_axes(x.rank(), starts->size(), axes, steps, ax, st));
    std::vector<dim> out = x.dims;
    for (std::size_t i = 0; i < ax.size(); ++i) {
      const dim& d = x.dims[ax[i]];
      out[ax[i]] = d.known() ? dim(resolve_slice((*starts)[i], (*ends)[i], st[i], d.value()).size) : dim::unknown();
    }
    c.set_output(0, c.input_type(0), sym_shape(std::move(out)));
    return ok();
  }
};

struct Slice_v1 {
  static constexpr std::string_view domain = "", name = "Slice";
  static constexpr int since = 1, until = 9;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  struct attributes {
    std::vector<std::int64_t> starts, ends;
    std::optional<std::vector<std::int64_t>> axes;
    static constexpr auto fields = std::tuple{field{"starts", &attributes::starts, true},
                                              field{"ends", &attributes::ends, true},
                                              field{"axes", &attributes::axes}};
  };
  static status infer(const attributes&, infer_context& c) {
    c.set_output(0, c.input_type(0),
                 c.input_shape(0).rank_known ? unknown_dims(c.input_shape(0).rank()) : sym_shape::unknown_rank());
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    std::vector<expand_context::ref> in{c.input(0), c.constant(int64_tensor(a.starts)),
                                        c.constant(int64_tensor(a.ends))};
    if (a.axes) in.push_back(c.constant(int64_tensor(*a.axes)));
    ONYX_ASSIGN(auto outs, c.add("Slice", std::move(in)));
    c.set_output(0, outs[0]);
    return ok();
  }
};

}  // namespace onyx::ops
