// ops::Reshape: the input's data under a new shape. A target entry of 0
// copies the input's dim (unless allowzero=1, then it means 0); one entry of
// -1 is inferred from the element count.
// Opsets 5-latest (14 added allowzero); ops::Reshape_v1 (opsets 1-4, shape as
// an attribute) expands into it. All types; the kernel copies bytes (every
// byte-addressed type, strings included).
// The target may be computed at run time: inference then knows the rank
// (from the shape input's length) but not the dims.
// Tested in test/unit/reshape_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

/// The output shape of Reshape(x, target); -1 dims cancel the factors they
/// share with x, so [N,3,4] -> [-1,12] infers N rather than (N*3*4)//12.
inline result<sym_shape> reshape_shape(const sym_shape& x, std::span<const std::int64_t> target, bool allowzero) {
  std::vector<dim> out;
  int infer_at = -1;
  bool has_zero = false;
  for (std::size_t i = 0; i < target.size(); ++i) {
    std::int64_t v = target[i];
    if (v == -1) {
      if (infer_at >= 0) return status(errc::invalid_graph, "the target shape has more than one -1");
      infer_at = static_cast<int>(i);
      out.push_back(1);
    } else if (v < -1) {
      return status(errc::invalid_graph, "target dim " + std::to_string(v) + " at " + std::to_string(i) + " is negative");
    } else if (v == 0 && !allowzero) {
      if (x.rank_known && i >= x.rank())
        return status(errc::invalid_graph, "target dim 0 at " + std::to_string(i) + " copies a dim the input (rank " +
                                               std::to_string(x.rank()) + ") does not have");
      out.push_back(x.rank_known ? x.dims[i] : dim::unknown());
    } else {
      has_zero |= v == 0;
      out.push_back(v);
    }
  }
  if (allowzero && has_zero && infer_at >= 0)
    return status(errc::invalid_graph, "with allowzero=1 the target shape cannot hold both 0 and -1");
  if (!x.rank_known) {
    if (infer_at >= 0) out[infer_at] = dim::unknown();
    return sym_shape(std::move(out));
  }
  // Cancel: known factors as numbers, symbolic factors by structural equality.
  std::int64_t num = 1, den = 1;
  std::vector<dim> sym;
  for (auto& d : x.dims)
    if (d.known()) num *= d.value();
    else sym.push_back(d);
  bool cancelled = true;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (static_cast<int>(i) == infer_at) continue;
    if (out[i].known()) {
      den *= out[i].value();
    } else if (auto it = std::find(sym.begin(), sym.end(), out[i]); it != sym.end()) {
      sym.erase(it);
    } else {
      cancelled = false;
    }
  }
  if (infer_at < 0) {
    if (cancelled && sym.empty() && num != den)
      return status(errc::invalid_graph, "cannot reshape " + x.str() + " (" + std::to_string(num) + " elements) to " +
                                             sym_shape(out).str() + " (" + std::to_string(den) + " elements)");
    return sym_shape(std::move(out));
  }
  if (!cancelled) {
    out[infer_at] = dim::unknown();
  } else if (den == 0) {
    return status(errc::invalid_graph, "cannot infer the -1 dim of a target shape whose other dims multiply to 0");
  } else if (sym.empty()) {
    if (num % den != 0)
      return status(errc::invalid_graph, "cannot reshape " + x.str() + " (" + std::to_string(num) +
                                             " elements) to a multiple of " + std::to_string(den) + " elements");
    out[infer_at] = num / den;
  } else {
    dim s = 1;
    for (auto& d : sym) s = s * d;
    out[infer_at] = num % den == 0 ? s * (num / den) : floordiv(s * num, den);
  }
  return sym_shape(std::move(out));
}

struct Reshape {
  static constexpr std::string_view domain = "", name = "Reshape";
  static constexpr int since = 5, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::int64_t allowzero = 0;
    static constexpr auto fields = std::tuple{field{"allowzero", &attributes::allowzero}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 1, dtypes::i64, "shape (int64)"));
    if (auto target = c.input_ints(1)) {
      ONYX_ASSIGN(auto s, reshape_shape(c.input_shape(0), *target, a.allowzero != 0));
      c.set_output(0, c.input_type(0), std::move(s));
    } else if (auto n = known_length(c, 1)) {
      c.set_output(0, c.input_type(0), unknown_dims(static_cast<std::size_t>(*n)));
    } else {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
    }
    return ok();
  }
};

struct Reshape_v1 {
  static constexpr std::string_view domain = "", name = "Reshape";
  static constexpr int since = 1, until = 4;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  struct attributes {
    std::vector<std::int64_t> shape;
    static constexpr auto fields = std::tuple{field{"shape", &attributes::shape}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_ASSIGN(auto s, reshape_shape(c.input_shape(0), a.shape, false));
    c.set_output(0, c.input_type(0), std::move(s));
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    ONYX_ASSIGN(auto outs, c.add("Reshape", {c.input(0), c.constant(int64_tensor(a.shape))}));
    c.set_output(0, outs[0]);
    return ok();
  }
};

}  // namespace onyx::ops
