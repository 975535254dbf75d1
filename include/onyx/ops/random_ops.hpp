// onyx/ops/random_ops.hpp: the random op group: random generators: RandomUniform, RandomNormal,
// their -Like forms, Bernoulli, Multinomial.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/bernoulli.hpp"
#include "onyx/ops/multinomial.hpp"
#include "onyx/ops/random_normal.hpp"
#include "onyx/ops/random_normal_like.hpp"
#include "onyx/ops/random_uniform.hpp"
#include "onyx/ops/random_uniform_like.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using random_ops = op_list<
    ops::RandomUniform,
    ops::RandomNormal,
    ops::RandomUniformLike,
    ops::RandomNormalLike,
    ops::Bernoulli,
    ops::Multinomial>;
// clang-format on

}  // namespace onyx
