// kernels/cpu/control_kernels.hpp: CPU kernels of the control op group.
#pragma once

#include "kernels/cpu/if.hpp"
#include "kernels/cpu/loop.hpp"
#include "kernels/cpu/scan.hpp"
#include "kernels/cpu/sequence_map.hpp"
