// ops::DFT: the discrete Fourier transform of `input` along `axis` (an
// optional scalar input, default -2; the last dim holds 1 (real) or 2
// (real, imaginary) components). dft_length (optional scalar input)
// truncates or zero-pads the signal (default: the axis extent, or
// 2 * (extent - 1) for IRFFT). inverse = 1 uses e^{+2 pi i kn/L} / L.
// onesided = 1 with inverse = 0 (RFFT, real input) keeps bins [0, L/2];
// with inverse = 1 (IRFFT) the input holds bins [0, L/2] of a Hermitian
// spectrum and the output is the real signal [.., L, .., 1], as numpy's
// irfft (the imaginary parts of bin 0 and L/2 drop out).
// Opsets 20-latest; ops::DFT_v17 (17-19, `axis` an attribute, default 1)
// expands into it. Kernel (kernels/cpu/dft.hpp): float32, float64, float16/
// bfloat16, a direct O(L^2) transform per line in double.
// Tested in test/unit/dft_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct DFT {
  static constexpr std::string_view domain = "", name = "DFT";
  static constexpr int since = 20, until = latest;
  static constexpr arity inputs{1, 3}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::floats, T2 = dtypes::indices;
  struct attributes {
    std::int64_t inverse = 0;
    std::int64_t onesided = 0;
    static constexpr auto fields =
        std::tuple{field{"inverse", &attributes::inverse}, field{"onesided", &attributes::onesided}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    bool has_length = c.input_count() > 1 && c.has_input(1), has_axis = c.input_count() > 2 && c.has_input(2);
    if (has_length) ONYX_TRY(require_type(c, 1, T2, "T2"));
    if (has_axis) ONYX_TRY(require_type(c, 2, dtypes::i64, "tensor(int64)"));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    const auto r = static_cast<std::int64_t>(x.rank());
    if (r < 2) return c.fail("input must have rank >= 2 (signal dims then 1 or 2 components), got " + x.str());
    const dim& comps = x[r - 1];
    if (comps.known() && comps.value() != 1 && comps.value() != 2)
      return c.fail("the last dim must be 1 (real) or 2 (complex), got " + x.str());
    if (a.onesided && !a.inverse && comps.known() && comps.value() != 1)
      return c.fail("onesided forward DFT needs a real input (last dim 1)");
    std::vector<dim> y = x.dims;
    y[r - 1] = dim(a.onesided && a.inverse ? 1 : 2);
    std::optional<std::int64_t> axis = -2;
    if (has_axis) {
      auto v = c.input_ints(2);
      axis = v && v->size() == 1 ? std::optional((*v)[0]) : std::nullopt;
    }
    if (!axis) {
      for (std::int64_t d = 0; d + 1 < r; ++d) y[d] = dim::unknown();
      c.set_output(0, c.input_type(0), sym_shape(std::move(y)));
      return ok();
    }
    std::int64_t ax = *axis < 0 ? *axis + r : *axis;
    if (ax < 0 || ax >= r - 1) return c.fail("axis " + std::to_string(*axis) + " is out of range for " + x.str());
    dim length = a.onesided && a.inverse ? (x[ax] - dim(1)) * dim(2) : x[ax];
    if (has_length) {
      auto v = c.input_ints(1);
      length = v && v->size() == 1 ? dim((*v)[0]) : dim::unknown();
    }
    y[ax] = a.onesided && !a.inverse ? floordiv(length, dim(2)) + dim(1) : length;
    c.set_output(0, c.input_type(0), sym_shape(std::move(y)));
    return ok();
  }
};

struct DFT_v17 {
  static constexpr std::string_view domain = "", name = "DFT";
  static constexpr int since = 17, until = 19;
  static constexpr arity inputs{1, 2}, outputs{1, 1};
  static constexpr dtype_set T1 = DFT::T1, T2 = DFT::T2;
  struct attributes {
    std::int64_t axis = 1;
    std::int64_t inverse = 0;
    std::int64_t onesided = 0;
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"inverse", &attributes::inverse},
                   field{"onesided", &attributes::onesided}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    auto axis = c.constant(tensor::scalar<std::int64_t>(a.axis));
    ONYX_ASSIGN(auto outs, c.add("DFT", {c.input(0), c.input_count() > 1 ? c.input(1) : -1, axis},
                                 {attribute{"inverse", a.inverse}, attribute{"onesided", a.onesided}}));
    c.set_output(0, outs[0]);
    return ok();
  }
};

}  // namespace onyx::ops
