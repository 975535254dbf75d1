// ops::MaxUnpool: the partial inverse of MaxPool. Y starts as zeros of the
// unpooled shape, (in - 1) * stride - pad_begin - pad_end + kernel per spatial
// axis, and Y.flat[I[i]] = X.flat[i]; with `output_shape`, that result sits
// in the corner of a zero tensor of that shape (as ONNX's reference does).
// Opsets 9-latest. Kernel (kernels/cpu/max_unpool.hpp): every float type.
// Tested in test/unit/pool_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct MaxUnpool {
  static constexpr std::string_view domain = "", name = "MaxUnpool";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::floats;
  struct attributes {
    std::vector<std::int64_t> kernel_shape, pads, strides;
    static constexpr auto fields =
        std::tuple{field{"kernel_shape", &attributes::kernel_shape, true},
                   field{"pads", &attributes::pads}, field{"strides", &attributes::strides}};
  };

  /// The unpooled extent of each dim of x, or why there is none.
  static result<std::vector<dim>> unpooled(const attributes& a, const sym_shape& x) {
    const std::size_t k = a.kernel_shape.size();
    if (x.rank() != k + 2)
      return status(errc::invalid_graph, "X " + x.str() + " must have rank " + std::to_string(k + 2) +
                                             " for a kernel_shape of " + std::to_string(k) + " axes");
    if ((!a.pads.empty() && a.pads.size() != 2 * k) || (!a.strides.empty() && a.strides.size() != k))
      return status(errc::invalid_graph, "pads must have 2 and strides 1 entry per kernel axis");
    std::vector<dim> out{x[0], x[1]};
    for (std::size_t i = 0; i < k; ++i) {
      if (!x[2 + i].known()) {
        out.push_back(dim::unknown());
        continue;
      }
      const std::int64_t stride = a.strides.empty() ? 1 : a.strides[i];
      const std::int64_t pad = a.pads.empty() ? 0 : a.pads[i] + a.pads[k + i];
      const std::int64_t n = (x[2 + i].value() - 1) * stride - pad + a.kernel_shape[i];
      if (n < 0)
        return status(errc::invalid_graph, "spatial axis " + std::to_string(i) + " unpools to a negative extent");
      out.push_back(dim(n));
    }
    return out;
  }

  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, dtypes::i64, "I (int64)"));
    if (c.has_input(2)) {
      ONYX_TRY(require_type(c, 2, dtypes::i64, "output_shape (int64)"));
      if (auto shape = c.input_ints(2)) {
        std::vector<dim> d;
        for (auto v : *shape) d.push_back(dim(v));
        c.set_output(0, c.input_type(0), sym_shape(std::move(d)));
        return ok();
      }
    }
    if (!c.input_shape(0).rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    auto dims = unpooled(a, c.input_shape(0));
    if (!dims.ok()) return c.fail(dims.error().message());
    c.set_output(0, c.input_type(0), sym_shape(std::move(*dims)));
    return ok();
  }
};

}  // namespace onyx::ops
