// ops::PRelu: y = x < 0 ? slope * x : x, slope broadcast to x's shape
// (unidirectional numpy broadcasting).
// Opsets 7-latest (7 made slope broadcast, 16 added integer types).
// Opsets 1-6: ops::PRelu_v1, whose slope is X-shaped, one element, or (as
// exporters of that era emitted and runtimes accepted) one value per channel:
// shape [C] against X [N, C, ...]. Expanded into this op with the slope
// reshaped to shape(slope) ++ [1] * max(rank(X) - 1 - rank(slope), 0), which
// is [C, 1, ...] for a per-channel slope and leaves the other forms as they
// are.
// Kernel (kernels/cpu/prelu.hpp): float32, float64, float16/bfloat16 (in
// float), int32, int64, uint32, uint64. Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/detail/legacy_broadcast.hpp"
#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct PRelu {
  static constexpr std::string_view domain = "", name = "PRelu";
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats | dtypes::i32 | dtypes::i64 | dtypes::u32 | dtypes::u64;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_same_type(c, 0, 1, T, "T"));
    ONYX_TRY(require_broadcasts_to(c, 1, 0, "slope"));
    c.set_output(0, c.input(0));
    return ok();
  }
};

struct PRelu_v1 {
  static constexpr std::string_view domain = "", name = "PRelu";
  static constexpr int since = 1, until = 6;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f16 | dtypes::f32 | dtypes::f64;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_same_type(c, 0, 1, T, "T"));
    c.set_output(0, c.input(0));
    return ok();
  }
  static status expand(const attributes&, expand_context& c) {
    ONYX_ASSIGN(auto rank_x, detail::rank_of(c, c.input(0)));
    ONYX_ASSIGN(auto rank_slope, detail::rank_of(c, c.input(1)));
    ONYX_ASSIGN(auto lead, c.add("Sub", {rank_x, c.constant(tensor::from<std::int64_t>({1}, {1}))}));
    ONYX_ASSIGN(auto k, c.add("Sub", {lead[0], rank_slope}));
    ONYX_ASSIGN(auto k0, c.add("Max", {k[0], c.constant(tensor::from<std::int64_t>({0}, {1}))}));
    ONYX_ASSIGN(auto slope, detail::append_ones(c, c.input(1), k0[0]));
    ONYX_ASSIGN(auto outs, c.add("PRelu", {c.input(0), slope}));
    c.set_output(0, outs[0]);
    return ok();
  }
};

}  // namespace onyx::ops
