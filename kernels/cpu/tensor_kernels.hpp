// kernels/cpu/tensor_kernels.hpp: CPU kernels of the tensor group.
#pragma once

#include "kernels/cpu/arg_max.hpp"
#include "kernels/cpu/concat.hpp"
#include "kernels/cpu/constant_of_shape.hpp"
#include "kernels/cpu/flatten.hpp"
#include "kernels/cpu/gather.hpp"
#include "kernels/cpu/reduce.hpp"
#include "kernels/cpu/reshape.hpp"
#include "kernels/cpu/shape.hpp"
#include "kernels/cpu/size.hpp"
#include "kernels/cpu/squeeze.hpp"
#include "kernels/cpu/transpose.hpp"
#include "kernels/cpu/unsqueeze.hpp"
