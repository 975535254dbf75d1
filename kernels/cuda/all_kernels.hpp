// kernels/cuda/all_kernels.hpp: every CUDA kernel header (the op families of
// this folder), for registries over backend_list<cuda, ...>.
#pragma once

#include "kernels/cuda/attention.hpp"
#include "kernels/cuda/conv.hpp"
#include "kernels/cuda/data_movement.hpp"
#include "kernels/cuda/elementwise.hpp"
#include "kernels/cuda/mat_mul.hpp"
#include "kernels/cuda/normalization.hpp"
#include "kernels/cuda/pool.hpp"
