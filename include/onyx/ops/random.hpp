// onyx/ops/random.hpp: what the random generator ops (RandomUniform,
// RandomNormal, their -Like forms, Bernoulli, Multinomial) share: the `dtype`
// attribute's check. Their values come from a generator, so they are never
// folded or propagated (`deterministic = false`): each run draws anew, and a
// `seed` makes every run draw the same values (kernels/cpu/random.hpp). The
// ONNX backend tests of these ops are checked by shape, dtype, value range
// and, with a seed, run-to-run determinism (test/conformance/random_list.txt),
// since their expected values come from one particular generator.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

/// The output type a random op's `dtype` attribute names (`fallback` when
/// absent), checked against `allowed`.
inline result<dtype> random_output_type(const infer_context& c, const std::optional<std::int64_t>& attr,
                                        dtype fallback, dtype_set allowed, std::string_view what) {
  if (!attr) return fallback;
  if (!is_valid(static_cast<int>(*attr)) || !allowed.contains(static_cast<dtype>(*attr)))
    return c.fail("dtype " + std::to_string(*attr) + " is not one of the " + std::string(what) + " types");
  return static_cast<dtype>(*attr);
}

}  // namespace onyx::ops::detail
