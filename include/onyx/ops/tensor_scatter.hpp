// ops::TensorScatter: a KV-cache update. present_cache is past_cache with
// `update` written along the sequence axis `axis` (not 0) at write_indices[b]
// for batch b (0 when absent); mode "circular" wraps the write position modulo
// max_sequence_length, "linear" requires it to stay inside the cache.
// Opsets 24-latest. Kernel (kernels/cpu/tensor_scatter.hpp): every
// byte-addressed type. Tested in test/unit/tensor_scatter_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct TensorScatter {
  static constexpr std::string_view domain = "", name = "TensorScatter";
  static constexpr int since = 24, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::int64_t axis = -2;
    std::string mode = "linear";
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"mode", &attributes::mode}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.mode != "linear" && a.mode != "circular")
      return c.fail("mode must be \"linear\" or \"circular\", got \"" + a.mode + "\"");
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (c.input_type(1) != c.input_type(0)) return c.fail("update and past_cache must have one type");
    if (c.has_input(2)) ONYX_TRY(require_type(c, 2, dtypes::i64, "write_indices (int64)"));
    const sym_shape &cache = c.input_shape(0), &update = c.input_shape(1);
    if (cache.rank_known && update.rank_known) {
      if (cache.rank() != update.rank())
        return c.fail("past_cache " + cache.str() + " and update " + update.str() + " must have the same rank");
      ONYX_ASSIGN(int axis, normalize_axis(a.axis, cache.rank()));
      if (axis == 0) return c.fail("axis cannot be 0, the batch axis");
      for (std::size_t i = 0; i < cache.rank(); ++i) {
        const dim &p = cache[i], &u = update[i];
        if (!p.known() || !u.known()) continue;
        if (static_cast<int>(i) != axis ? p.value() != u.value() : u.value() > p.value())
          return c.fail("update " + update.str() + " does not fit past_cache " + cache.str() + " along axis " +
                        std::to_string(axis));
      }
    }
    c.set_output(0, c.input(0));
    return ok();
  }
};

}  // namespace onyx::ops
