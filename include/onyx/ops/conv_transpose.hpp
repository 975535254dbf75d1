// ops::ConvTranspose: the transpose (gradient) of Conv. X is N x C x D1..Dn,
// W is C x M/group x k1..kn, Y is N x M x out with, per axis,
//   out = stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - pad_begin - pad_end
// or the given output_shape (pads then derived: total = that formula's value
// without pads - output_shape, split with the odd one at the end for
// SAME_UPPER, at the beginning otherwise); SAME_* auto_pad targets in * stride.
// Opsets 1-latest (11 clarified padding). Kernel: float32, float64 (no float16 yet).
// Tested in test/unit/conv_transpose_test.cpp.
#pragma once

#include "onyx/ops/detail/sliding_window.hpp"

namespace onyx::ops {

struct ConvTranspose {
  static constexpr std::string_view domain = "", name = "ConvTranspose";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f16 | dtypes::f32 | dtypes::f64;
  struct attributes {
    std::string auto_pad = "NOTSET";
    std::vector<std::int64_t> dilations;
    std::int64_t group = 1;
    std::vector<std::int64_t> kernel_shape;
    std::vector<std::int64_t> output_padding;
    std::vector<std::int64_t> output_shape;
    std::vector<std::int64_t> pads;
    std::vector<std::int64_t> strides;
    static constexpr auto fields = std::tuple{
        field{"auto_pad", &attributes::auto_pad},
        field{"dilations", &attributes::dilations},
        field{"group", &attributes::group},
        field{"kernel_shape", &attributes::kernel_shape},
        field{"output_padding", &attributes::output_padding},
        field{"output_shape", &attributes::output_shape},
        field{"pads", &attributes::pads},
        field{"strides", &attributes::strides}};
  };

  /// Per-axis geometry for concrete input extents and kernel: (out, pad_begin).
  struct axis {
    std::int64_t in, out, kernel, stride, dilation, pad_begin;
  };
  static result<std::vector<axis>> geometry(const attributes& a, std::span<const std::int64_t> in,
                                            std::span<const std::int64_t> w_spatial) {
    const std::size_t n = in.size();
    std::vector<std::int64_t> k = a.kernel_shape.empty() ? std::vector<std::int64_t>(w_spatial.begin(), w_spatial.end())
                                                         : a.kernel_shape;
    ONYX_ASSIGN(auto win, detail::make_window_spec(n, a.auto_pad, k, a.strides, a.dilations, a.pads));
    std::vector<std::int64_t> op = a.output_padding.empty() ? std::vector<std::int64_t>(n, 0) : a.output_padding;
    if (op.size() != n) return status(errc::invalid_graph, "output_padding must have one value per spatial axis");
    std::vector<std::int64_t> os = a.output_shape;
    if (os.size() == n + 2) os.erase(os.begin(), os.begin() + 2);
    if (!os.empty() && os.size() != n) return status(errc::invalid_graph, "output_shape must have one value per spatial axis");
    std::vector<axis> axes(n);
    for (std::size_t i = 0; i < n; ++i) {
      axis& x = axes[i];
      x.in = in[i], x.kernel = win.kernel[i], x.stride = win.strides[i], x.dilation = win.dilations[i];
      const std::int64_t full = x.stride * (x.in - 1) + op[i] + (x.kernel - 1) * x.dilation + 1;
      const bool same = win.mode == detail::auto_pad::same_upper || win.mode == detail::auto_pad::same_lower;
      if (!os.empty() || same) {
        x.out = !os.empty() ? os[i] : x.in * x.stride;
        // total < 0 when output_shape asks for more than the formula gives:
        // the spec's halving floors, so the extra goes to the end.
        const std::int64_t total = full - x.out, half = total >= 0 ? total / 2 : (total - 1) / 2;
        x.pad_begin = win.mode == detail::auto_pad::same_upper ? half : total - half;
      } else if (win.mode == detail::auto_pad::valid) {
        x.out = full;
        x.pad_begin = 0;
      } else {
        x.out = full - win.pads[i] - win.pads[n + i];
        x.pad_begin = win.pads[i];
      }
      if (x.out < 1) return status(errc::invalid_graph, "ConvTranspose output axis " + std::to_string(i) + " is empty");
    }
    return axes;
  }

  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, T, "T"));
    if (c.input_type(1) != c.input_type(0)) return c.fail("W's type differs from X's");
    const sym_shape& x = c.input_shape(0);
    const sym_shape& w = c.input_shape(1);
    if (a.group < 1) return c.fail("group must be at least 1");
    if (!x.rank_known || !w.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    if (x.rank() < 3 || w.rank() != x.rank())
      return c.fail("X must have rank >= 3 and W the same rank, got " + x.str() + " and " + w.str());
    if (x[1].known() && w[0].known() && x[1].value() != w[0].value())
      return c.fail("X has " + x[1].str() + " channels but W " + w.str() + " expects " + w[0].str());
    std::vector<dim> y{x[0], w[1] * dim(a.group)};
    std::vector<std::int64_t> in, ks;
    bool known = true;
    for (std::size_t i = 2; i < x.rank(); ++i) {
      known = known && x[i].known() && (w[i].known() || !a.kernel_shape.empty());
      in.push_back(x[i].known() ? x[i].value() : 1);
      ks.push_back(w[i].known() ? w[i].value() : 1);
    }
    ONYX_ASSIGN(auto axes, geometry(a, in, ks));
    for (std::size_t i = 0; i < axes.size(); ++i) y.push_back(known ? dim(axes[i].out) : dim::unknown());
    c.set_output(0, c.input_type(0), sym_shape(std::move(y)));
    return ok();
  }
};

}  // namespace onyx::ops
