// kernels/cpu/loss_kernels.hpp: CPU kernels of the loss group.
#pragma once

#include "kernels/cpu/loss.hpp"
