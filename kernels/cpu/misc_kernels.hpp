// kernels/cpu/misc_kernels.hpp: the CPU kernels of the misc op group.
#pragma once

#include "kernels/cpu/cumulative.hpp"
#include "kernels/cpu/shrink.hpp"
#include "kernels/cpu/swish.hpp"
