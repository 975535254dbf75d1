// kernels/cpu/sequence_kernels.hpp: CPU kernels of the sequence op group.
#pragma once

#include "kernels/cpu/sequence.hpp"
