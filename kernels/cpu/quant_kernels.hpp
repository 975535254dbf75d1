// kernels/cpu/quant_kernels.hpp: the CPU kernels of the quant op group.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "kernels/cpu/mat_mul_integer.hpp"
#include "kernels/cpu/qlinear_binary.hpp"
#include "kernels/cpu/qlinear_concat.hpp"
#include "kernels/cpu/qlinear_global_average_pool.hpp"
#include "kernels/cpu/qlinear_lookup.hpp"
