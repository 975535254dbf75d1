// kernel<Op, cuda> for the ops that move data without arithmetic: Reshape and
// its kin, Transpose, Concat, Slice, Gather, Expand, Cast. Instantiated per
// element type but dispatched by element width.
//
// Shapes, axes, starts and ends are host inputs (kernel_entry::host_inputs):
// they stay on the CPU, where these kernels read them, so no copy is made
// of them and the executor's plan already knows the output shapes.
#pragma once

#include <numeric>

#include "kernels/cuda/common.hpp"
#include "onyx/ops/cast.hpp"
#include "onyx/ops/concat.hpp"
#include "onyx/ops/expand.hpp"
#include "onyx/ops/flatten.hpp"
#include "onyx/ops/gather.hpp"
#include "onyx/ops/reshape.hpp"
#include "onyx/ops/slice.hpp"
#include "onyx/ops/squeeze.hpp"
#include "onyx/ops/transpose.hpp"
#include "onyx/ops/unsqueeze.hpp"

namespace onyx {

namespace kernels::cuda {

/// Element types the movement kernels take (by width: 1, 2, 4 or 8 bytes).
/// Not int32, int64 or bool: tensors of those are shapes, indices and masks
/// in the models we run, which the CPU computes (inference knows most of them
/// before the run, so they cost nothing) and the GPU kernels read on the host.
/// Moved to the GPU, a shape would come back for the next Reshape, and the
/// shapes after it would be unknown until the run.
inline constexpr dtype_set movable = floats | dtypes::bf16 | dtypes::f64 | dtypes::i8 | dtypes::u8 | dtypes::i16 |
                                     dtypes::u16;

/// Output 0 holds input 0's bytes under another shape (planned by inference).
template <class Op, std::uint32_t HostInputs = 0>
struct same_bytes_kernel {
  static constexpr std::array types{movable};
  static constexpr std::uint32_t host_inputs = HostInputs;
  template <ops::signature S>
  static status run(const call<Op>& c) {
    return same_bytes(c.input(0), c.output(0));
  }
};

/// Element strides of a dense tensor of `shape`.
inline std::vector<std::int64_t> dense_strides(const extents& shape) {
  std::vector<std::int64_t> s(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

/// Drops unit dims and merges dims that stay contiguous, so most views run at rank 2-3.
inline strided_view simplify(strided_view v) {
  strided_view out;
  out.offset = v.offset;
  for (int d = 0; d < v.rank; ++d) {
    if (v.dims[d] == 1) continue;
    if (out.rank > 0 && out.strides[out.rank - 1] == v.strides[d] * v.dims[d]) {
      out.dims[out.rank - 1] *= v.dims[d];
      out.strides[out.rank - 1] = v.strides[d];
      continue;
    }
    out.dims[out.rank] = v.dims[d];
    out.strides[out.rank] = v.strides[d];
    ++out.rank;
  }
  if (out.rank == 0) out.rank = 1, out.dims[0] = 1, out.strides[0] = 1;
  return out;
}

/// y = the view `v` of x, copied densely; one memcpy when the view is dense.
inline status copy_view(const tensor& x, tensor& y, const strided_view& v) {
  if (v.rank > max_rank) return status(errc::unsupported, "the CUDA kernel takes up to 8 dims");
  const strided_view s = simplify(v);
  const int width = static_cast<int>(std::max<std::size_t>(1, bit_width(x.type()) / 8));
  if (y.size() == 0) return ok();
  if (s.rank == 1 && s.strides[0] == 1)
    return copy(static_cast<const char*>(x.raw()) + s.offset * width, y.raw(), y.bytes());
  return copy_strided(width, x.raw(), y.raw(), s);
}

}  // namespace kernels::cuda

namespace kcu = kernels::cuda;

template <> struct kernel<ops::Reshape, cuda> : kcu::same_bytes_kernel<ops::Reshape, kcu::host_input(1)> {};
template <> struct kernel<ops::Flatten, cuda> : kcu::same_bytes_kernel<ops::Flatten> {};
template <> struct kernel<ops::Squeeze, cuda> : kcu::same_bytes_kernel<ops::Squeeze, kcu::host_input(1)> {};
template <> struct kernel<ops::Unsqueeze, cuda> : kcu::same_bytes_kernel<ops::Unsqueeze, kcu::host_input(1)> {};

template <>
struct kernel<ops::Transpose, cuda> {
  static constexpr std::array types{kcu::movable};
  template <ops::signature S>
  static status run(const call<ops::Transpose>& c) {
    const tensor& x = c.input(0);
    ONYX_ASSIGN(auto perm, ops::Transpose::permutation(c.attrs(), x.rank()));
    if (x.rank() > kcu::max_rank) return status(errc::unsupported, "Transpose on the GPU takes up to 8 dims");
    const auto in = kcu::dense_strides(x.shape());
    kcu::strided_view v;
    v.rank = static_cast<int>(x.rank());
    for (int d = 0; d < v.rank; ++d) v.dims[d] = x.dim(perm[d]), v.strides[d] = in[perm[d]];
    return kcu::copy_view(x, c.output(0), v);
  }
};

/// Expand: input 0 broadcast to output 0's shape (the shape input stays on the host).
template <>
struct kernel<ops::Expand, cuda> {
  static constexpr std::array types{kcu::movable};
  static constexpr std::uint32_t host_inputs = kcu::host_input(1);
  template <ops::signature S>
  static status run(const call<ops::Expand>& c) {
    const tensor& x = c.input(0);
    tensor& y = c.output(0);
    if (y.rank() > kcu::max_rank) return status(errc::unsupported, "Expand on the GPU takes up to 8 dims");
    const auto in = kcu::dense_strides(x.shape());
    kcu::strided_view v;
    v.rank = static_cast<int>(y.rank());
    const int lead = v.rank - static_cast<int>(x.rank());
    for (int d = 0; d < v.rank; ++d) {
      v.dims[d] = y.dim(d);
      v.strides[d] = d < lead || x.dim(d - lead) == 1 ? 0 : in[d - lead];
    }
    return kcu::copy_view(x, y, v);
  }
};

/// Slice (opset 10+): starts, ends, axes and steps are read on the host.
template <>
struct kernel<ops::Slice, cuda> {
  static constexpr std::array types{kcu::movable};
  static constexpr std::uint32_t host_inputs = kcu::host_input(1) | kcu::host_input(2) | kcu::host_input(3) |
                                               kcu::host_input(4);
  template <ops::signature S>
  static status run(const call<ops::Slice>& c) {
    const tensor& x = c.input(0);
    auto ints = [&](int i) -> std::optional<std::vector<std::int64_t>> {
      if (!c.has_input(i)) return std::nullopt;
      const tensor& t = c.input(i);
      std::vector<std::int64_t> v(static_cast<std::size_t>(t.size()));
      for (std::int64_t k = 0; k < t.size(); ++k)
        v[k] = t.type() == dtype::int32 ? t.data<std::int32_t>()[k] : t.data<std::int64_t>()[k];
      return v;
    };
    auto starts = *ints(1), ends = *ints(2);
    if (starts.size() != ends.size()) return status(errc::invalid_argument, "Slice: starts and ends differ in length");
    std::vector<int> axes;
    std::vector<std::int64_t> steps;
    ONYX_TRY(ops::slice_axes(x.rank(), starts.size(), ints(3), ints(4), axes, steps));
    if (x.rank() > kcu::max_rank) return status(errc::unsupported, "Slice on the GPU takes up to 8 dims");
    const auto in = kcu::dense_strides(x.shape());
    kcu::strided_view v;
    v.rank = static_cast<int>(x.rank());
    for (int d = 0; d < v.rank; ++d) v.dims[d] = x.dim(d), v.strides[d] = in[d];
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const int d = axes[i];
      auto r = ops::resolve_slice(starts[i], ends[i], steps[i], x.dim(d));
      v.dims[d] = r.size;
      v.offset += r.start * in[d];
      v.strides[d] = in[d] * r.step;
    }
    tensor& y = c.output(0);
    for (int d = 0; d < v.rank; ++d)
      if (v.dims[d] != y.dim(d)) return status(errc::internal, "Slice: the planned output shape differs");
    return kcu::copy_view(x, y, v);
  }
};

/// Gather: indices are read on the host, checked against the axis and sent
/// to the GPU as int64 in the node's scratch.
template <>
struct kernel<ops::Gather, cuda> {
  static constexpr std::array types{kcu::movable, dtypes::indices};
  static constexpr std::uint32_t host_inputs = kcu::host_input(1);
  struct plan_t {};
  template <ops::signature S>
  static result<planned<plan_t>> plan(const plan_info<ops::Gather>& p) {
    planned<plan_t> out;
    out.scratch_bytes = static_cast<std::size_t>(element_count(p.input_shape(1))) * sizeof(std::int64_t);
    return out;
  }
  template <ops::signature S>
  static status run(const call<ops::Gather>& c) {
    const tensor& x = c.input(0);
    const tensor& idx = c.input(1);
    ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
    const std::int64_t d = x.dim(axis);
    std::vector<std::int64_t> at(static_cast<std::size_t>(idx.size()));
    for (std::int64_t k = 0; k < idx.size(); ++k) {
      std::int64_t i = S[1] == dtype::int32 ? idx.data<std::int32_t>()[k] : idx.data<std::int64_t>()[k];
      if (i < -d || i >= d)
        return failure(errc::out_of_range, "index ", i, " (entry ", k, ") is out of range for axis ", axis,
                       " of extent ", d);
      at[k] = i < 0 ? i + d : i;
    }
    std::int64_t outer = 1, inner = 1;
    for (int k = 0; k < axis; ++k) outer *= x.dim(k);
    for (std::size_t k = axis + 1; k < x.rank(); ++k) inner *= x.dim(k);
    auto* dev = c.scratch_at<std::int64_t>(0);
    if (c.scratch().size() < at.size() * sizeof(std::int64_t))
      return status(errc::internal, "Gather: no scratch for the indices");
    ONYX_TRY(kcu::upload(at.data(), dev, at.size() * sizeof(std::int64_t)));
    const int width = static_cast<int>(std::max<std::size_t>(1, bit_width(x.type()) / 8));
    return kcu::gather(width, x.raw(), dev, c.output(0).raw(), outer, d, idx.size(), inner);
  }
};

/// Concat: each input is copied as `outer` rows into its columns of the
/// output. At batch 1 (nothing before the axis) each input is one block of
/// the output, and the planner may place it there (planned::inputs_in_output):
/// its producer then writes it in place and no copy is made.
template <>
struct kernel<ops::Concat, cuda> {
  static constexpr std::array types{kcu::movable};
  struct plan_t {};
  template <ops::signature S>
  static result<planned<plan_t>> plan(const plan_info<ops::Concat>& p) {
    planned<plan_t> out;
    const extents first = p.input_shape(0);
    ONYX_ASSIGN(int axis, ops::normalize_axis(p.attrs().axis, first.size()));
    std::int64_t outer = 1;
    for (int k = 0; k < axis; ++k) outer *= first[k];
    if (outer != 1) return out;
    const std::size_t width = std::max<std::size_t>(1, bit_width(S[0]) / 8);
    std::int64_t at = 0;
    for (int i = 0; i < p.input_count(); ++i) {
      out.inputs_in_output.push_back(at);
      at += element_count(p.input_shape(i)) * static_cast<std::int64_t>(width);
    }
    return out;
  }
  template <ops::signature S>
  static status run(const call<ops::Concat>& c) {
    tensor& y = c.output(0);
    ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, y.rank()));
    std::int64_t outer = 1, inner = 1;
    for (int k = 0; k < axis; ++k) outer *= y.dim(k);
    for (std::size_t k = axis + 1; k < y.rank(); ++k) inner *= y.dim(k);
    const std::size_t width = std::max<std::size_t>(1, bit_width(y.type()) / 8);
    const std::size_t y_row = static_cast<std::size_t>(y.dim(axis) * inner) * width;
    std::size_t at = 0;
    for (int i = 0; i < c.input_count(); ++i) {
      const tensor& x = c.input(i);
      const std::size_t row = static_cast<std::size_t>(x.dim(axis) * inner) * width;
      char* dst = static_cast<char*>(y.raw()) + at;
      if (x.raw() != dst) ONYX_TRY(kcu::copy_2d(x.raw(), row, dst, y_row, row, static_cast<std::size_t>(outer)));
      at += row;
    }
    return ok();
  }
};

/// Cast from float32, float16, int32, int64 and bool to float32 and float16
/// (a cast to an integer type is shape or index work: the CPU's).
template <>
struct kernel<ops::Cast, cuda> {
  static constexpr dtype_set castable = kcu::floats | dtypes::i32 | dtypes::i64 | dtypes::boolean;
  static constexpr std::array types{castable, kcu::floats};
  template <ops::signature S>
  static status run(const call<ops::Cast>& c) {
    if constexpr (S[0] == S[1]) return kcu::same_bytes(c.input(0), c.output(0));
    else return kcu::cast(S[0], S[1], c.input(0).raw(), c.output(0).raw(), c.input(0).size());
  }
};

}  // namespace onyx
