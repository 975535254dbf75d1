// onyx/ops/detail/normalization.hpp: shape checks the normalization ops share.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

/// Input `i` must be a vector whose length equals `channels` (when both known).
inline status require_channel_vector(const infer_context& c, int i, const dim& channels, std::string_view what) {
  if (!c.has_input(i)) return ok();
  const sym_shape& s = c.input_shape(i);
  if (!s.rank_known) return ok();
  if (s.rank() != 1 || (s[0].known() && channels.known() && s[0].value() != channels.value()))
    return c.fail(std::string(what) + " must have shape [" + channels.str() + "], got " + s.str());
  return ok();
}

/// Input 0 must have rank >= `min_rank`; returns dim 1 (channels) or unknown.
inline result<dim> require_channels(const infer_context& c, std::size_t min_rank) {
  const sym_shape& x = c.input_shape(0);
  if (!x.rank_known) return dim::unknown();
  if (x.rank() < min_rank)
    return c.fail("X must have rank >= " + std::to_string(min_rank) + " (N x C x ...), got " + x.str());
  return x[1];
}

}  // namespace onyx::ops::detail
