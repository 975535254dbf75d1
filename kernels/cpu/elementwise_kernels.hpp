// kernels/cpu/elementwise_kernels.hpp: the CPU kernels of the elementwise group.
#pragma once

#include "kernels/cpu/add.hpp"
#include "kernels/cpu/clip.hpp"
#include "kernels/cpu/div.hpp"
#include "kernels/cpu/dropout.hpp"
#include "kernels/cpu/max.hpp"
#include "kernels/cpu/mean.hpp"
#include "kernels/cpu/min.hpp"
#include "kernels/cpu/mul.hpp"
#include "kernels/cpu/relu.hpp"
#include "kernels/cpu/sub.hpp"
#include "kernels/cpu/sum.hpp"
