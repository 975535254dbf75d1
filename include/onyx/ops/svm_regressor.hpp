// ops::SVMRegressor (ai.onnx.ml opset 1): with n_supports > 0,
// y = sum_j coefficients[j] K(x, sv_j) + rho[0] over the support vectors,
// K by kernel_type (LINEAR x.v, POLY (gamma x.v + coef0)^degree, RBF
// exp(-gamma |x - v|^2), SIGMOID tanh(gamma x.v + coef0); kernel_params =
// (gamma, coef0, degree)); with n_supports = 0, y = x . coefficients + rho[0].
// one_class = 1 gives y = 1 if the score > 0, else -1. Y is N x 1 float32.
// X: float32, float64, int64, int32 (computed in float32 as ORT).
// Choice: post_transform applies to the one score as the spec says.
// Mismatched support_vectors / coefficients / rho lengths fail at session
// creation. Kernel: kernels/cpu/svm_regressor.hpp (shared SVM kernels in
// kernels/cpu/svm.hpp). Tested in test/unit/svm_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct SVMRegressor {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "SVMRegressor";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f64 | dtypes::i64 | dtypes::i32;
  struct attributes {
    std::vector<float> coefficients, kernel_params;
    std::string kernel_type = "LINEAR";
    std::int64_t n_supports = 0, one_class = 0;
    std::string post_transform = "NONE";
    std::vector<float> rho, support_vectors;
    static constexpr auto fields = std::tuple{field{"coefficients", &attributes::coefficients},
                                              field{"kernel_params", &attributes::kernel_params},
                                              field{"kernel_type", &attributes::kernel_type},
                                              field{"n_supports", &attributes::n_supports},
                                              field{"one_class", &attributes::one_class},
                                              field{"post_transform", &attributes::post_transform},
                                              field{"rho", &attributes::rho},
                                              field{"support_vectors", &attributes::support_vectors}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1 && x.rank() != 2) return c.fail("X must have rank 1 or 2, got " + x.str());
    const dim rows = !x.rank_known ? dim::unknown() : x.rank() == 1 ? dim(1) : x.dims[0];
    c.set_output(0, dtype::float32, sym_shape({rows, dim(1)}));
    return ok();
  }
};

}  // namespace onyx::ops
