// kernels/cuda/conv.hpp: kernel<Op, cuda> for Conv and fused::Conv (1 to 3
// spatial axes), and BatchNormalization's inference form. float32 and
// float16 (float16 GEMMs on tensor cores, accumulating in float32).
//
// Conv: per input shape, `plan` picks one of three paths:
//   - one input channel per group (depthwise, any channel multiplier, and
//     C == 1): a direct kernel (conv.cu), one thread per output, adding
//     bias and residual and applying the activation itself: 1 launch. The
//     GEMM path would run C products of Mg x taps by taps x P.
//   - 1x1, stride 1, no padding: X is already the K x P matrix each group
//     multiplies, so the cuBLAS products read it in place.
//   - else im2col into the plan's scratch (per image, every group's K x P
//     matrix, conv_launch.hpp), one launch for a chunk of images (as many as
//     fit col_budget_bytes, at least one), then the products.
// Products, per chunk: one group: 1 strided-batched GEMM over the images
// (Y_n[M, P] = W[M, K] x col_n[K, P]); G groups: batched over the groups per
// image, or over the images per group, whichever makes fewer calls.
// fused::Conv's residual Z (input 3): Y starts as Z and the GEMMs accumulate
// (beta 1); the planner may give Y Z's buffer (planned::overwrites_input),
// else Z is copied first (one more launch). Then one epilogue launch over Y
// as rows N x M (bias per row, period M) and the activation; none when there
// is neither. Launches at batch 1, one group: im2col + GEMM + epilogue;
// 1x1: GEMM + epilogue.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>

#include "kernels/cuda/common.hpp"
#include "kernels/cuda/conv_launch.hpp"
#include "onyx/core/message.hpp"
#include "onyx/ops/batch_normalization.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/fused/conv.hpp"

namespace onyx {

namespace kernels::cuda {

/// The most im2col scratch a Conv asks for, unless one image needs more:
/// larger batches run in chunks of images. VGG's 3x3 layers at 224x224 need
/// 115 MB per image in float32; ResNet-50's largest needs 7 MB.
inline constexpr std::int64_t col_budget_bytes = std::int64_t{64} << 20;

/// What `plan` fixes per input shape: the geometry and the path.
struct conv_plan {
  enum class path : std::uint8_t { depthwise, pointwise, im2col };
  path how = path::im2col;
  spatial_window win;
  std::int64_t n = 0, c = 0, m = 0, groups = 1, mg = 0;  // images, channels in and out, groups, outputs per group
  std::int64_t k = 0;                                    // per group: C / G * taps, the GEMM's depth
  std::int64_t p = 1;                                    // output positions per channel
  std::int64_t in_size = 1;                              // input positions per channel
  std::int64_t chunk = 1;                                // images per im2col launch
};

inline result<planned<conv_plan>> plan_conv(const ops::detail::conv_attributes& a, const plan_info_base& p, dtype t) {
  planned<conv_plan> r;
  conv_plan& cp = r.plan;
  const extents x = p.input_shape(0), w = p.input_shape(1);
  if (x.size() < 3 || w.size() != x.size())
    return failure(errc::invalid_argument, "Conv needs X of rank >= 3 and W of the same rank, got X ", to_string(x),
                   " and W ", to_string(w));
  const std::size_t spatial = x.size() - 2;
  ONYX_ASSIGN(auto win, ops::detail::conv_window(a, spatial, std::span(w).subspan(2)));
  ONYX_ASSIGN(auto axes, ops::detail::window_geometry(win, std::span(x).subspan(2)));
  ONYX_ASSIGN(cp.win, spatial_window_of(axes));
  cp.n = x[0];
  cp.c = x[1];
  cp.m = w[0];
  cp.groups = a.group;
  if (cp.groups < 1 || cp.c != w[1] * cp.groups || cp.m % cp.groups != 0)
    return failure(errc::invalid_argument, "X ", to_string(x), " and W ", to_string(w), " do not agree with group ",
                   cp.groups);
  cp.mg = cp.m / cp.groups;
  std::int64_t taps = 1;
  bool pointwise = true;
  for (std::size_t i = 0; i < spatial; ++i) {
    const auto& ax = axes[i];
    if (ax.kernel != w[2 + i]) return failure(errc::invalid_argument, "kernel_shape does not match W ", to_string(w));
    if (__builtin_mul_overflow(taps, ax.kernel, &taps) || __builtin_mul_overflow(cp.p, ax.out, &cp.p) ||
        __builtin_mul_overflow(cp.in_size, ax.in, &cp.in_size))
      return failure(errc::invalid_argument, "X ", to_string(x), " and W ", to_string(w),
                     " give window sizes past 64-bit integers");
    pointwise = pointwise && ax.kernel == 1 && ax.stride == 1 && ax.pad_begin == 0 && ax.pad_end == 0;
  }
  if (__builtin_mul_overflow(w[1], taps, &cp.k))
    return failure(errc::invalid_argument, "W ", to_string(w), " gives a kernel size past 64-bit integers");
  if (p.has_input(2) && element_count(p.input_shape(2)) != cp.m)
    return failure(errc::invalid_argument, "B has shape ", to_string(p.input_shape(2)), ", expected ", cp.m,
                   " values (W's output channels)");
  if (p.has_input(3)) {  // fused::Conv's residual: Y's shape exactly
    extents y{cp.n, cp.m};
    for (const auto& ax : axes) y.push_back(ax.out);
    if (p.input_shape(3) != y)
      return failure(errc::invalid_argument, "Z has shape ", to_string(p.input_shape(3)), ", expected Y's shape ",
                     to_string(y));
    // Every path reads each element of Z before it writes that element of Y
    // (see run_conv), so Y may take Z's buffer.
    r.overwrites_input = 3;
  }
  if (w[1] == 1) {
    cp.how = conv_plan::path::depthwise;
  } else if (pointwise) {
    cp.how = conv_plan::path::pointwise;  // P == in_size: the window is the identity
    cp.chunk = cp.n;
  } else {
    cp.how = conv_plan::path::im2col;
    // Per image: every group's K x P matrix, C * taps rows of P.
    const auto elt = static_cast<std::int64_t>(storage_bytes(t, 1));
    std::int64_t image_bytes = 0;
    if (__builtin_mul_overflow(cp.c, taps, &image_bytes) || __builtin_mul_overflow(image_bytes, cp.p, &image_bytes) ||
        __builtin_mul_overflow(image_bytes, elt, &image_bytes))
      return failure(errc::invalid_argument, "Conv's im2col matrix for X ", to_string(x), " and W ", to_string(w),
                     " is past 64-bit sizes");
    cp.chunk = std::min(cp.n, std::max<std::int64_t>(1, col_budget_bytes / std::max<std::int64_t>(image_bytes, 1)));
    r.scratch_bytes = static_cast<std::size_t>(cp.chunk * image_bytes);
  }
  return r;
}

/// The GEMMs of a chunk of `nb` images: `b` holds their K x P matrices
/// (group after group, `b_image` elements per image), `y` their outputs,
/// added to what Y holds when `accumulate`.
inline status conv_products(const conv_plan& cp, dtype t, const std::byte* w, const std::byte* b, std::int64_t b_image,
                            std::byte* y, std::int64_t nb, bool accumulate) {
  const auto elt = static_cast<std::int64_t>(storage_bytes(t, 1));
  const std::int64_t y_image = cp.m * cp.p;
  gemm_args g;
  g.t = t;
  g.m = cp.mg;
  g.n = cp.p;
  g.k = cp.k;
  g.lda = cp.k;
  g.ldb = cp.p;
  g.ldc = cp.p;
  g.beta = accumulate ? 1.0f : 0.0f;
  if (cp.groups == 1 || nb > cp.groups) {
    // Per group, batched over the images (W_g shared).
    g.batch = nb;
    g.stride_a = 0;
    g.stride_b = b_image;
    g.stride_c = y_image;
    for (std::int64_t grp = 0; grp < cp.groups; ++grp) {
      g.a = w + grp * cp.mg * cp.k * elt;
      g.b = b + grp * cp.k * cp.p * elt;
      g.c = y + grp * cp.mg * cp.p * elt;
      ONYX_TRY(gemm(g));
    }
    return ok();
  }
  // Per image, batched over the groups.
  g.batch = cp.groups;
  g.stride_a = cp.mg * cp.k;
  g.stride_b = cp.k * cp.p;
  g.stride_c = cp.mg * cp.p;
  for (std::int64_t j = 0; j < nb; ++j) {
    g.a = w;
    g.b = b + j * b_image * elt;
    g.c = y + j * y_image * elt;
    ONYX_TRY(gemm(g));
  }
  return ok();
}

/// Conv and fused::Conv: Y = act(conv(X, W) + B + Z), with `act` bounded by [lo, hi] for clip.
inline status run_conv(const kernel_call& c, dtype t, activation act, float lo, float hi) {
  const conv_plan& cp = c.plan<conv_plan>();
  tensor& y = c.output(0);
  if (y.size() == 0) return ok();
  if (cp.k == 0) return status(errc::invalid_argument, "Conv with an empty kernel (X has no channels)");
  const void* bias = c.has_input(2) ? c.input(2).raw() : nullptr;
  const void* residual = c.has_input(3) ? c.input(3).raw() : nullptr;
  if (cp.how == conv_plan::path::depthwise) {
    depthwise_args d;
    d.t = t;
    d.x = c.input(0).raw();
    d.w = c.input(1).raw();
    d.bias = bias;
    d.residual = residual;
    d.y = y.raw();
    d.n = cp.n;
    d.c = cp.c;
    d.m = cp.m;
    d.win = cp.win;
    d.act = act;
    d.lo = lo;
    d.hi = hi;
    return depthwise_conv(d);
  }
  // The residual: Y starts as Z (already, where the planner gave Y Z's
  // buffer, else copied) and the GEMMs accumulate into it.
  const bool accumulate = residual != nullptr;
  if (accumulate && residual != y.raw()) ONYX_TRY(copy(residual, y.raw(), y.bytes()));
  const auto elt = static_cast<std::int64_t>(storage_bytes(t, 1));
  const auto* x = static_cast<const std::byte*>(c.input(0).raw());
  const auto* w = static_cast<const std::byte*>(c.input(1).raw());
  auto* yp = static_cast<std::byte*>(y.raw());
  const std::int64_t x_image = cp.c * cp.in_size, col_image = cp.groups * cp.k * cp.p;
  for (std::int64_t n0 = 0; n0 < cp.n; n0 += cp.chunk) {
    const std::int64_t nb = std::min(cp.chunk, cp.n - n0);
    const std::byte* xs = x + n0 * x_image * elt;
    std::byte* ys = yp + n0 * cp.m * cp.p * elt;
    if (cp.how == conv_plan::path::pointwise) {
      ONYX_TRY(conv_products(cp, t, w, xs, x_image, ys, nb, accumulate));
    } else {
      std::byte* col = c.scratch().data();
      ONYX_TRY(im2col(static_cast<int>(elt), xs, col, nb * cp.c, cp.win));
      ONYX_TRY(conv_products(cp, t, w, col, col_image, ys, nb, accumulate));
    }
  }
  epilogue_args e;
  e.t = t;
  e.y = y.raw();
  e.rows = cp.n * cp.m;
  e.cols = cp.p;
  e.bias = bias;
  e.per_row = true;
  e.bias_period = cp.m;
  e.act = act;
  e.lo = lo;
  e.hi = hi;
  return epilogue(e);  // returns at once when there is nothing to apply
}

/// fused::Conv's clamp as the epilogue's activation.
inline activation activation_of(const ops::fused::activation& a) {
  switch (a.kind) {
    case ops::fused::activation_kind::none:
      return activation::none;
    case ops::fused::activation_kind::relu:
      return activation::relu;
    case ops::fused::activation_kind::clip:
      return activation::clip;
  }
  return activation::none;
}

}  // namespace kernels::cuda

namespace kcu = kernels::cuda;

template <>
struct kernel<ops::Conv, cuda> {
  static constexpr std::array types{kcu::floats};
  template <ops::signature S>
  static result<planned<kcu::conv_plan>> plan(const plan_info<ops::Conv>& p) {
    return kcu::plan_conv(p.attrs(), p, S[0]);
  }
  template <ops::signature S>
  static status run(const call<ops::Conv>& c) {
    return kcu::run_conv(c, S[0], kcu::activation::none, 0.0f, 0.0f);
  }
};

template <>
struct kernel<ops::fused::Conv, cuda> {
  static constexpr std::array types{kcu::floats};
  template <ops::signature S>
  static result<planned<kcu::conv_plan>> plan(const plan_info<ops::fused::Conv>& p) {
    return kcu::plan_conv(p.attrs(), p, S[0]);
  }
  template <ops::signature S>
  static status run(const call<ops::fused::Conv>& c) {
    const auto& a = c.attrs().activation;
    return kcu::run_conv(c, S[0], kcu::activation_of(a), a.min, a.max);
  }
};

/// BatchNormalization at inference: Y only, from input_mean and input_var.
template <>
struct kernel<ops::BatchNormalization, cuda> {
  static constexpr std::array types{kcu::floats};
  /// The inference form only: training nodes run on the CPU.
  static bool accepts(const prepare_info<ops::BatchNormalization>& p) {
    return p.attrs().training_mode == 0 && !p.wants_output(1) && !p.wants_output(2);
  }
  template <ops::signature S>
  static status run(const call<ops::BatchNormalization>& c) {
    if (c.attrs().training_mode != 0 || c.has_output(1) || c.has_output(2))
      return status(errc::unsupported,
                    "BatchNormalization in training mode (batch statistics, running_mean and running_var) has no "
                    "CUDA kernel; only the inference form (training_mode 0, output Y only) runs on the GPU");
    const tensor& x = c.input(0);
    if (x.rank() < 2)
      return failure(errc::invalid_argument, "BatchNormalization needs X of rank >= 2, got ", to_string(x.shape()));
    const std::int64_t channels = x.dim(1);
    std::int64_t plane = 1;
    for (std::size_t d = 2; d < x.rank(); ++d) plane *= x.dim(d);
    const char* names[] = {"X", "scale", "B", "input_mean", "input_var"};
    for (int i = 1; i < 5; ++i)
      if (c.input(i).size() != channels)
        return failure(errc::invalid_argument, "BatchNormalization's ", names[i], " has ", c.input(i).size(),
                       " values, expected ", channels, " (X's channels)");
    kcu::batch_norm_args a;
    a.t = S[0];
    a.x = x.raw();
    a.y = c.output(0).raw();
    a.n = x.size();
    a.channels = channels;
    a.plane = plane;
    a.scale = c.input(1).raw();
    a.bias = c.input(2).raw();
    a.mean = c.input(3).raw();
    a.var = c.input(4).raw();
    a.scale_t = c.input(1).type();
    a.bias_t = c.input(2).type();
    a.mean_t = c.input(3).type();
    a.var_t = c.input(4).type();
    a.epsilon = c.attrs().epsilon;
    return kcu::batch_norm(a);
  }
};

}  // namespace onyx
