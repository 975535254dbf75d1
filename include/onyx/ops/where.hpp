// ops::Where: output = condition ? X : Y elementwise, the three inputs
// broadcast together (numpy rules).
// Opsets 9-latest (16 added bfloat16). Kernel (kernels/cpu/where.hpp): every
// storable type of width 1, 2, 4 or 8 bytes, and strings; instantiated per
// width. Inference computes small int64/int32/float32 results.
// Tested in test/unit/where_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Where {
  static constexpr std::string_view domain = "", name = "Where";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set B = dtypes::boolean;
  static constexpr dtype_set T = dtypes::numeric | dtypes::boolean | dtypes::string;
  static constexpr std::array signature{in(1)};
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, B, "B"));
    ONYX_TRY(require_same_type(c, 1, 2, T, "T"));
    ONYX_ASSIGN(auto s, broadcast(c.input_shape(0), c.input_shape(1)));
    ONYX_ASSIGN(s, broadcast(s, c.input_shape(2)));
    c.set_output(0, c.input_type(1), s);
    propagate(c);
    return ok();
  }

 private:
  // Shape computations select with Where (e.g. Where(Equal(shape, -1), 1, shape)).
  static void propagate(infer_context& c) {
    const tensor *cond = c.input_value(0), *x = c.input_value(1), *y = c.input_value(2);
    if (!cond || !x || !y) return;
    const auto t = x->type();
    if (t != dtype::int64 && t != dtype::int32 && t != dtype::float32) return;
    auto s = broadcast(sym_shape(cond->shape()), sym_shape(x->shape()));
    if (!s.ok() || !(s = broadcast(*s, sym_shape(y->shape()))).ok()) return;
    auto out = s->concrete_extents();
    if (!out || element_count(*out) > detail::max_propagated_elements) return;
    // Where(c, x, y) = select(c, x, y): pick through two bool-keyed passes.
    auto pick = [&](auto zero) {
      using A = decltype(zero);
      tensor xs = detail::small_broadcast<A, A>(*x, *x, *out, [](A a, A) { return a; });
      tensor ys = detail::small_broadcast<A, A>(*y, *y, *out, [](A a, A) { return a; });
      tensor cs = detail::small_broadcast<bool, bool>(*cond, *cond, *out, [](bool a, bool) { return a; });
      for (std::int64_t i = 0; i < xs.size(); ++i)
        if (!cs.data<bool>()[i]) xs.data<A>()[i] = ys.data<A>()[i];
      c.set_output_value(0, std::move(xs));
    };
    if (t == dtype::int64) pick(std::int64_t{});
    else if (t == dtype::int32) pick(std::int32_t{});
    else pick(float{});
  }
};

}  // namespace onyx::ops
