// kernels/cuda/normalization.hpp: kernel<Op, cuda> for Softmax and
// LogSoftmax (opset 13+), LayerNormalization, com.microsoft
// SkipLayerNormalization and RMSNormalization, on the row kernels of
// normalization.cu (transformer_launch.hpp). One launch each.
// float32 and float16 (computed in float), except SkipLayerNormalization:
// float32, as its op. Statistics outputs (Mean, InvStdDev) are float32.
// Scale and bias broadcast over the normalized dims as long as their own
// non-1 dims are adjacent there (row_param); anything else is refused with
// errc::unsupported.
#pragma once

#include <span>

#include "kernels/cuda/common.hpp"
#include "kernels/cuda/transformer_launch.hpp"
#include "onyx/core/message.hpp"
#include "onyx/ops/layer_normalization.hpp"
#include "onyx/ops/log_softmax.hpp"
#include "onyx/ops/rms_normalization.hpp"
#include "onyx/ops/skip_layer_normalization.hpp"
#include "onyx/ops/softmax.hpp"

namespace onyx::kernels::cuda {

/// Softmax or LogSoftmax along attribute `axis`: x as [outer, len, inner].
template <class Op, softmax_kind K>
struct softmax_kernel {
  static constexpr std::array types{floats};
  template <ops::signature S>
  static status run(const call<Op>& c) {
    const tensor& x = c.input(0);
    ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
    std::int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= x.dim(d);
    for (std::size_t d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
    return softmax(K, S[0], x.raw(), c.output(0).raw(), outer, x.dim(axis), inner);
  }
};

/// How parameter `p` (Scale, B) broadcast right-aligned to the normalized
/// dims `block` is read along a row: p[(j / div) % period]. The dims where p
/// is not 1 must be adjacent (ignoring dims of 1 in block), which covers a
/// full row, one value, and the usual partial forms ([H] of [S, H], [C, 1, 1]
/// of [C, H, W]).
inline result<row_param> row_param_of(const tensor& p, std::span<const std::int64_t> block, const char* what) {
  const std::size_t r = block.size();
  if (p.rank() > r)
    return failure(errc::invalid_argument, what, " [", to_string(p.shape()),
                   "] has more dims than the normalized shape [", to_string(block), "]");
  const std::size_t offset = r - p.rank();
  int first = -1, last = -1;
  for (std::size_t d = 0; d < r; ++d) {
    const std::int64_t pd = d >= offset ? p.dim(d - offset) : 1;
    if (pd != 1 && pd != block[d])
      return failure(errc::invalid_argument, what, " [", to_string(p.shape()),
                     "] does not broadcast to the normalized shape [", to_string(block), "]");
    if (pd != 1) {
      if (first < 0) first = static_cast<int>(d);
      last = static_cast<int>(d);
    }
  }
  row_param rp;
  rp.p = p.raw();
  if (first < 0) return rp;  // one value
  for (int d = first; d <= last; ++d) {
    const std::int64_t pd = static_cast<std::size_t>(d) >= offset ? p.dim(d - offset) : 1;
    if (pd == 1 && block[d] != 1)
      return failure(errc::unsupported, what, " [", to_string(p.shape()), "] over the normalized shape [",
                     to_string(block), "]: the GPU kernel takes a parameter broadcast along its outer or inner dims only");
    rp.period *= block[d];
  }
  for (std::size_t d = static_cast<std::size_t>(last) + 1; d < r; ++d) rp.div *= block[d];
  return rp;
}

/// Optional statistics output `i` (Mean, InvStdDev) as float, or null.
inline result<float*> stat_output(const kernel_call& c, int i, std::int64_t rows, const char* what) {
  if (!c.has_output(i)) return static_cast<float*>(nullptr);
  tensor& t = c.output(i);
  if (t.type() != dtype::float32)
    return failure(errc::unsupported, what, " of type ", name(t.type()), ": the GPU kernel writes float32 only");
  if (t.size() != rows)
    return failure(errc::internal, what, " [", to_string(t.shape()), "] does not hold one value per row (", rows,
                   " rows)");
  return static_cast<float*>(t.raw());
}

/// The dims X.shape[axis:] that LayerNormalization and RMSNormalization normalize over.
inline std::span<const std::int64_t> normalized_dims(const tensor& x, int axis) {
  return {x.shape().data() + axis, x.rank() - static_cast<std::size_t>(axis)};
}

/// X as rows of the normalized dims `block`: the layer_norm_args they share.
inline layer_norm_args rows_of(const tensor& x, std::span<const std::int64_t> block, dtype t) {
  std::int64_t len = 1;
  for (auto d : block) len *= d;
  layer_norm_args a;
  a.t = t;
  a.outer = len ? x.size() / len : 0, a.inner = 1, a.len = len;
  a.x = x.raw();
  a.x_stride[0] = len;
  return a;
}

}  // namespace onyx::kernels::cuda

namespace onyx {

namespace kcu = kernels::cuda;

// clang-format off
template <> struct kernel<ops::Softmax, cuda> : kcu::softmax_kernel<ops::Softmax, kcu::softmax_kind::softmax> {};
template <> struct kernel<ops::LogSoftmax, cuda> : kcu::softmax_kernel<ops::LogSoftmax, kcu::softmax_kind::log_softmax> {};
// clang-format on

/// LayerNormalization (17+): rows of X.shape[axis:], Scale and B broadcast
/// along them (row_param), Mean and InvStdDev when asked.
template <>
struct kernel<ops::LayerNormalization, cuda> {
  static constexpr std::array types{kcu::floats};
  template <ops::signature S>
  static status run(const call<ops::LayerNormalization>& c) {
    const tensor& x = c.input(0);
    ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
    const auto block = kcu::normalized_dims(x, axis);
    kcu::layer_norm_args a = kcu::rows_of(x, block, S[0]);
    const std::int64_t rows = a.outer;
    ONYX_ASSIGN(a.scale, kcu::row_param_of(c.input(1), block, "Scale"));
    if (c.has_input(2)) {
      ONYX_ASSIGN(a.shift, kcu::row_param_of(c.input(2), block, "B"));
    }
    a.epsilon = c.attrs().epsilon;
    a.y = c.output(0).raw();
    ONYX_ASSIGN(a.mean, kcu::stat_output(c, 1, rows, "LayerNormalization's Mean"));
    ONYX_ASSIGN(a.inv_std, kcu::stat_output(c, 2, rows, "LayerNormalization's InvStdDev"));
    return kcu::layer_norm(a);
  }
};

/// RMSNormalization (23+): X and scale of one type (the op refuses mixed types).
template <>
struct kernel<ops::RMSNormalization, cuda> {
  static constexpr std::array types{kcu::floats};
  template <ops::signature S>
  static status run(const call<ops::RMSNormalization>& c) {
    const tensor& x = c.input(0);
    if (c.input(1).type() != x.type())
      return failure(errc::unsupported, "RMSNormalization on the GPU: scale of type ", name(c.input(1).type()),
                     " with X of type ", name(x.type()));
    ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
    const auto block = kcu::normalized_dims(x, axis);
    kcu::layer_norm_args a = kcu::rows_of(x, block, S[0]);
    ONYX_ASSIGN(a.scale, kcu::row_param_of(c.input(1), block, "scale"));
    a.epsilon = c.attrs().epsilon;
    a.rms = true;
    a.y = c.output(0).raw();
    return kcu::layer_norm(a);
  }
};

/// com.microsoft SkipLayerNormalization: s = input + skip [+ bias] over the
/// last dim H, normalized with gamma [and beta]. input and skip are read
/// through their leading dims broadcast to the output's (a row stride of 0
/// along a dim of 1), so a skip shared by the batch needs no copy. Optional
/// outputs: mean, inv_std_var, input_skip_bias_sum.
template <>
struct kernel<ops::SkipLayerNormalization, cuda> {
  static constexpr std::array types{dtypes::f32};
  template <ops::signature S>
  static status run(const call<ops::SkipLayerNormalization>& c) {
    const tensor &x = c.input(0), &skip = c.input(1);
    tensor& y = c.output(0);
    const extents& out = y.shape();
    if (out.size() < 2 || out.size() > 3)
      return failure(errc::invalid_argument, "SkipLayerNormalization: the output [", to_string(out),
                     "] must be [B, S, H] or [S, H]");
    const std::int64_t h = out.back();
    if (x.rank() < 1 || skip.rank() < 1 || x.shape().back() != h || skip.shape().back() != h)
      return failure(errc::invalid_argument, "SkipLayerNormalization: input [", to_string(x.shape()), "] and skip [",
                     to_string(skip.shape()), "] must share the last dim ", h);
    for (int i : {2, 3, 4})
      if (c.has_input(i) && c.input(i).size() != h)
        return failure(errc::invalid_argument, "SkipLayerNormalization: ",
                       i == 2 ? "gamma" : i == 3 ? "beta" : "bias", " must hold ", h, " values, got [",
                       to_string(c.input(i).shape()), "]");
    // The output's leading dims as [outer, inner] (outer 1 for a 2-D output),
    // and each operand's row strides along them.
    const std::int64_t lead[2] = {out.size() == 3 ? out[0] : 1, out[out.size() - 2]};
    kcu::layer_norm_args a;
    auto strides = [&](const tensor& t, const char* what, std::int64_t* stride) -> status {
      if (t.rank() > out.size())
        return failure(errc::invalid_argument, "SkipLayerNormalization: ", what, " [", to_string(t.shape()),
                       "] has more dims than the output [", to_string(out), "]");
      std::int64_t next = h;
      for (int d = 1; d >= 0; --d) {
        const std::size_t from_end = static_cast<std::size_t>(2 - d);  // dims after this one, H included
        const std::int64_t n = t.rank() > from_end ? t.dim(t.rank() - 1 - from_end) : 1;
        if (n != 1 && n != lead[d])
          return failure(errc::invalid_argument, "SkipLayerNormalization: ", what, " [", to_string(t.shape()),
                         "] does not broadcast to the output [", to_string(out), "]");
        stride[d] = n == 1 ? 0 : next;
        next *= n;
      }
      return ok();
    };
    ONYX_TRY(strides(x, "input", a.x_stride));
    ONYX_TRY(strides(skip, "skip", a.skip_stride));
    const std::int64_t rows = lead[0] * lead[1];
    a.t = S[0];
    a.outer = lead[0], a.inner = lead[1], a.len = h;
    a.x = x.raw();
    a.skip = skip.raw();
    a.add = c.has_input(4) ? c.input(4).raw() : nullptr;
    a.scale.p = c.input(2).raw(), a.scale.period = h;
    if (c.has_input(3)) a.shift.p = c.input(3).raw(), a.shift.period = h;
    a.epsilon = c.attrs().epsilon;
    a.y = y.raw();
    if (c.has_output(3)) {
      if (c.output(3).size() != y.size())
        return failure(errc::internal, "SkipLayerNormalization: input_skip_bias_sum [",
                       to_string(c.output(3).shape()), "] differs from the output [", to_string(out), "]");
      a.sum = c.output(3).raw();
    }
    ONYX_ASSIGN(a.mean, kcu::stat_output(c, 1, rows, "SkipLayerNormalization's mean"));
    ONYX_ASSIGN(a.inv_std, kcu::stat_output(c, 2, rows, "SkipLayerNormalization's inv_std_var"));
    return kcu::layer_norm(a);
  }
};

}  // namespace onyx
