// kernels/cpu/control_kernels.hpp: the CPU kernels of the control op group.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "kernels/cpu/if.hpp"
#include "kernels/cpu/loop.hpp"
#include "kernels/cpu/scan.hpp"
#include "kernels/cpu/sequence_map.hpp"
