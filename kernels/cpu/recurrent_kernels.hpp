// kernels/cpu/recurrent_kernels.hpp: CPU kernels of the recurrent group.
#pragma once

#include "kernels/cpu/recurrent.hpp"
