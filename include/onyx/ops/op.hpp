// onyx/ops/op.hpp: the vocabulary every op struct is written in.
//
// An op struct (one per ONNX operator, `include/onyx/ops/<op>.hpp`) carries:
//   domain, name, since, until      the opset range these semantics cover
//   inputs, outputs                 arity (`arity{min, max}`, max = variadic)
//   type constraints                constexpr dtype sets named as in the spec
//   signature                       which inputs/outputs key its kernels
//   attributes                      an aggregate with defaults + `fields` table
//   infer(attrs, infer_context&)    output types and shapes
//   expand(attrs, expand_context&)  optional: a decomposition into other ops
// It holds no kernel code and includes no backend.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/dtype.hpp"
#include "onyx/core/shape.hpp"
#include "onyx/core/status.hpp"
#include "onyx/core/tensor.hpp"
#include "onyx/core/value.hpp"
#include "onyx/core/attribute.hpp"
#include "onyx/core/value_type.hpp"

namespace onyx::ops {

/// Open end of an opset range.
inline constexpr int latest = 1000;
inline constexpr int variadic = std::numeric_limits<int>::max();

/// How many inputs (or outputs) a node of the op has. The first `min` are
/// required, except the positions in `optional` (a bit per position: an
/// optional input before a required one, as com.microsoft's QLinearAdd has
/// A_zero_point before B); the loader refuses a node that leaves a required
/// one unnamed, so a kernel may read every required input and write every
/// required output.
struct arity {
  int min = 1;
  int max = 1;
  std::uint64_t optional = 0;
};

/// The `optional` bits of arity for positions `i...` (each below 64).
template <class... I>
constexpr std::uint64_t positions(I... i) {
  return ((std::uint64_t{1} << i) | ... | std::uint64_t{0});
}

/// Where one dtype of a kernel's type signature comes from.
struct slot {
  bool output = false;
  int index = 0;
};
constexpr slot in(int i) { return {false, i}; }
constexpr slot out(int i) { return {true, i}; }

/// The dtypes a kernel is keyed by, e.g. (T, Tind) for Gather. Structural, so
/// it can be a template argument: `template <signature S> run(...)`.
struct signature {
  dtype t[4] = {};
  int n = 0;
  constexpr dtype operator[](int i) const { return t[i]; }
  constexpr std::uint32_t key() const {
    std::uint32_t k = 0;
    for (int i = 0; i < n; ++i) k |= std::uint32_t(t[i]) << (8 * i);
    return k;
  }
  friend constexpr bool operator==(const signature&, const signature&) = default;
};

inline std::string to_string(const signature& s) {
  std::string r = "(";
  for (int i = 0; i < s.n; ++i) r += message(i ? ", " : "", onyx::name(s.t[i]));
  return r += ")";
}

/// A graph attribute (an If branch, a Loop body) as its op's inference sees
/// it: how many inputs it takes and the declared types of its outputs, dims
/// kept only where they are numbers (a subgraph's symbols are not the outer
/// graph's).
struct body_interface {
  std::size_t inputs = 0;
  std::vector<value_type> outputs;
};

/// The interface an op's `infer` sees: the node's input types, shapes and the
/// values known before running (constants, small propagated tensors).
class infer_context {
 public:
  virtual ~infer_context() = default;
  virtual int input_count() const = 0;
  virtual int output_count() const = 0;
  /// False for an omitted optional input ("" in the model).
  virtual bool has_input(int i) const = 0;
  virtual const value_type& input(int i) const = 0;
  /// The input's value when known at this point (a constant, a propagated
  /// shape computation, or at run time the actual tensor); else nullptr.
  virtual const tensor* input_value(int i) const = 0;
  virtual void set_output(int i, value_type t) = 0;
  virtual void set_output_value(int i, tensor v) = 0;
  /// Inference runs once per input-shape signature; true when every graph
  /// input shape is concrete (so dims may be read as numbers).
  virtual const std::string& node_name() const = 0;
  /// The types of the outputs of `body` (one of this node's graph attributes)
  /// when its inputs have types `inputs`, inferred through its nodes with the
  /// enclosing graph's types for the values it captures. nullopt where this
  /// context does not infer bodies: callers then use the declared types.
  virtual result<std::optional<std::vector<value_type>>> infer_subgraph(const graph::graph& body,
                                                                        std::span<const value_type> inputs) {
    (void)body, (void)inputs;
    return std::optional<std::vector<value_type>>{};
  }

  /// The declared interface of `body`, one of this node's graph attributes.
  virtual body_interface interface_of(const graph::graph& body) const = 0;

  dtype input_type(int i) const { return input(i).type; }
  const sym_shape& input_shape(int i) const { return input(i).shape; }
  void set_output(int i, dtype t, sym_shape s) { set_output(i, value_type{value_kind::tensor, t, std::move(s)}); }

  /// A failed status for a node whose inputs do not agree with the spec.
  status fail(std::string what) const { return status(errc::invalid_graph, what); }

  /// The known values of an int64/int32 input as int64s, or nullopt.
  std::optional<std::vector<std::int64_t>> input_ints(int i) const {
    const tensor* t = has_input(i) ? input_value(i) : nullptr;
    if (!t) return std::nullopt;
    std::vector<std::int64_t> v(static_cast<std::size_t>(t->size()));
    if (t->type() == dtype::int64)
      std::copy_n(t->data<std::int64_t>(), v.size(), v.begin());
    else if (t->type() == dtype::int32)
      std::copy_n(t->data<std::int32_t>(), v.size(), v.begin());
    else
      return std::nullopt;
    return v;
  }
};

/// Checks `t` against a type constraint, naming the input on failure.
inline status require_type(const infer_context& c, int i, dtype_set allowed, std::string_view param) {
  dtype t = c.input_type(i);
  if (allowed.contains(t)) return ok();
  return status(errc::invalid_graph, "input " + std::to_string(i) + " has type " + std::string(name(t)) +
                                         ", which type constraint " + std::string(param) + " does not allow");
}

/// Normalizes an axis in [-rank, rank) to [0, rank).
inline result<int> normalize_axis(std::int64_t axis, std::size_t rank, std::string_view what = "axis") {
  auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r)
    return status(errc::invalid_graph, std::string(what) + " " + std::to_string(axis) + " is out of range for rank " +
                                           std::to_string(rank));
  return static_cast<int>(axis < 0 ? axis + r : axis);
}

/// Numpy-style broadcast of symbolic shapes; fails when two known dims differ.
inline result<sym_shape> broadcast(const sym_shape& a, const sym_shape& b) {
  if (!a.rank_known || !b.rank_known) return sym_shape::unknown_rank();
  std::size_t r = std::max(a.rank(), b.rank());
  std::vector<dim> out(r);
  for (std::size_t i = 0; i < r; ++i) {
    const dim* x = i + a.rank() >= r ? &a.dims[i + a.rank() - r] : nullptr;
    const dim* y = i + b.rank() >= r ? &b.dims[i + b.rank() - r] : nullptr;
    if (!x) out[i] = *y;
    else if (!y) out[i] = *x;
    else if (x->known() && x->value() == 1) out[i] = *y;
    else if (y->known() && y->value() == 1) out[i] = *x;
    else if (*x == *y) out[i] = *x;
    else if (x->known() && y->known())
      return status(errc::invalid_graph, "shapes " + a.str() + " and " + b.str() + " cannot be broadcast");
    else out[i] = x->known() ? *x : y->known() ? *y : dim::unknown();
  }
  return sym_shape(std::move(out));
}

/// Output 0 has input 0's type and shape (unary elementwise ops).
inline status infer_like_input(infer_context& c, int from = 0) {
  c.set_output(0, c.input(from));
  return ok();
}

/// Output 0 is the broadcast of all inputs, with input 0's type.
inline status infer_broadcast(infer_context& c, std::optional<dtype> out_type = std::nullopt) {
  sym_shape s = c.input_shape(0);
  for (int i = 1; i < c.input_count(); ++i) {
    if (!c.has_input(i)) continue;
    if (c.input_type(i) != c.input_type(0) && !out_type)
      return c.fail("input " + std::to_string(i) + " has type " + std::string(name(c.input_type(i))) +
                    " but input 0 has " + std::string(name(c.input_type(0))));
    ONYX_ASSIGN(s, broadcast(s, c.input_shape(i)));
  }
  c.set_output(0, out_type.value_or(c.input_type(0)), std::move(s));
  return ok();
}

}  // namespace onyx::ops

namespace onyx::ops {

/// What an op's `expand` sees: it rebuilds the node from other ops. Used for
/// function-style decompositions and for up-converting older opsets.
class expand_context {
 public:
  using ref = int;  ///< a value of the graph under construction; -1 = omitted
  virtual ~expand_context() = default;
  virtual int input_count() const = 0;
  virtual int output_count() const = 0;
  virtual ref input(int i) const = 0;
  /// A new constant value.
  virtual ref constant(tensor t) = 0;
  /// Adds a node of the model's default domain at the latest semantics;
  /// returns its outputs.
  virtual result<std::vector<ref>> add(std::string_view op, std::vector<ref> inputs,
                                       std::vector<attribute> attrs = {}, int outputs = 1) = 0;
  /// Makes `r` the node's output `i`.
  virtual void set_output(int i, ref r) = 0;
};

}  // namespace onyx::ops
