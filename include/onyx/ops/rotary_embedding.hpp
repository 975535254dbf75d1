// ops::RotaryEmbedding: rotates the first rotary_embedding_dim features of
// each head by position-dependent angles: with x1, x2 the two halves (or the
// even/odd features when interleaved) and cos, sin from the caches,
//   x1' = cos * x1 - sin * x2,   x2' = sin * x1 + cos * x2.
// X is [B, H, S, D] or [B, S, H*D] (num_heads given); the caches are
// [max_pos, R/2] indexed by position_ids [B, S], or [B, S, R/2] without them.
// Opset 23-latest. Kernel: float32, float16, bfloat16 (computed in float).
// A position id outside the cache is an out_of_range error.
// Tested in test/unit/rotary_embedding_test.cpp and node/test_rotary_embedding_*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct RotaryEmbedding {
  static constexpr std::string_view domain = "", name = "RotaryEmbedding";
  static constexpr int since = 23, until = latest;
  static constexpr arity inputs{3, 4}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f16 | dtypes::bf16;
  static constexpr dtype_set M = dtypes::i64;
  struct attributes {
    std::int64_t interleaved = 0;
    std::optional<std::int64_t> num_heads;
    std::int64_t rotary_embedding_dim = 0;
    static constexpr auto fields = std::tuple{field{"interleaved", &attributes::interleaved},
                                              field{"num_heads", &attributes::num_heads},
                                              field{"rotary_embedding_dim", &attributes::rotary_embedding_dim}};
  };
  static status infer(const attributes& a, infer_context& c) {
    for (int i = 0; i < 3; ++i) ONYX_TRY(require_type(c, i, T, "T"));
    if (c.input_type(1) != c.input_type(0) || c.input_type(2) != c.input_type(0))
      return c.fail("cos_cache and sin_cache must have X's type");
    if (c.has_input(3)) ONYX_TRY(require_type(c, 3, M, "M"));
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 3 && x.rank() != 4)
      return c.fail("X must be 3D or 4D, got " + x.str());
    if (x.rank_known && x.rank() == 3 && (!a.num_heads || *a.num_heads <= 0))
      return c.fail("a 3D X needs a positive num_heads");
    const int cache_rank = c.has_input(3) ? 2 : 3;
    for (int i = 1; i < 3; ++i) {
      const sym_shape& s = c.input_shape(i);
      if (s.rank_known && static_cast<int>(s.rank()) != cache_rank)
        return c.fail(std::string(i == 1 ? "cos_cache" : "sin_cache") + " must be " + std::to_string(cache_rank) +
                      "D " + (cache_rank == 2 ? "with" : "without") + " position_ids, got " + s.str());
    }
    c.set_output(0, c.input(0));
    return ok();
  }
};

}  // namespace onyx::ops
