// ops::fused::Conv (domain onyx.fused): Conv, then an optional residual Z
// added, then an activation that is a clamp,
//   Y = clamp(Conv(X, W, B) + Z, min, max):
//   activation_kind::none  no clamp
//   activation_kind::relu  min 0, max +inf
//   activation_kind::clip  the Clip's constant bounds
// Inputs X, W, B (optional), Z (optional, Y's type and shape: a ResNet
// block's shortcut). Produced by the fusion pass (graph/passes/fuse_conv.hpp)
// from Conv -> Relu / Clip and Conv -> Add/Sum(., Z) [-> Relu / Clip], which
// sets the typed attributes directly; it shares Conv's kernel, which adds Z
// and applies the clamp in the GEMM's epilogue (Z may share Y's buffer: the
// kernel then accumulates in place). Same types and shape rule as ops::Conv.
// As node attributes (a model written after optimization, or a test) the
// activation reads `activation` "" | "Relu" | "Clip" with `activation_min` /
// `activation_max` for Clip.
// Tested in test/unit/conv_test.cpp and test/unit/fuse_conv_test.cpp.
#pragma once

#include <cstdint>
#include <limits>

#include "onyx/ops/conv.hpp"

namespace onyx::ops::fused {

enum class activation_kind : std::uint8_t { none, relu, clip };

/// The clamp a fused op applies to its result.
struct activation {
  activation_kind kind = activation_kind::none;
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();

  static activation relu() { return {activation_kind::relu, 0.0f, std::numeric_limits<float>::infinity()}; }
  static activation clip(float lo, float hi) { return {activation_kind::clip, lo, hi}; }
};

/// An activation as node attributes spell it.
struct spelled_activation {
  std::string activation;  // "", "Relu" or "Clip"
  float activation_min = -std::numeric_limits<float>::infinity();
  float activation_max = std::numeric_limits<float>::infinity();
  static constexpr auto fields = std::tuple{field{"activation", &spelled_activation::activation},
                                            field{"activation_min", &spelled_activation::activation_min},
                                            field{"activation_max", &spelled_activation::activation_max}};
};

/// The activation `given` spells (none when it has no `activation`).
inline result<activation> parse_activation(const std::vector<attribute>& given) {
  ONYX_ASSIGN(spelled_activation s, parse_attributes<spelled_activation>(given));
  if (s.activation == "Relu") return activation::relu();
  if (s.activation == "Clip") return activation::clip(s.activation_min, s.activation_max);
  if (!s.activation.empty())
    return status(errc::invalid_model, "activation '" + s.activation + "' is not \"\", \"Relu\" or \"Clip\"");
  return activation{};
}

/// Appends `a` as the attributes parse_activation reads (nothing for none),
/// so a fused node parses back the same (a compact model).
inline void spell_activation(const activation& a, std::vector<attribute>& out) {
  if (a.kind == activation_kind::relu) {
    out.push_back(attribute{"activation", std::string("Relu")});
  } else if (a.kind == activation_kind::clip) {
    out.push_back(attribute{"activation", std::string("Clip")});
    out.push_back(attribute{"activation_min", a.min});
    out.push_back(attribute{"activation_max", a.max});
  }
}

struct Conv {
  static constexpr std::string_view domain = "onyx.fused", name = "Conv";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 4}, outputs{1, 1};
  static constexpr dtype_set T = ops::Conv::T;
  struct attributes : detail::conv_attributes {
    fused::activation activation;
    static constexpr auto fields =
        std::tuple{field{"auto_pad", &attributes::auto_pad}, field{"dilations", &attributes::dilations},
                   field{"group", &attributes::group},       field{"kernel_shape", &attributes::kernel_shape},
                   field{"pads", &attributes::pads},         field{"strides", &attributes::strides}};
  };

  /// Conv's attributes by the field table, then the activation from
  /// `activation`, `activation_min` and `activation_max`.
  static result<attributes> parse(const std::vector<attribute>& given) {
    ONYX_ASSIGN(attributes a, parse_attributes<attributes>(given));
    ONYX_ASSIGN(a.activation, parse_activation(given));
    return a;
  }

  /// Conv's rule; Z, when given, must have X's type and Y's rank (its dims
  /// are checked against Y's by the kernel's plan step).
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(detail::conv_infer(a, c, T));
    if (!c.has_input(3)) return ok();
    if (c.input_type(3) != c.input_type(0)) return c.fail("Z's type differs from X's");
    const sym_shape& z = c.input_shape(3);
    const sym_shape& x = c.input_shape(0);
    if (z.rank_known && x.rank_known && z.rank() != x.rank())
      return c.fail("Z has shape " + z.str() + " but Y has rank " + std::to_string(x.rank()));
    return ok();
  }
};

}  // namespace onyx::ops::fused
