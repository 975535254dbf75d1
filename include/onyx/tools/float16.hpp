// onyx/tools/float16.hpp: a float32 ONNX model rewritten to compute in
// float16 (or bfloat16); the library side of onyx-convert-float16 and of
// `onyx-quantize float16`.
//
// In every graph (subgraphs included), each float32 tensor becomes the narrow
// type: initializers and the tensors of Constant and ConstantOfShape nodes
// (rounded to nearest even; finite values beyond the type's range are clamped
// to its largest finite value rather than becoming Inf), Cast nodes with
// to = FLOAT, and the elem_type of graph inputs, outputs and value_info.
// Constant's value_float / value_floats become a narrow `value` tensor.
// Values that ONNX requires to be float32 keep it: Resize's and Upsample's
// `scales`, and, going backwards, whatever computes them (their producers'
// float inputs, and a Cast to FLOAT among them). Other float-typed inputs
// with fixed types (QuantizeLinear scales, random ops' dtype attributes) are
// not handled: the conversion is meant for float CNNs and transformers.
// External data is read (from the model's folder) and written inline.
// Model-local functions are left as they are.
//
// keep_io_types (onnxconverter-common's keep_io_types): the main graph's
// float32 inputs and outputs stay float32, converted at the boundary by Cast
// nodes named as that converter names them: input i by
// `graph_input_cast<i>` (writing `graph_input_cast_<i>`, which the graph's
// readers of the input now read), output i by `graph_output_cast<i>` (reading
// `graph_output_cast_<i>`, which the output's producer now writes).
//
// rounded_float32: the same tensors rounded to the narrow type but kept, with
// every type, float32: the model a float16 one computes when it rounds only
// its weights and inputs, the reference for its accuracy.
//
// Tested in test/unit/quantize_tool_test.cpp ("convert_float16").
#pragma once

#include <filesystem>

#include "onyx/core/status.hpp"
#include "onyx/graph/tensor_proto.hpp"

namespace onyx::tools {

struct float16_options {
  dtype to = dtype::float16;     // float16 or bfloat16
  bool keep_io_types = false;    // float32 graph inputs and outputs, Cast at the boundary
  bool rounded_float32 = false;  // round to `to`, store float32
};

/// Converts `m` in place; returns the number of tensors converted. External
/// data is read from `model_dir`.
result<int> convert_float16(onnx::ModelProto& m, const std::filesystem::path& model_dir,
                            const float16_options& opt = {});

/// Converts one tensor (a test input or output file's) when it is float32.
status convert_float16(onnx::TensorProto& p, const float16_options& opt = {});

}  // namespace onyx::tools
