// ops::LayerNormalization: normalizes X over its axes [axis, rank) (mean and
// biased variance per row), then Y = normalized * Scale + B, with Scale and B
// broadcast to X's shape [axis:]. Optional outputs Mean and InvStdDev have
// X's leading dims and 1s. Opset 17-latest. Statistics are returned as
// float32 (stash_type 1; other stash types are refused); they are computed in
// float for float32 X with a full Scale row, in double otherwise.
// Kernel: float16/32/64, bfloat16. Tested in test/unit/normalization_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct LayerNormalization {
  static constexpr std::string_view domain = "", name = "LayerNormalization";
  static constexpr int since = 17, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 3};
  static constexpr dtype_set T = dtypes::floats;
  static constexpr dtype_set U = dtypes::f32 | dtypes::bf16;
  struct attributes {
    std::int64_t axis = -1;
    float epsilon = 1e-5f;
    std::int64_t stash_type = 1;
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"epsilon", &attributes::epsilon},
                   field{"stash_type", &attributes::stash_type}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, T, "T"));
    if (c.has_input(2)) ONYX_TRY(require_type(c, 2, T, "T"));
    if (a.stash_type != 1) return status(errc::unsupported, "LayerNormalization supports stash_type 1 only");
    const sym_shape& x = c.input_shape(0);
    c.set_output(0, c.input(0));
    if (!x.rank_known) {
      for (int i = 1; i < c.output_count(); ++i) c.set_output(i, dtype::float32, sym_shape::unknown_rank());
      return ok();
    }
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, x.rank()));
    sym_shape norm(std::vector<dim>(x.dims.begin() + axis, x.dims.end()));
    for (int i = 1; i < 3; ++i) {
      if (!c.has_input(i)) continue;
      const sym_shape& s = c.input_shape(i);
      auto b = broadcast(norm, s);
      if (!b.ok() || (s.rank_known && s.rank() > norm.rank()))
        return c.fail(std::string(i == 1 ? "Scale" : "B") + " shape " + s.str() +
                      " does not broadcast to the normalized shape " + norm.str());
    }
    std::vector<dim> stat(x.dims.begin(), x.dims.begin() + axis);
    stat.resize(x.rank(), dim(1));
    for (int i = 1; i < c.output_count(); ++i) c.set_output(i, dtype::float32, sym_shape(stat));
    return ok();
  }
};

}  // namespace onyx::ops
