// onyx/ops/control_ops.hpp: the control-flow op group (If, Loop, Scan,
// SequenceMap).
#pragma once

#include "onyx/ops/if.hpp"
#include "onyx/ops/loop.hpp"
#include "onyx/ops/scan.hpp"
#include "onyx/ops/scan_v8.hpp"
#include "onyx/ops/sequence_map.hpp"
#include "onyx/ops/op_list.hpp"

namespace onyx {

using control_ops = op_list<ops::If, ops::Loop, ops::Scan, ops::Scan_v8, ops::SequenceMap>;

}  // namespace onyx
