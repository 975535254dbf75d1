// ops::Conv: N-d convolution, Y[n, m] = sum_c W[m, c] (*) X[n, g*C/G + c] + B[m]
// over N x C x D1..Dn inputs with auto_pad, pads, strides, dilations and groups.
// Opsets 1-latest (11 only clarified auto_pad). float32, float64 and float16
// (float16 computes in float32).
// Tested in test/unit/conv_test.cpp.
#pragma once

#include "onyx/ops/detail/sliding_window.hpp"

namespace onyx::ops {

namespace detail {

/// The attributes Conv and fused::Conv share.
struct conv_attributes {
  std::string auto_pad = "NOTSET";
  std::vector<std::int64_t> dilations;
  std::int64_t group = 1;
  std::vector<std::int64_t> kernel_shape;
  std::vector<std::int64_t> pads;
  std::vector<std::int64_t> strides;
};

/// The window of a Conv node: kernel_shape from the attribute or W's dims.
inline result<window_spec> conv_window(const conv_attributes& a, std::size_t spatial,
                                       std::span<const std::int64_t> w_spatial) {
  std::vector<std::int64_t> k = a.kernel_shape;
  if (k.empty()) k.assign(w_spatial.begin(), w_spatial.end());
  return make_window_spec(spatial, a.auto_pad, std::move(k), a.strides, a.dilations, a.pads);
}

/// Conv's shape rule: Y is N x M x out(D1)..out(Dn).
inline status conv_infer(const conv_attributes& a, infer_context& c, dtype_set T) {
  ONYX_TRY(require_type(c, 0, T, "T"));
  ONYX_TRY(require_type(c, 1, T, "T"));
  if (c.input_type(1) != c.input_type(0)) return c.fail("W's type differs from X's");
  if (c.has_input(2) && c.input_type(2) != c.input_type(0)) return c.fail("B's type differs from X's");
  const sym_shape& x = c.input_shape(0);
  const sym_shape& w = c.input_shape(1);
  if (a.group < 1) return c.fail("group " + std::to_string(a.group) + " must be at least 1");
  if (!x.rank_known && !w.rank_known) {
    c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
    return ok();
  }
  const std::size_t rank = x.rank_known ? x.rank() : w.rank();
  if (rank < 3) return c.fail("X must have rank >= 3 (N x C x D1...), got " + x.str());
  if (w.rank_known && w.rank() != rank)
    return c.fail("W has shape " + w.str() + " but X has rank " + std::to_string(rank));
  const std::size_t spatial = rank - 2;
  std::vector<std::int64_t> w_spatial;
  if (a.kernel_shape.empty()) {
    if (!w.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape(std::vector<dim>(rank)));
      return ok();
    }
    for (std::size_t i = 2; i < rank; ++i) {
      if (!w[i].known()) {
        c.set_output(0, c.input_type(0), sym_shape(std::vector<dim>(rank)));
        return ok();
      }
      w_spatial.push_back(w[i].value());
    }
  }
  ONYX_ASSIGN(auto win, conv_window(a, spatial, w_spatial));
  if (w.rank_known) {
    for (std::size_t i = 0; i < spatial; ++i)
      if (w[2 + i].known() && w[2 + i].value() != win.kernel[i])
        return c.fail("kernel_shape does not match W's shape " + w.str());
    if (w[0].known() && w[0].value() % a.group != 0)
      return c.fail("W's output channels " + w[0].str() + " are not divisible by group " + std::to_string(a.group));
    if (x.rank_known && x[1].known() && w[1].known() && x[1].value() != w[1].value() * a.group)
      return c.fail("X has " + x[1].str() + " channels but W " + w.str() + " with group " + std::to_string(a.group) +
                    " expects " + std::to_string(w[1].value() * a.group));
  }
  if (c.has_input(2)) {
    const sym_shape& b = c.input_shape(2);
    if (b.rank_known && (b.rank() != 1 || (w.rank_known && b[0].known() && w[0].known() && !(b[0] == w[0]))))
      return c.fail("B must be a vector of the output channel count, got " + b.str());
  }
  std::vector<dim> y(rank);
  y[0] = x.rank_known ? x[0] : dim::unknown();
  y[1] = w.rank_known ? w[0] : dim::unknown();
  for (std::size_t i = 0; i < spatial; ++i) {
    y[2 + i] = x.rank_known ? window_output_dim(win, i, x[2 + i]) : dim::unknown();
    if (y[2 + i].known() && y[2 + i].value() < 1)
      return c.fail("spatial axis " + std::to_string(i) + " of X " + x.str() + " is smaller than the kernel window");
  }
  c.set_output(0, c.input_type(0), sym_shape(std::move(y)));
  return ok();
}

}  // namespace detail

struct Conv {
  static constexpr std::string_view domain = "", name = "Conv";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f16 | dtypes::f32 | dtypes::f64;
  struct attributes : detail::conv_attributes {
    static constexpr auto fields = std::tuple{
        field{"auto_pad", &attributes::auto_pad},       field{"dilations", &attributes::dilations},
        field{"group", &attributes::group},             field{"kernel_shape", &attributes::kernel_shape},
        field{"pads", &attributes::pads},               field{"strides", &attributes::strides}};
  };
  static status infer(const attributes& a, infer_context& c) { return detail::conv_infer(a, c, T); }
};

}  // namespace onyx::ops
