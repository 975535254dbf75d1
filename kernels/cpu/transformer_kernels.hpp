// kernels/cpu/transformer_kernels.hpp: CPU kernels of the transformer group.
#pragma once

#include "kernels/cpu/attention.hpp"
#include "kernels/cpu/linear_attention.hpp"
#include "kernels/cpu/rms_normalization.hpp"
#include "kernels/cpu/rotary_embedding.hpp"
