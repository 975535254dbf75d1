// ops::RMSNormalization: Y = X / sqrt(mean(X^2 over axes [axis, rank)) + epsilon)
// * scale, with scale broadcast to the normalized shape X.shape[axis:].
// Opset 23-latest. The mean of squares is accumulated in double (stash_type 1;
// other stash types are refused). Y has scale's type (V); the kernel covers
// X and scale of one type: float16/32/64, bfloat16.
// Tested in test/unit/rms_normalization_test.cpp and node/test_rms_normalization_*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct RMSNormalization {
  static constexpr std::string_view domain = "", name = "RMSNormalization";
  static constexpr int since = 23, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  static constexpr dtype_set V = dtypes::floats;
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
    ONYX_TRY(require_type(c, 1, V, "V"));
    if (c.input_type(1) != c.input_type(0))
      return status(errc::unsupported, "RMSNormalization: scale of type " + std::string(onyx::name(c.input_type(1))) +
                                           " with X of type " + std::string(onyx::name(c.input_type(0))) +
                                           " (mixed types are not implemented)");
    if (a.stash_type != 1) return status(errc::unsupported, "RMSNormalization supports stash_type 1 only");
    const sym_shape& x = c.input_shape(0);
    c.set_output(0, c.input_type(1), x);
    if (!x.rank_known) return ok();
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, x.rank()));
    sym_shape norm(std::vector<dim>(x.dims.begin() + axis, x.dims.end()));
    const sym_shape& s = c.input_shape(1);
    if (s.rank_known && (s.rank() > norm.rank() || !broadcast(norm, s).ok()))
      return c.fail("scale shape " + s.str() + " does not broadcast to the normalized shape " + norm.str());
    return ok();
  }
};

}  // namespace onyx::ops
