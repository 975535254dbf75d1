// onyx/ops/control_ops.hpp: the control op group: control flow: If, Loop, Scan, SequenceMap.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/if.hpp"
#include "onyx/ops/loop.hpp"
#include "onyx/ops/scan.hpp"
#include "onyx/ops/sequence_map.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using control_ops = op_list<
    ops::If,
    ops::Loop,
    ops::Scan,
    ops::Scan_v8,
    ops::SequenceMap>;
// clang-format on

}  // namespace onyx
