// ops::fused::BatchNormalization (domain onyx.fused): inference
// BatchNormalization, then a clamp, in one pass over X,
//   Y = clamp((X - mean) / sqrt(var + epsilon) * scale + B, min, max)
// with the clamp a Relu (min 0) or a Clip's constant bounds
// (ops::fused::activation, as fused::Conv's). Inputs X, scale, B, input_mean,
// input_var, as BatchNormalization's at inference (training_mode 0, one
// output). Produced by graph/passes/fuse_batch_norm.hpp
// (fuse_batch_norm_activation) from BatchNormalization -> Relu / Clip, the
// pre-activation pair of DenseNet-style blocks; the kernel
// (kernels/cpu/normalization.hpp) writes each channel plane once, through the
// ISA's f32_affine for float32. As node attributes the clamp reads
// `activation` "" | "Relu" | "Clip" with `activation_min` / `activation_max`.
// Tested in test/unit/normalization_test.cpp and test/unit/fuse_batch_norm_test.cpp.
#pragma once

#include "onyx/ops/batch_normalization.hpp"
#include "onyx/ops/fused/conv.hpp"

namespace onyx::ops::fused {

struct BatchNormalization {
  static constexpr std::string_view domain = "onyx.fused", name = "BatchNormalization";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{5, 5}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float epsilon = 1e-5f;
    fused::activation activation;
  };
  struct spelled {
    float epsilon = 1e-5f;
    static constexpr auto fields = std::tuple{field{"epsilon", &spelled::epsilon}};
  };

  static result<attributes> parse(const std::vector<attribute>& given) {
    ONYX_ASSIGN(spelled e, parse_attributes<spelled>(given));
    ONYX_ASSIGN(fused::activation act, parse_activation(given));
    return attributes{e.epsilon, act};
  }

  /// BatchNormalization's rule at inference.
  static status infer(const attributes& a, infer_context& c) {
    ops::BatchNormalization::attributes bn;
    bn.epsilon = a.epsilon;
    return ops::BatchNormalization::infer(bn, c);
  }
};

}  // namespace onyx::ops::fused
