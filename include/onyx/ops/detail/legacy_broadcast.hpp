// onyx/ops/detail/legacy_broadcast.hpp: the opset 1-6 form of the binary
// arithmetic ops (Add, Sub, Mul, Div, Pow), shared by their _v1 structs.
//
// Before opset 7, C = op(A, B) had C = A's shape. With `broadcast` = 0 the
// shapes must be equal; with `broadcast` = 1, B's shape is a contiguous run of
// A's dims, placed at `axis` when given (B's first dim aligns with A's dim
// `axis`) and as a suffix otherwise (numpy's alignment). The expansion feeds
// the latest op, first reshaping B to shape(B) ++ [1] * (rank(A) - axis -
// rank(B)) when `axis` is given. Ranks are unknown when expanding (it precedes
// inference), so that shape is computed by graph ops that inference folds to
// constants: Shape, Sub, Expand, Concat. Deviation: as the expansion runs
// before inference, shapes are checked by the latest op's numpy rules, so an
// invalid model whose shapes numpy-broadcast anyway (B of higher rank than A,
// broadcast = 0 with unequal shapes) runs instead of failing.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops::detail {

struct legacy_broadcast_attributes {
  std::int64_t broadcast = 0;
  std::optional<std::int64_t> axis;
  static constexpr auto fields = std::tuple{field{"broadcast", &legacy_broadcast_attributes::broadcast},
                                            field{"axis", &legacy_broadcast_attributes::axis}};
};

/// C has A's type and shape; B must equal A's shape, or (broadcast = 1) fit in it.
inline status legacy_broadcast_infer(const legacy_broadcast_attributes& a, infer_context& c, dtype_set T) {
  ONYX_TRY(require_same_type(c, 0, 1, T, "T"));
  const sym_shape& x = c.input_shape(0);
  const sym_shape& y = c.input_shape(1);
  if (x.rank_known && y.rank_known) {
    if (!a.broadcast && x.concrete_extents() && y.concrete_extents() &&
        *x.concrete_extents() != *y.concrete_extents())
      return c.fail("shapes " + x.str() + " and " + y.str() + " differ and attribute broadcast is 0");
    if (y.rank() > x.rank())
      return c.fail("B of shape " + y.str() + " has more dims than A of shape " + x.str());
  }
  c.set_output(0, c.input(0));
  return ok();
}

/// shape(v) ++ [1] * k, where `k` is a one-element int64 tensor value.
inline result<expand_context::ref> append_ones(expand_context& c, expand_context::ref v, expand_context::ref k) {
  ONYX_ASSIGN(auto shape, c.add("Shape", {v}));
  auto one = c.constant(tensor::from<std::int64_t>({1}, {1}));
  ONYX_ASSIGN(auto ones, c.add("Expand", {one, k}));
  ONYX_ASSIGN(auto target, c.add("Concat", {shape[0], ones[0]}, {attribute{"axis", std::int64_t{0}}}));
  ONYX_ASSIGN(auto reshaped, c.add("Reshape", {v, target[0]}));
  return reshaped[0];
}

/// The rank of value `v` as a one-element int64 tensor value.
inline result<expand_context::ref> rank_of(expand_context& c, expand_context::ref v) {
  ONYX_ASSIGN(auto shape, c.add("Shape", {v}));
  ONYX_ASSIGN(auto rank, c.add("Shape", {shape[0]}));
  return rank[0];
}

inline status legacy_broadcast_expand(std::string_view op, const legacy_broadcast_attributes& a,
                                      expand_context& c) {
  expand_context::ref b = c.input(1);
  if (a.broadcast && a.axis) {
    // k = rank(A) - axis - rank(B); a negative axis counts from A's end: k = -axis - rank(B).
    ONYX_ASSIGN(auto rank_b, rank_of(c, b));
    expand_context::ref lead;
    if (*a.axis >= 0) {
      ONYX_ASSIGN(auto rank_a, rank_of(c, c.input(0)));
      ONYX_ASSIGN(auto d, c.add("Sub", {rank_a, c.constant(tensor::from<std::int64_t>({*a.axis}, {1}))}));
      lead = d[0];
    } else {
      lead = c.constant(tensor::from<std::int64_t>({-*a.axis}, {1}));
    }
    ONYX_ASSIGN(auto k, c.add("Sub", {lead, rank_b}));
    ONYX_ASSIGN(b, append_ones(c, b, k[0]));
  }
  ONYX_ASSIGN(auto outs, c.add(op, {c.input(0), b}));
  c.set_output(0, outs[0]);
  return ok();
}

/// T of Add, Sub, Mul and Div in opsets 1-6.
inline constexpr dtype_set legacy_arithmetic_types =
    dtypes::floats | dtypes::i32 | dtypes::i64 | dtypes::u32 | dtypes::u64;

/// The opset 1-6 struct of Name (Add_v1, ...): legacy broadcasting, expanded into the latest op.
template <op_name Name, dtype_set Types>
struct legacy_broadcast_op {
  static constexpr std::string_view domain = "", name = Name.view();
  static constexpr int since = 1, until = 6;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = Types;
  using attributes = legacy_broadcast_attributes;
  static status infer(const attributes& a, infer_context& c) { return legacy_broadcast_infer(a, c, T); }
  static status expand(const attributes& a, expand_context& c) { return legacy_broadcast_expand(name, a, c); }
};

}  // namespace onyx::ops::detail
