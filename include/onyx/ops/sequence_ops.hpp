// onyx/ops/sequence_ops.hpp: the sequence op group: sequences and optionals.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/concat_from_sequence.hpp"
#include "onyx/ops/optional.hpp"
#include "onyx/ops/optional_get_element.hpp"
#include "onyx/ops/optional_has_element.hpp"
#include "onyx/ops/sequence_at.hpp"
#include "onyx/ops/sequence_construct.hpp"
#include "onyx/ops/sequence_empty.hpp"
#include "onyx/ops/sequence_erase.hpp"
#include "onyx/ops/sequence_insert.hpp"
#include "onyx/ops/sequence_length.hpp"
#include "onyx/ops/split_to_sequence.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using sequence_ops = op_list<
    ops::SequenceEmpty,
    ops::SequenceConstruct,
    ops::SequenceInsert,
    ops::SequenceAt,
    ops::SequenceErase,
    ops::SequenceLength,
    ops::ConcatFromSequence,
    ops::SplitToSequence,
    ops::Optional,
    ops::OptionalHasElement,
    ops::OptionalGetElement>;
// clang-format on

}  // namespace onyx
