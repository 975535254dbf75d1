// onyx/ops/detail/pool.hpp: what the pooling ops share: their attributes and
// their shape rule (N x C x window outputs).
#pragma once

#include "onyx/ops/detail/sliding_window.hpp"
#include "onyx/ops/op_name.hpp"

namespace onyx::ops::detail {

/// The attributes of an op that takes none.
struct no_attributes {};

/// The union of MaxPool, AveragePool and LpPool attributes; each op's field
/// table names the ones it has.
struct pool_attributes {
  std::string auto_pad = "NOTSET";
  std::int64_t ceil_mode = 0;
  std::vector<std::int64_t> dilations;
  std::vector<std::int64_t> kernel_shape;
  std::vector<std::int64_t> pads;
  std::vector<std::int64_t> strides;
  std::int64_t count_include_pad = 0;  // AveragePool
  std::int64_t storage_order = 0;      // MaxPool
  float p = 2.0f;                      // LpPool (a float in opset 1, an int since 2)
};

inline result<window_spec> pool_window(const pool_attributes& a, std::size_t spatial) {
  if (a.kernel_shape.empty()) return status(errc::invalid_graph, "missing required attribute 'kernel_shape'");
  return make_window_spec(spatial, a.auto_pad, a.kernel_shape, a.strides, a.dilations, a.pads, a.ceil_mode != 0);
}

/// Checks X (rank >= 3, type in T) and sets outputs [0, outputs) to the pooled
/// shape: output 0 with X's type, output 1 (MaxPool's Indices) int64.
inline status pool_infer(const pool_attributes& a, infer_context& c, dtype_set T) {
  ONYX_TRY(require_type(c, 0, T, "T"));
  const sym_shape& x = c.input_shape(0);
  if (!x.rank_known) {
    for (int i = 0; i < c.output_count(); ++i)
      c.set_output(i, i == 0 ? c.input_type(0) : dtype::int64, sym_shape::unknown_rank());
    return ok();
  }
  if (x.rank() < 3) return c.fail("X must have rank >= 3 (N x C x D1...), got " + x.str());
  ONYX_ASSIGN(auto win, pool_window(a, x.rank() - 2));
  std::vector<dim> y{x[0], x[1]};
  for (std::size_t i = 0; i + 2 < x.rank(); ++i) {
    y.push_back(window_output_dim(win, i, x[2 + i]));
    if (y.back().known() && y.back().value() < 1)
      return c.fail("spatial axis " + std::to_string(i) + " of X " + x.str() + " is smaller than the pooling window");
  }
  for (int i = 0; i < c.output_count(); ++i) c.set_output(i, i == 0 ? c.input_type(0) : dtype::int64, sym_shape(y));
  return ok();
}

/// Global pooling: N x C x 1 x ... x 1.
inline status global_pool_infer(infer_context& c, dtype_set T) {
  ONYX_TRY(require_type(c, 0, T, "T"));
  const sym_shape& x = c.input_shape(0);
  if (!x.rank_known) {
    c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
    return ok();
  }
  if (x.rank() < 3) return c.fail("X must have rank >= 3 (N x C x D1...), got " + x.str());
  std::vector<dim> y(x.rank(), dim(1));
  y[0] = x[0];
  y[1] = x[1];
  c.set_output(0, c.input_type(0), sym_shape(std::move(y)));
  return ok();
}

/// GlobalAveragePool, GlobalMaxPool, GlobalLpPool (opsets 1-latest): float
/// types, output N x C x 1 x ... x 1.
template <op_name Name, class Attributes = no_attributes>
struct global_pool_op {
  static constexpr std::string_view domain = "", name = Name.view();
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  using attributes = Attributes;
  static status infer(const attributes&, infer_context& c) { return global_pool_infer(c, T); }
};

}  // namespace onyx::ops::detail
