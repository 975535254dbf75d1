// The Reduce family: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd,
// ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp, ReduceSumSquare.
// Each reduces `data` over `axes` (all axes when omitted or empty, unless
// noop_with_empty_axes=1, which makes the op an identity), keeping the
// reduced dims as 1s when keepdims=1. Reducing an empty set gives the
// reduction's identity (0 for sums, 1 for Prod, -inf for Max/LogSum/
// LogSumExp, +inf for Min, NaN for Mean).
// Latest semantics: axes as an optional int64 input, from opset 13 for
// ReduceSum and 18 for the others. The `_v1` structs (axes as an attribute:
// opsets 1-12 for ReduceSum, 1-17 for the others) expand into them.
// Types: float32/64, float16, bfloat16 (accumulated in float), int32/64,
// uint32/64; Max and Min also int8/uint8 and bool. The family shares one header and
// one CPU reduce engine (kernels/cpu/reduce.hpp); deviating from the
// one-header-per-op rule because the ten ops differ only in name and types.
// Tested in test/unit/reduce_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

inline constexpr dtype_set reduce_types = dtypes::floats | dtypes::i32 | dtypes::i64 | dtypes::u32 | dtypes::u64;

/// The output shape of a reduction. `axes` nullopt with `axes_known` false
/// means an axes input whose value inference does not know.
inline result<sym_shape> reduce_shape(const sym_shape& x, const std::optional<std::vector<std::int64_t>>& axes,
                                      bool axes_known, bool keepdims, bool noop) {
  if (!axes_known) return keepdims && x.rank_known ? unknown_dims(x.rank()) : sym_shape::unknown_rank();
  if ((!axes || axes->empty()) && noop) return x;
  if (!x.rank_known) return sym_shape::unknown_rank();
  std::vector<int> ax;
  if (axes && !axes->empty()) {
    ONYX_ASSIGN(ax, normalize_axes(*axes, x.rank()));
  } else {
    for (std::size_t i = 0; i < x.rank(); ++i) ax.push_back(static_cast<int>(i));
  }
  std::vector<dim> out;
  for (std::size_t i = 0; i < x.rank(); ++i) {
    bool reduced = std::find(ax.begin(), ax.end(), static_cast<int>(i)) != ax.end();
    if (!reduced) out.push_back(x.dims[i]);
    else if (keepdims) out.push_back(1);
  }
  return sym_shape(std::move(out));
}

/// What the latest Reduce ops share: axes as input 1.
template <dtype_set Types> struct reduce_base {
  static constexpr int until = latest;
  static constexpr arity inputs{1, 2}, outputs{1, 1};
  static constexpr dtype_set T = Types;
  struct attributes {
    std::int64_t keepdims = 1;
    std::int64_t noop_with_empty_axes = 0;
    static constexpr auto fields = std::tuple{field{"keepdims", &attributes::keepdims},
                                              field{"noop_with_empty_axes", &attributes::noop_with_empty_axes}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    std::optional<std::vector<std::int64_t>> axes;
    bool known = true;
    if (c.has_input(1)) {
      ONYX_TRY(require_type(c, 1, dtypes::i64, "axes (int64)"));
      axes = c.input_ints(1);
      known = axes || known_length(c, 1) == 0;
    }
    ONYX_ASSIGN(auto s, reduce_shape(c.input_shape(0), axes, known, a.keepdims != 0, a.noop_with_empty_axes != 0));
    c.set_output(0, c.input_type(0), std::move(s));
    return ok();
  }
};

/// What the older Reduce ops share: axes as an attribute, expanded into an
/// axes input of the latest op named `Self::name`.
template <class Self> struct reduce_v1_base {
  static constexpr std::string_view domain = "";
  static constexpr int since = 1;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  struct attributes {
    std::optional<std::vector<std::int64_t>> axes;
    std::int64_t keepdims = 1;
    static constexpr auto fields =
        std::tuple{field{"axes", &attributes::axes}, field{"keepdims", &attributes::keepdims}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_ASSIGN(auto s, reduce_shape(c.input_shape(0), a.axes, true, a.keepdims != 0, false));
    c.set_output(0, c.input_type(0), std::move(s));
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    std::vector<expand_context::ref> in{c.input(0)};
    if (a.axes && !a.axes->empty()) in.push_back(c.constant(int64_tensor(*a.axes)));
    ONYX_ASSIGN(auto outs, c.add(Self::name, std::move(in), {attribute{"keepdims", a.keepdims}}));
    c.set_output(0, outs[0]);
    return ok();
  }
};

// clang-format off
struct ReduceSum : reduce_base<reduce_types> { static constexpr std::string_view domain = "", name = "ReduceSum"; static constexpr int since = 13; };
struct ReduceMean : reduce_base<reduce_types> { static constexpr std::string_view domain = "", name = "ReduceMean"; static constexpr int since = 18; };
struct ReduceMax : reduce_base<reduce_types | dtypes::i8 | dtypes::u8 | dtypes::boolean> { static constexpr std::string_view domain = "", name = "ReduceMax"; static constexpr int since = 18; };
struct ReduceMin : reduce_base<reduce_types | dtypes::i8 | dtypes::u8 | dtypes::boolean> { static constexpr std::string_view domain = "", name = "ReduceMin"; static constexpr int since = 18; };
struct ReduceProd : reduce_base<reduce_types> { static constexpr std::string_view domain = "", name = "ReduceProd"; static constexpr int since = 18; };
struct ReduceL1 : reduce_base<reduce_types> { static constexpr std::string_view domain = "", name = "ReduceL1"; static constexpr int since = 18; };
struct ReduceL2 : reduce_base<reduce_types> { static constexpr std::string_view domain = "", name = "ReduceL2"; static constexpr int since = 18; };
struct ReduceLogSum : reduce_base<reduce_types> { static constexpr std::string_view domain = "", name = "ReduceLogSum"; static constexpr int since = 18; };
struct ReduceLogSumExp : reduce_base<reduce_types> { static constexpr std::string_view domain = "", name = "ReduceLogSumExp"; static constexpr int since = 18; };
struct ReduceSumSquare : reduce_base<reduce_types> { static constexpr std::string_view domain = "", name = "ReduceSumSquare"; static constexpr int since = 18; };

struct ReduceSum_v1 : reduce_v1_base<ReduceSum_v1> { static constexpr std::string_view name = "ReduceSum"; static constexpr int until = 12; };
struct ReduceMean_v1 : reduce_v1_base<ReduceMean_v1> { static constexpr std::string_view name = "ReduceMean"; static constexpr int until = 17; };
struct ReduceMax_v1 : reduce_v1_base<ReduceMax_v1> { static constexpr std::string_view name = "ReduceMax"; static constexpr int until = 17; };
struct ReduceMin_v1 : reduce_v1_base<ReduceMin_v1> { static constexpr std::string_view name = "ReduceMin"; static constexpr int until = 17; };
struct ReduceProd_v1 : reduce_v1_base<ReduceProd_v1> { static constexpr std::string_view name = "ReduceProd"; static constexpr int until = 17; };
struct ReduceL1_v1 : reduce_v1_base<ReduceL1_v1> { static constexpr std::string_view name = "ReduceL1"; static constexpr int until = 17; };
struct ReduceL2_v1 : reduce_v1_base<ReduceL2_v1> { static constexpr std::string_view name = "ReduceL2"; static constexpr int until = 17; };
struct ReduceLogSum_v1 : reduce_v1_base<ReduceLogSum_v1> { static constexpr std::string_view name = "ReduceLogSum"; static constexpr int until = 17; };
struct ReduceLogSumExp_v1 : reduce_v1_base<ReduceLogSumExp_v1> { static constexpr std::string_view name = "ReduceLogSumExp"; static constexpr int until = 17; };
struct ReduceSumSquare_v1 : reduce_v1_base<ReduceSumSquare_v1> { static constexpr std::string_view name = "ReduceSumSquare"; static constexpr int until = 17; };
// clang-format on

}  // namespace onyx::ops
