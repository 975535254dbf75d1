// onyx/ops/detail/quantize.hpp: what QuantizeLinear and DequantizeLinear
// share: the granularity a scale's shape selects and the scale element each
// input element uses.
//   per-tensor: scale is a scalar or [1] (also any scale when x is 1-D and
//               block_size = 0 and the scale has one element)
//   per-axis:   scale is [x.dim(axis)], block_size = 0
//   blocked:    scale has x's rank, x's dims but ceil(dim(axis) / block_size)
//               at `axis`; block_size > 0
// x is viewed as [outer, n, inner] around the axis.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

struct quant_layout {
  std::int64_t outer = 1, n = 1, inner = 1;
  std::int64_t block = 0;   ///< 0: per-axis (or per-tensor, see `per_tensor`)
  std::int64_t blocks = 1;  ///< scale entries along the axis when blocked
  bool per_tensor = true;

  /// The scale element of x's element at [o, k, i].
  std::int64_t scale_index(std::int64_t o, std::int64_t k, std::int64_t i) const {
    if (per_tensor) return 0;
    if (!block) return k;
    return (o * blocks + k / block) * inner + i;
  }
};

inline result<quant_layout> quant_layout_of(const extents& x, const extents& scale, std::int64_t axis_attr,
                                            std::int64_t block_size) {
  quant_layout q;
  auto shape_error = [&](std::string what) {
    return status(errc::invalid_argument, "scale of shape " + sym_shape(scale).str() + " " + what + " for input " +
                                              sym_shape(x).str());
  };
  if (block_size < 0) return status(errc::invalid_argument, "block_size must not be negative");
  if (block_size == 0 && element_count(scale) == 1 && scale.size() <= 1) return q;
  if (x.empty()) return shape_error("is not a scalar");
  ONYX_ASSIGN(int axis, normalize_axis(axis_attr, x.size()));
  for (int d = 0; d < axis; ++d) q.outer *= x[d];
  q.n = x[axis];
  for (std::size_t d = axis + 1; d < x.size(); ++d) q.inner *= x[d];
  q.per_tensor = false;
  if (block_size == 0) {
    if (scale.size() != 1 || scale[0] != q.n)
      return shape_error("is neither a scalar nor [" + std::to_string(q.n) + "] (per-axis at axis " +
                         std::to_string(axis) + ")");
    return q;
  }
  q.block = block_size;
  q.blocks = (q.n + block_size - 1) / block_size;
  if (scale.size() != x.size()) return shape_error("does not have the input's rank (blocked)");
  for (std::size_t d = 0; d < x.size(); ++d) {
    std::int64_t want = static_cast<int>(d) == axis ? q.blocks : x[d];
    if (scale[d] != want)
      return shape_error("has dim " + std::to_string(d) + " = " + std::to_string(scale[d]) + ", expected " +
                         std::to_string(want) + " (block_size " + std::to_string(block_size) + ")");
  }
  return q;
}

/// A zero point fits a scale: the same shape, or one element each ([] and
/// [1] alike).
inline bool same_quant_shape(const extents& scale, const extents& zero) {
  return scale == zero || (element_count(scale) == 1 && element_count(zero) == 1 && scale.size() <= 1 && zero.size() <= 1);
}

/// Checks scale/zero-point shapes at inference when they are concrete.
inline status check_quant_shapes(const infer_context& c, std::int64_t axis, std::int64_t block_size) {
  auto x = c.input_shape(0).concrete_extents();
  auto s = c.input_shape(1).concrete_extents();
  if (x && s) {
    auto q = quant_layout_of(*x, *s, axis, block_size);
    if (!q.ok()) return c.fail(q.error().message());
  }
  if (c.input_count() > 2 && c.has_input(2)) {
    auto z = c.input_shape(2).concrete_extents();
    if (s && z && !same_quant_shape(*s, *z))
      return c.fail("zero point of shape " + sym_shape(*z).str() + " differs from scale of shape " +
                    sym_shape(*s).str());
  }
  return ok();
}

}  // namespace onyx::ops::detail
