// onyx/ops/control_ops.hpp: the control-flow op group (If, Loop, Scan).
#pragma once

#include "onyx/ops/if.hpp"
#include "onyx/ops/loop.hpp"
#include "onyx/ops/scan.hpp"
#include "onyx/registry/registry.hpp"

namespace onyx {

using control_ops = op_list<ops::If, ops::Loop, ops::Scan>;

}  // namespace onyx
