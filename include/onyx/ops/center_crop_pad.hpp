// ops::CenterCropPad: each listed axis cropped or zero-padded to the target
// extent in `shape`, centred: a crop starts at floor((in - out) / 2), a pad
// puts floor((out - in) / 2) before and the rest after.
// Opsets 18-latest. The target extents come from `shape` (known at
// inference when it is a constant).
// Kernel (kernels/cpu/center_crop_pad.hpp): every byte-addressed type, per
// element width. Tested in test/unit/center_crop_pad_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct CenterCropPad {
  static constexpr std::string_view domain = "", name = "CenterCropPad";
  static constexpr int since = 18, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all - dtypes::sub_byte, Tind = dtypes::indices;
  struct attributes {
    std::vector<std::int64_t> axes;
    static constexpr auto fields = std::tuple{field{"axes", &attributes::axes}};
  };
  /// The axes `shape` refers to, normalized.
  static result<std::vector<int>> target_axes(const attributes& a, std::size_t rank, std::size_t given) {
    std::vector<int> axes;
    if (a.axes.empty())
      for (std::size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int>(i));
    for (auto ax : a.axes) {
      ONYX_ASSIGN(int n, normalize_axis(ax, rank, "axes entry"));
      axes.push_back(n);
    }
    if (axes.size() != given)
      return status(errc::invalid_graph, "shape has " + std::to_string(given) + " values for " +
                                             std::to_string(axes.size()) + " axes");
    return axes;
  }
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, Tind, "Tind"));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    sym_shape y = x;
    auto target = c.input_ints(1);
    if (target) {
      ONYX_ASSIGN(auto axes, target_axes(a, x.rank(), target->size()));
      for (std::size_t i = 0; i < axes.size(); ++i) {
        if ((*target)[i] < 0) return c.fail("shape value " + std::to_string((*target)[i]) + " is negative");
        y.dims[axes[i]] = dim((*target)[i]);
      }
    } else {
      std::vector<int> axes;
      for (auto ax : a.axes) {
        ONYX_ASSIGN(int n, normalize_axis(ax, x.rank(), "axes entry"));
        axes.push_back(n);
      }
      if (a.axes.empty()) y = sym_shape(std::vector<dim>(x.rank(), dim::unknown()));
      for (int ax : axes) y.dims[ax] = dim::unknown();
    }
    c.set_output(0, c.input_type(0), std::move(y));
    return ok();
  }
};

}  // namespace onyx::ops
