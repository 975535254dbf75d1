// kernels/cpu/control.hpp: what the If/Loop/Scan kernels share: handing a
// subgraph's result to the node's output, slicing a scan input, stacking
// per-iteration values.
#pragma once

#include <cstring>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/graph/ir.hpp"

namespace onyx::kernels::cpu {

/// Copies `n` elements of dtype `t` (strings by value).
inline void copy_elements(dtype t, const void* src, std::int64_t src_at, void* dst, std::int64_t dst_at,
                          std::int64_t n) {
  if (t == dtype::string) {
    std::copy_n(static_cast<const std::string*>(src) + src_at, n, static_cast<std::string*>(dst) + dst_at);
    return;
  }
  const std::size_t w = storage_bytes(t, 1);
  std::memcpy(static_cast<char*>(dst) + dst_at * w, static_cast<const char*>(src) + src_at * w,
              static_cast<std::size_t>(n) * w);
}

/// Makes `v` output `i`: copied into the planned tensor when the executor
/// placed one of the same type and shape, else assigned (owning its data:
/// a subgraph output may be a view of memory its run releases).
inline status set_output_value(const kernel_call& c, int i, value v) {
  if (!c.has_output(i)) return ok();
  value& out = c.output_value(i);
  if (v.is_tensor()) {
    const tensor& t = v.as_tensor();
    if (out.is_tensor() && !out.as_tensor().empty() && out.as_tensor().type() == t.type() &&
        out.as_tensor().shape() == t.shape()) {
      copy_elements(t.type(), t.raw(), 0, out.as_tensor().raw(), 0, t.size());
      return ok();
    }
    if (!t.owns()) {
      bool opt = v.is_optional();
      v = t.clone();
      if (opt) v = value::optional(std::move(v));
    }
  }
  out = std::move(v);
  return ok();
}

/// Slice `index` of `x` along `axis`, that axis removed.
inline tensor slice_along(const tensor& x, int axis, std::int64_t index) {
  extents shape = x.shape();
  const std::int64_t len = shape[axis];
  shape.erase(shape.begin() + axis);
  tensor r = tensor::uninitialized(x.type(), shape);
  const std::int64_t outer = element_count(std::span(x.shape()).first(axis)),
                     inner = element_count(std::span(x.shape()).subspan(axis + 1));
  for (std::int64_t o = 0; o < outer; ++o)
    copy_elements(x.type(), x.raw(), (o * len + index) * inner, r.raw(), o * inner, inner);
  return r;
}

/// The tensors of `parts` (one shape) stacked along a new `axis`, in reverse
/// order when `reverse`. `elem` gives type and shape when `parts` is empty.
inline result<tensor> stack_along(const std::vector<tensor>& parts, int axis, bool reverse, dtype t,
                                  const extents& elem) {
  const std::int64_t steps = static_cast<std::int64_t>(parts.size());
  const extents& e = parts.empty() ? elem : parts[0].shape();
  extents shape = e;
  shape.insert(shape.begin() + axis, steps);
  tensor r = tensor::uninitialized(t, shape);
  const std::int64_t outer = element_count(std::span(e).first(axis)), inner = element_count(std::span(e).subspan(axis));
  for (std::int64_t s = 0; s < steps; ++s) {
    const tensor& p = parts[reverse ? steps - 1 - s : s];
    if (p.shape() != e || p.type() != t)
      return status(errc::invalid_argument, "iteration " + std::to_string(s) + " produced a " +
                                                std::string(name(p.type())) + " " + to_string(p.shape()) +
                                                " scan output, but earlier iterations " + std::string(name(t)) +
                                                " " + to_string(e));
    for (std::int64_t o = 0; o < outer; ++o) copy_elements(t, p.raw(), o * inner, r.raw(), (o * steps + s) * inner, inner);
  }
  return r;
}

}  // namespace onyx::kernels::cpu
