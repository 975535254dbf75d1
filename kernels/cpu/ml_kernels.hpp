// kernels/cpu/ml_kernels.hpp: the CPU kernels of the ai.onnx.ml group.
#pragma once

#include "kernels/cpu/array_feature_extractor.hpp"
#include "kernels/cpu/binarizer.hpp"
