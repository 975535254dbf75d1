// onyx/tools/quantize.hpp: float32 ONNX models rewritten to int8, the library
// side of onyx-quantize (tools/onyx_quantize.cpp).
//
// Both calls rewrite an onnx::ModelProto in place and write the node patterns
// ONNX Runtime's quantizer (onnxruntime/python/tools/quantization) writes, with
// its names, so a model quantized by either tool looks the same to the graph
// passes that fuse those patterns, and runs in both runtimes.
//
// quantize_dynamic (ORT's quantize_dynamic, QuantizationMode.IntegerOps):
//   Gemm with alpha = beta = 1 and transA = 0 first becomes MatMul (+ Add for C),
//   a constant transB weight transposed in place (<gemm>_MatMul, <gemm>_Add).
//   Each MatMul whose B is a constant float tensor becomes
//     DynamicQuantizeLinear(A) -> A_quantized, A_scale, A_zero_point   (node A_QuantizeLinear)
//     MatMulInteger(A_quantized, B_quantized, A_zero_point, B_zero_point)
//                         -> <out>_output_quantized                   (node <name>_quant)
//     Cast(to = FLOAT)    -> <out>_output_quantized_cast_output
//     Mul(A_scale, B_scale) -> <name>_quant_scales_mul:0
//     Mul(cast, scales)   -> <out>                                    (node <name>_quant_output_scale_mul)
//   and each Conv with a constant float weight the same with ConvInteger (its
//   attributes kept), then, with a bias, Reshape(bias, [1, -1, 1, ...]) and Add
//   (<out>_bias_add). Weights are int8 symmetric (scale = max|w| / 127, zero
//   point 0; uint8 asymmetric with weight_type = uint8), per tensor, or for
//   MatMul per column (axis -1) with `per_channel`; Conv weights are per tensor
//   as in ORT. B_quantized, B_scale and B_zero_point replace B. An activation
//   read by several quantized nodes is quantized once. Rounding is half to
//   even, scales are computed in float64 and stored as float32, as numpy does.
//   Models below opset 10 are moved to opset 11 (as ORT does); opset 10 (no
//   DynamicQuantizeLinear) is refused.
//
// quantize_static (ORT's quantize_static, QuantFormat.QDQ): each activation
//   read or written by a quantized node gets QuantizeLinear -> DequantizeLinear
//   (nodes T_QuantizeLinear, T_DequantizeLinear; values T_QuantizeLinear_Output,
//   T_DequantizeLinear_Output; T_scale, T_zero_point), uint8 asymmetric over
//   the calibrated range widened to hold 0, and every reader of T reads the
//   dequantized value (a graph output T keeps its name: its producer writes
//   T_QuantizeLinear_Input). Weights of Conv, MatMul and Gemm are int8
//   symmetric, per output channel by default (axis 0 for Conv and for Gemm
//   with transB, else 1), followed by DequantizeLinear (W_quantized,
//   W_DequantizeLinear); biases of Conv and Gemm are int32 with scale
//   input_scale * weight_scale (Gemm's beta folded in, beta set to 1), their
//   DequantizeLinear writing the bias's own name (B_DequantizeLinear); other
//   constant inputs of quantized nodes are uint8 over their own range.
//   Unlike ORT, two or more elementwise nodes (Add, Mul, Sigmoid, ...) whose
//   varying inputs all come from one value x through other such nodes (a
//   hardswish written out, an affine step by constants) are left in float: they are
//   quantized only where the region starts and ends, and onyx runs
//   DQ -> region -> Q as one table lookup (fewer roundings: PP-OCRv4 det's
//   output cosine to float 0.987 instead of 0.964). With float_region_inputs,
//   a Conv that only such a region reads keeps its output in float too, so
//   the region is quantized once, at its end; onyx runs that Conv as an int8
//   convolution with a float epilogue (onyx.fused.ConvIntegerToFloat), ORT as
//   a float Conv on the dequantized values.
//   Calibration runs the float model (onyx::session) over sample inputs and
//   takes each tensor's range: min_max (smallest and largest value seen) or
//   percentile (a 2048-bin histogram over [min, max] of all samples, cutting
//   (100 - p) / 2 % of the values from each side; ORT merges histograms batch
//   by batch, so its thresholds can differ by a bin). As ORT does, a Relu or
//   Clip input that feeds only that node takes the node's output range.
//   Per-channel weights need DequantizeLinear's axis (opset 13): a model
//   below opset 13 is first moved there by lift_to_opset13.
//   With target_cosine, the nodes most sensitive to int8 stay in float until
//   the outputs on the calibration sets reach that cosine to the float
//   model's (a search by whole-model runs; the notes name each node left).
//
// Constant-node weights (exporters that write no initializers) are moved to
// initializers when a quantized node reads them; external data is read in.
// Errors name the node and op. Tested in test/unit/quantize_tool_test.cpp and
// by ctest's tool.quantize (test/quantize/check_tool.sh).
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "onyx/core/status.hpp"
#include "onyx/graph/tensor_proto.hpp"

namespace onyx::tools {

/// What a quantization call changed.
struct quantize_summary {
  int quantized_nodes = 0;                  // nodes rewritten to integer or QDQ form
  int quantized_weights = 0;                // constant tensors stored quantized
  int quantized_activations = 0;            // activations given a quantization (dynamic or QDQ)
  std::vector<std::string> notes;           // nodes left in float, and why
  std::map<std::string, float> output_steps;  // QDQ: each quantized graph output's scale
  // With static_quantize_options::target_cosine: the outputs' mean cosine to
  // the float model's on the calibration sets, every candidate quantized and
  // as written.
  double cosine_all_quantized = 0, cosine = 0;
};

/// Options of quantize_dynamic (ORT's defaults).
struct dynamic_quantize_options {
  bool per_channel = false;   // MatMul weights: one scale and zero point per column
  bool reduce_range = false;  // 7-bit weights: [-64, 64] (int8) or [0, 127] (uint8)
  dtype weight_type = dtype::int8;  // int8 (symmetric) or uint8 (asymmetric)
  std::set<std::string> op_types{"MatMul", "Conv"};  // Gemm counts as MatMul
  std::set<std::string> nodes_to_exclude{};          // by node name
};

/// Rewrites `m` to dynamic quantization (see the file comment). `model_dir` is
/// the folder external data is read from.
result<quantize_summary> quantize_dynamic(onnx::ModelProto& m, const std::filesystem::path& model_dir,
                                          const dynamic_quantize_options& opt = {});

enum class calibration_method { min_max, percentile };

/// A tensor's calibrated range.
struct tensor_range {
  float min = 0, max = 0;
};

/// Moves `m` (ai.onnx opset 9 to 12) to opset 13, rewriting the ops whose
/// form changed on the way, as onnx's version converter does: Slice's and
/// Clip's attributes (opset 10, 11), Dropout's ratio (12), Squeeze's,
/// Unsqueeze's and ReduceSum's axes and Split's split (13) become constant
/// inputs; a Softmax, LogSoftmax or Hardmax whose axis is not its input's
/// last (rank from onyx's shape inference of `m`) runs on the input
/// flattened at that axis (Shape, Flatten, op, Reshape), the opset-12
/// meaning. Ops that opset 13 no longer has (Upsample, Scatter) and a
/// Softmax-family node of unknown rank are refused, naming the node. A model
/// at 13 or later is left as it is. `model_dir`: where external data is read.
status lift_to_opset13(onnx::ModelProto& m, const std::filesystem::path& model_dir);

/// Options of quantize_static.
struct static_quantize_options {
  calibration_method method = calibration_method::min_max;
  double percentile = 99.999;  // for calibration_method::percentile
  bool per_channel = true;     // weights per output channel (else per tensor)
  std::set<std::string> op_types{"Conv",    "MatMul",      "Gemm",
                                 "Add",     "Mul",         "Concat",
                                 "MaxPool", "AveragePool", "GlobalAveragePool",
                                 "Sigmoid", "LeakyRelu",   "Resize"};
  std::set<std::string> nodes_to_exclude{};
  int threads = 0;  // of the calibration session (0: all cores)
  /// Before calibration: BatchNormalizations folded into the Convs before
  /// them, and each depthwise Conv's input and output channels brought to one
  /// range (scaled per channel, undone exactly in the weights or by a Mul
  /// that joins an elementwise region); see quantize.cpp's equalize_depthwise.
  bool equalize = true;
  /// A Conv whose output only elementwise regions left in float read (a
  /// hardswish written out, an affine step) keeps that output in float, so
  /// each conv-to-conv link is rounded once, where the region ends, instead
  /// of twice as ORT writes it. PP-OCRv4 det, cosine to float on the seven
  /// OCR sample pages: mean 0.9871 -> 0.9915 (paragraph 0.9815 -> 0.9953,
  /// upside_down 0.9861 -> 0.9818); but onyx runs it 17.8 -> 23.8 ms at one
  /// thread (a float output and a float region where a table did), so off
  /// by default.
  bool float_region_inputs = false;
  /// Above 0: an accuracy target. The quantized model's outputs are compared
  /// with the float model's on the calibration sets (cosine similarity of
  /// each float output, averaged over outputs and sets); while that falls
  /// short, Conv, MatMul and Gemm nodes are left in float, the one whose
  /// exclusion alone raised the cosine most first, up to max_float_nodes.
  /// PP-OCRv4 det on the seven OCR sample pages: one early 1x1 Conv carries
  /// most of the drift.
  double target_cosine = 0;
  int max_float_nodes = 8;
};

/// The calibration sets under `dir`: `dir` itself when it holds input_0.pb,
/// else its test_data_set_* folders in order. errc::invalid_argument if none.
result<std::vector<std::filesystem::path>> calibration_sets(const std::filesystem::path& dir);

/// Runs the float model over the sets (each a folder of input_<i>.pb, input i
/// being the model's i-th input) and returns the range of each named tensor.
result<std::map<std::string, tensor_range>> calibrate(const onnx::ModelProto& m, const std::filesystem::path& model_dir,
                                                      const std::set<std::string>& tensors,
                                                      const std::vector<std::filesystem::path>& sets,
                                                      const static_quantize_options& opt);

/// Rewrites `m` to QDQ form with ranges calibrated on `sets` (see the file comment).
result<quantize_summary> quantize_static(onnx::ModelProto& m, const std::filesystem::path& model_dir,
                                         const std::vector<std::filesystem::path>& sets,
                                         const static_quantize_options& opt = {});

}  // namespace onyx::tools
