// onyx/ops/elementwise.hpp: inference shared by the elementwise op structs.
//
// infer_unary / infer_binary / infer_variadic check the inputs against a type
// constraint and set the output's type and (broadcast) shape.
// propagate_binary computes the value of a small int64/int32/float32 result
// when both inputs are known at inference time, so shape arithmetic in
// exported graphs (Reshape targets built from Shape, Gather, Mul, Div...)
// resolves to constants.
//
// unary, binary and binary_predicate declare the elementwise op families in
// one line each (`struct Greater : binary_predicate<"Greater", 7,
// dtypes::numeric, std::greater<>> {};`); each op keeps its own struct and header.
#pragma once

#include <functional>
#include <string>

#include "onyx/ops/op.hpp"
#include "onyx/ops/op_name.hpp"

namespace onyx::ops {

/// Input 0 in `allowed`; output 0 has its shape and type `out` (default: the input's).
inline status infer_unary(infer_context& c, dtype_set allowed, std::string_view param,
                          std::optional<dtype> out = std::nullopt) {
  ONYX_TRY(require_type(c, 0, allowed, param));
  c.set_output(0, out.value_or(c.input_type(0)), c.input_shape(0));
  return ok();
}

/// Inputs `first..` present ones all of one type in `allowed`.
inline status require_same_type(const infer_context& c, int first, int last, dtype_set allowed,
                                std::string_view param) {
  for (int i = first; i <= last; ++i) {
    if (!c.has_input(i)) continue;
    ONYX_TRY(require_type(c, i, allowed, param));
    if (c.input_type(i) != c.input_type(first))
      return c.fail("input " + std::to_string(i) + " has type " + std::string(name(c.input_type(i))) + " but input " +
                    std::to_string(first) + " has " + std::string(name(c.input_type(first))) + "; type constraint " +
                    std::string(param) + " requires them to be the same");
  }
  return ok();
}

/// Every present input of one type in `allowed`; output 0 is their broadcast,
/// of type `out` (default: the inputs').
inline status infer_variadic(infer_context& c, dtype_set allowed, std::string_view param,
                             std::optional<dtype> out = std::nullopt) {
  if (c.input_count() < 1) return c.fail("expected at least one input");
  ONYX_TRY(require_same_type(c, 0, c.input_count() - 1, allowed, param));
  sym_shape s = c.input_shape(0);
  for (int i = 1; i < c.input_count(); ++i) {
    if (!c.has_input(i)) continue;
    ONYX_ASSIGN(s, broadcast(s, c.input_shape(i)));
  }
  c.set_output(0, out.value_or(c.input_type(0)), std::move(s));
  return ok();
}

inline status infer_binary(infer_context& c, dtype_set allowed, std::string_view param,
                           std::optional<dtype> out = std::nullopt) {
  if (c.input_count() != 2 || !c.has_input(0) || !c.has_input(1)) return c.fail("expected two inputs");
  return infer_variadic(c, allowed, param, out);
}

/// Input i's shape broadcasts to input `to`'s without enlarging it
/// (unidirectional broadcast: PRelu's slope, Clip's bounds).
inline status require_broadcasts_to(const infer_context& c, int i, int to, std::string_view what) {
  const sym_shape& x = c.input_shape(to);
  auto s = broadcast(x, c.input_shape(i));
  auto fail = [&] {
    return c.fail(std::string(what) + " of shape " + c.input_shape(i).str() + " does not broadcast to shape " +
                  x.str());
  };
  if (!s.ok()) return fail();
  if (!s->rank_known || !x.rank_known) return ok();
  if (s->rank() != x.rank()) return fail();
  for (std::size_t d = 0; d < x.rank(); ++d)
    if (x[d].known() && (*s)[d].known() && x[d].value() != (*s)[d].value()) return fail();
  return ok();
}

namespace detail {

/// Largest result whose value inference computes (shape arithmetic is tiny).
inline constexpr std::int64_t max_propagated_elements = 1024;

/// Naive broadcast y = f(a, b) over known tensors of storage type A into R.
template <class R, class A, class F> tensor small_broadcast(const tensor& a, const tensor& b, const extents& out, F f) {
  tensor y = tensor::zeros(dtype_of<R>, out);
  const auto rank = out.size();
  auto source = [&](const tensor& t, std::int64_t flat) {
    std::int64_t off = 0, stride = 1;
    for (std::size_t d = rank; d-- > 0;) {
      std::int64_t i = flat % out[d];
      flat /= out[d];
      std::size_t td = d + t.rank();
      if (td < rank) break;  // t has fewer dims: broadcast along the rest
      td -= rank;
      if (t.dim(td) != 1) off += i * stride;
      stride *= t.dim(td);
    }
    return t.data<A>()[off];
  };
  R* yv = y.data<R>();
  for (std::int64_t i = 0; i < y.size(); ++i) yv[i] = static_cast<R>(f(source(a, i), source(b, i)));
  return y;
}

}  // namespace detail

/// When inputs 0 and 1 are known and the output is small, sets output 0's
/// value to f(a, b). Covers int64, int32 and float32 inputs; the result has
/// the output's inferred type `out` (the inputs' type, or bool).
template <class F> void propagate_binary(infer_context& c, F f, bool bool_result = false) {
  const tensor* a = c.has_input(0) ? c.input_value(0) : nullptr;
  const tensor* b = c.has_input(1) ? c.input_value(1) : nullptr;
  if (!a || !b || a->type() != b->type()) return;
  auto s = broadcast(sym_shape(a->shape()), sym_shape(b->shape()));
  if (!s.ok()) return;
  auto out = s->concrete_extents();
  if (!out || element_count(*out) > detail::max_propagated_elements) return;
  auto run = [&](auto zero) {
    using A = decltype(zero);
    if (bool_result)
      c.set_output_value(0, detail::small_broadcast<bool, A>(*a, *b, *out, f));
    else
      c.set_output_value(0, detail::small_broadcast<A, A>(*a, *b, *out, f));
  };
  switch (a->type()) {
    case dtype::int64: run(std::int64_t{}); break;
    case dtype::int32: run(std::int32_t{}); break;
    case dtype::float32: run(float{}); break;
    default: break;
  }
}

/// y = f(x) elementwise: the output has the input's shape and type T (the
/// unary math ops, Not, BitwiseNot, the attribute-free activations).
template <op_name Name, int Since, dtype_set Types>
struct unary {
  static constexpr std::string_view domain = "", name = Name.view();
  static constexpr int since = Since, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = Types;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) { return infer_unary(c, T, "T"); }
};

/// C = f(A, B) with numpy broadcasting, C of the inputs' type T (Add, Sub,
/// Mul, Div, BitwiseAnd/Or/Xor). With a function object F, inference computes
/// small results with it (propagate_binary); with void it does not.
template <op_name Name, int Since, dtype_set Types, class F = void>
struct binary {
  static constexpr std::string_view domain = "", name = Name.view();
  static constexpr int since = Since, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = Types;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(infer_binary(c, T, "T"));
    if constexpr (!std::is_void_v<F>) propagate_binary(c, F{});
    return ok();
  }
};

/// C = f(A, B) with numpy broadcasting, C bool (T1): the comparisons, And, Or,
/// Xor. F as for binary.
template <op_name Name, int Since, dtype_set Types, class F = void>
struct binary_predicate {
  static constexpr std::string_view domain = "", name = Name.view();
  static constexpr int since = Since, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = Types;
  static constexpr dtype_set T1 = dtypes::boolean;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(infer_binary(c, T, "T", dtype::boolean));
    if constexpr (!std::is_void_v<F>) propagate_binary(c, F{}, true);
    return ok();
  }
};

/// Y = f(X1, ..., Xn) with numpy broadcasting over 1 or more inputs of type T
/// (Sum, Mean, Max, Min). With F, inference computes small two-input results.
template <op_name Name, dtype_set Types, class F = void>
struct variadic_op {
  static constexpr std::string_view domain = "", name = Name.view();
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, variadic}, outputs{1, 1};
  static constexpr dtype_set T = Types;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(infer_variadic(c, T, "T"));
    if constexpr (!std::is_void_v<F>)
      if (c.input_count() == 2) propagate_binary(c, F{});
    return ok();
  }
};

/// y = f(x) with a float attribute `alpha` (default 1), float types: Elu, Celu, ThresholdedRelu, Swish.
template <op_name Name, int Since>
struct alpha_activation {
  static constexpr std::string_view domain = "", name = Name.view();
  static constexpr int since = Since, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float alpha = 1.0f;
    static constexpr auto fields = std::tuple{field{"alpha", &attributes::alpha}};
  };
  static status infer(const attributes&, infer_context& c) { return infer_unary(c, T, "T"); }
};

}  // namespace onyx::ops
