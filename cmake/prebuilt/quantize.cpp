// cmake/prebuilt/quantize.cpp: onyx-quantize's library side
// (include/onyx/tools/quantize.hpp), compiled once into onyx_runtime.
#include "onyx/tools/quantize.hpp"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "onyx/session.hpp"

namespace onyx::tools {

namespace {

using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::TensorProto;

status bad_node(const NodeProto& n, const std::string& why) {
  return status(errc::invalid_model, "node '" + n.name() + "' (" + n.op_type() + "): " + why);
}

bool default_domain(const NodeProto& n) { return n.domain().empty() || n.domain() == "ai.onnx"; }

// ---- the model ---------------------------------------------------------------

/// The ai.onnx opset import (the one ORT's quantizer requires).
result<onnx::OperatorSetIdProto*> default_opset(ModelProto& m) {
  onnx::OperatorSetIdProto* found = nullptr;
  for (auto& o : *m.mutable_opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") {
      if (found) return status(errc::invalid_model, "the model imports the ai.onnx domain twice");
      found = &o;
    }
  if (!found) return status(errc::invalid_model, "the model imports no ai.onnx opset");
  return found;
}

/// External data read into the initializers, so the model stands alone.
status internalize(GraphProto& g, graph::external_data_root& root) {
  for (auto& init : *g.mutable_initializer()) {
    if (init.data_location() != TensorProto::EXTERNAL) continue;
    std::string name = init.name();
    ONYX_ASSIGN(tensor t, graph::tensor_from_proto(init, &root));
    init = graph::tensor_to_proto(t, name);
  }
  return ok();
}

/// The main graph's initializers and nodes by name, kept up to date by the
/// rewrites below.
class graph_index {
 public:
  explicit graph_index(GraphProto& g) : g_(g) {
    for (int i = 0; i < g.initializer_size(); ++i) init_[g.initializer(i).name()] = i;
    for (const auto& in : g.input()) inputs_.insert(in.name());
    for (const auto& out : g.output()) outputs_.insert(out.name());
  }

  /// The initializer `name`, or nullptr.
  TensorProto* initializer(const std::string& name) {
    auto it = init_.find(name);
    return it == init_.end() ? nullptr : g_.mutable_initializer(it->second);
  }

  /// Constant nodes (with a `value` tensor) that produce one of `names`
  /// become initializers (exporters that write no initializers put weights
  /// there).
  void hoist_constants(const std::set<std::string>& names) {
    for (int k = g_.node_size(); k-- > 0;) {
      const auto& n = g_.node(k);
      if (n.op_type() != "Constant" || !default_domain(n) || n.output_size() != 1 || !names.count(n.output(0)) ||
          init_.count(n.output(0)))
        continue;
      for (const auto& a : n.attribute())
        if (a.name() == "value" && a.has_t()) {
          TensorProto t = a.t();
          t.set_name(n.output(0));
          add(std::move(t));
          g_.mutable_node()->DeleteSubrange(k, 1);
          break;
        }
    }
  }

  bool is_float_initializer(const std::string& name) {
    auto* t = initializer(name);
    return t && t->data_type() == TensorProto::FLOAT;
  }

  /// Adds (or replaces) an initializer.
  void add(TensorProto t) {
    if (auto it = init_.find(t.name()); it != init_.end()) {
      *g_.mutable_initializer(it->second) = std::move(t);
      return;
    }
    init_[t.name()] = g_.initializer_size();
    *g_.add_initializer() = std::move(t);
  }

  bool has_initializer(const std::string& name) const { return init_.count(name) > 0; }

  /// Drops the initializer `name` (a node now writes that value).
  void remove(const std::string& name) {
    auto it = init_.find(name);
    if (it == init_.end()) return;
    g_.mutable_initializer()->DeleteSubrange(it->second, 1);
    init_.clear();
    for (int i = 0; i < g_.initializer_size(); ++i) init_[g_.initializer(i).name()] = i;
    for (int i = g_.input_size(); i-- > 0;)
      if (g_.input(i).name() == name) g_.mutable_input()->DeleteSubrange(i, 1);
  }
  bool is_graph_input(const std::string& name) const { return inputs_.count(name) > 0; }
  bool is_graph_output(const std::string& name) const { return outputs_.count(name) > 0; }

  /// Drops initializers no node, nested graph or graph output reads (and
  /// their graph inputs, in models of IR < 4).
  void remove_unused() {
    std::set<std::string> read(outputs_.begin(), outputs_.end());
    collect_reads(g_, read);
    GraphProto kept_inits;
    for (auto& init : *g_.mutable_initializer())
      if (read.count(init.name())) *kept_inits.add_initializer() = std::move(init);
    std::set<std::string> dropped;
    for (const auto& init : g_.initializer())
      if (!read.count(init.name())) dropped.insert(init.name());
    g_.mutable_initializer()->Swap(kept_inits.mutable_initializer());
    for (int i = g_.input_size(); i-- > 0;)
      if (dropped.count(g_.input(i).name())) g_.mutable_input()->DeleteSubrange(i, 1);
    init_.clear();
    for (int i = 0; i < g_.initializer_size(); ++i) init_[g_.initializer(i).name()] = i;
  }

 private:
  static void collect_reads(const GraphProto& g, std::set<std::string>& read) {
    for (const auto& n : g.node()) {
      for (const auto& i : n.input()) read.insert(i);
      for (const auto& a : n.attribute()) {
        if (a.has_g()) collect_reads(a.g(), read);
        for (const auto& sg : a.graphs()) collect_reads(sg, read);
      }
    }
    for (const auto& o : g.output()) read.insert(o.name());
  }

  GraphProto& g_;
  std::unordered_map<std::string, int> init_;
  std::set<std::string> inputs_, outputs_;
};

result<tensor> read_float(const TensorProto& p) {
  TensorProto copy = p;
  ONYX_ASSIGN(tensor t, graph::tensor_from_proto(copy));
  if (t.type() != dtype::float32)
    return status(errc::invalid_argument, "tensor '" + p.name() + "' is not float32");
  return t;
}

NodeProto make_node(const std::string& op, std::vector<std::string> inputs, std::vector<std::string> outputs,
                    const std::string& name) {
  NodeProto n;
  n.set_op_type(op);
  n.set_name(name);
  for (auto& i : inputs) n.add_input(std::move(i));
  for (auto& o : outputs) n.add_output(std::move(o));
  return n;
}

void set_int(NodeProto& n, const std::string& name, std::int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

template <class T> TensorProto make_tensor(const std::string& name, dtype t, const extents& shape,
                                           const std::vector<T>& values) {
  tensor x = tensor::zeros(t, shape);
  for (std::size_t i = 0; i < values.size(); ++i) {
    switch (t) {
      case dtype::float32: x.data<float>()[i] = static_cast<float>(values[i]); break;
      case dtype::int8: x.data<std::int8_t>()[i] = static_cast<std::int8_t>(values[i]); break;
      case dtype::uint8: x.data<std::uint8_t>()[i] = static_cast<std::uint8_t>(values[i]); break;
      case dtype::int32: x.data<std::int32_t>()[i] = static_cast<std::int32_t>(values[i]); break;
      case dtype::int64: x.data<std::int64_t>()[i] = static_cast<std::int64_t>(values[i]); break;
      default: break;
    }
  }
  return graph::tensor_to_proto(x, name);
}

std::optional<const onnx::AttributeProto*> attribute(const NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return &a;
  return std::nullopt;
}

float float_attr(const NodeProto& n, const std::string& name, float def) {
  auto a = attribute(n, name);
  return a ? (*a)->f() : def;
}

std::int64_t int_attr(const NodeProto& n, const std::string& name, std::int64_t def) {
  auto a = attribute(n, name);
  return a ? (*a)->i() : def;
}

// ---- scales, zero points and quantized values (ORT's quant_utils) ---------------

struct qrange {
  int lo, hi;
};

/// The integer range of `t` (ORT's get_qmin_qmax_for_qType).
qrange range_of(dtype t, bool reduce_range, bool symmetric) {
  if (t == dtype::int8) {
    if (reduce_range) return {-64, 64};
    return symmetric ? qrange{-127, 127} : qrange{-128, 127};
  }
  return reduce_range ? qrange{0, 127} : qrange{0, 255};
}

struct qparams {
  float scale = 1;
  int zero_point = 0;
};

/// ORT's compute_scale_zp: [rmin, rmax] widened to hold 0 (and made symmetric
/// when asked) onto [q.lo, q.hi]; the scale is computed in float64 and stored
/// as float32, the zero point rounded half to even.
qparams compute_qparams(float rmin, float rmax, qrange q, bool symmetric) {
  rmin = std::min(rmin, 0.0f);
  rmax = std::max(rmax, 0.0f);
  if (symmetric) {
    float absmax = std::max(std::fabs(rmin), std::fabs(rmax));
    rmin = -absmax;
    rmax = absmax;
  }
  const double dr = static_cast<double>(rmax - rmin);  // the difference in float32, as numpy
  const double scale = dr / (static_cast<double>(q.hi) - static_cast<double>(q.lo));
  qparams p;
  if (!(scale >= static_cast<double>(std::numeric_limits<float>::min()))) return p;  // scale 1, zero point 0
  p.zero_point = symmetric ? static_cast<int>(std::nearbyint((q.lo + q.hi) / 2.0))
                           : static_cast<int>(std::nearbyint(q.lo - static_cast<double>(rmin) / scale));
  p.scale = static_cast<float>(scale);
  return p;
}

/// ORT's quantize_nparray: round(x / scale) + zero point (float32, half to
/// even), clipped to the type's symmetric range for int8 ([-127, 127]) and to
/// [0, 255] for uint8.
int quantize_value(float x, qparams p, dtype t) {
  float q = std::nearbyint(x / p.scale) + static_cast<float>(p.zero_point);
  const float lo = t == dtype::int8 ? -127.0f : 0.0f, hi = t == dtype::int8 ? 127.0f : 255.0f;
  q = std::min(std::max(q, lo), hi);
  return static_cast<int>(q);
}

struct quantized_weight {
  tensor values;                 // int8 or uint8, the weight's shape
  std::vector<float> scales;     // one, or one per channel
  std::vector<int> zero_points;
};

/// `w` quantized to `t` per tensor (axis < 0) or per slice along `axis`.
quantized_weight quantize_weight(const tensor& w, dtype t, int axis, bool symmetric, bool reduce_range) {
  quantized_weight r{tensor::zeros(t, w.shape()), {}, {}};
  const auto& shape = w.shape();
  std::int64_t channels = 1, inner = w.size(), outer = 1;
  if (axis >= 0) {
    channels = shape[axis];
    inner = 1;
    for (std::size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
    outer = channels ? w.size() / (channels * inner) : 0;
  }
  const float* x = w.data<float>();
  const qrange q = range_of(t, reduce_range, symmetric);
  for (std::int64_t c = 0; c < channels; ++c) {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        float v = x[(o * channels + c) * inner + i];
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    if (outer * inner == 0) lo = hi = 0;
    qparams p = compute_qparams(lo, hi, q, symmetric);
    r.scales.push_back(p.scale);
    r.zero_points.push_back(p.zero_point);
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        const std::int64_t k = (o * channels + c) * inner + i;
        int v = quantize_value(x[k], p, t);
        if (t == dtype::int8) r.values.data<std::int8_t>()[k] = static_cast<std::int8_t>(v);
        else r.values.data<std::uint8_t>()[k] = static_cast<std::uint8_t>(v);
      }
  }
  return r;
}

/// The names a quantized value goes by (ORT's QuantizedValue).
struct quantized_names {
  std::string q, scale, zero_point;
};

/// Stores `w` quantized as <name>_quantized, <name>_scale, <name>_zero_point
/// (scalars per tensor, [channels] per channel).
result<quantized_names> store_weight(graph_index& idx, const std::string& name, dtype t, int axis, bool symmetric,
                                     bool reduce_range) {
  TensorProto* p = idx.initializer(name);
  if (!p) return status(errc::internal, "'" + name + "' is not a constant");
  ONYX_ASSIGN(tensor w, read_float(*p));
  if (axis >= static_cast<int>(w.shape().size()))
    return status(errc::invalid_argument, "weight '" + name + "' has no axis " + std::to_string(axis));
  quantized_weight qw = quantize_weight(w, t, axis, symmetric, reduce_range);
  quantized_names n{name + "_quantized", name + "_scale", name + "_zero_point"};
  extents s = axis >= 0 ? extents{w.shape()[axis]} : extents{};
  idx.add(graph::tensor_to_proto(qw.values, n.q));
  idx.add(make_tensor(n.scale, dtype::float32, s, qw.scales));
  idx.add(make_tensor(n.zero_point, t, s, qw.zero_points));
  return n;
}

// ---- dynamic quantization --------------------------------------------------------

/// ORT's ONNXModel.replace_gemm_with_matmul, on the main graph.
status gemm_to_matmul(GraphProto& g, graph_index& idx) {
  GraphProto out;
  for (auto& n : *g.mutable_node()) {
    if (n.op_type() != "Gemm" || !default_domain(n) || float_attr(n, "alpha", 1) != 1.0f ||
        float_attr(n, "beta", 1) != 1.0f || int_attr(n, "transA", 0) != 0 || n.input_size() < 2) {
      *out.add_node() = std::move(n);
      continue;
    }
    std::string b = n.input(1);
    if (int_attr(n, "transB", 0) != 0) {
      if (TensorProto* bp = idx.initializer(b); bp && bp->data_type() == TensorProto::FLOAT && bp->dims_size() == 2) {
        ONYX_ASSIGN(tensor w, read_float(*bp));
        const auto rows = w.shape()[0], cols = w.shape()[1];
        tensor t = tensor::zeros(dtype::float32, {cols, rows});
        for (std::int64_t r = 0; r < rows; ++r)
          for (std::int64_t c = 0; c < cols; ++c) t.data<float>()[c * rows + r] = w.data<float>()[r * cols + c];
        idx.add(graph::tensor_to_proto(t, b));  // in place, as ORT (which assumes B has no other reader)
      } else {
        std::string transposed = b + "_Transposed";
        *out.add_node() = make_node("Transpose", {b}, {transposed}, n.name().empty() ? "" : n.name() + "_Transpose");
        b = transposed;
      }
    }
    const bool bias = n.input_size() > 2 && !n.input(2).empty();
    const std::string y = n.output(0);
    *out.add_node() = make_node("MatMul", {n.input(0), b}, {bias ? y + "_MatMul" : y},
                                n.name().empty() ? "" : n.name() + "_MatMul");
    if (bias) *out.add_node() = make_node("Add", {y + "_MatMul", n.input(2)}, {y}, n.name().empty() ? "" : n.name() + "_Add");
  }
  g.mutable_node()->Swap(out.mutable_node());
  return ok();
}

class dynamic_quantizer {
 public:
  dynamic_quantizer(GraphProto& g, const dynamic_quantize_options& opt) : g_(g), idx_(g), opt_(opt) {}

  result<quantize_summary> run() {
    std::set<std::string> read;
    for (const auto& n : g_.node())
      if (selected(n) || (n.op_type() == "Gemm" && default_domain(n) && opt_.op_types.count("MatMul")))
        read.insert(n.input().begin(), n.input().end());
    idx_.hoist_constants(read);
    ONYX_TRY(gemm_to_matmul(g_, idx_));
    GraphProto old;
    old.mutable_node()->Swap(g_.mutable_node());
    for (auto& n : *old.mutable_node()) {
      ONYX_ASSIGN(bool done, quantize(n));
      if (!done) new_nodes_.push_back(std::move(n));
    }
    for (auto& n : new_nodes_) *g_.add_node() = std::move(n);
    idx_.remove_unused();
    return summary_;
  }

 private:
  bool selected(const NodeProto& n) const {
    return default_domain(n) && opt_.op_types.count(n.op_type()) && !opt_.nodes_to_exclude.count(n.name());
  }

  /// A_quantized, A_scale, A_zero_point from one DynamicQuantizeLinear.
  quantized_names activation(const std::string& a) {
    if (auto it = qmap_.find(a); it != qmap_.end()) return it->second;
    quantized_names n{a + "_quantized", a + "_scale", a + "_zero_point"};
    new_nodes_.push_back(make_node("DynamicQuantizeLinear", {a}, {n.q, n.scale, n.zero_point}, a + "_QuantizeLinear"));
    ++summary_.quantized_activations;
    return qmap_[a] = n;
  }

  result<quantized_names> weight(const std::string& w, int axis, bool reduce_range) {
    if (auto it = qmap_.find(w); it != qmap_.end()) return it->second;
    const bool symmetric = opt_.weight_type == dtype::int8;
    ONYX_ASSIGN(auto n, store_weight(idx_, w, opt_.weight_type, axis, symmetric, opt_.reduce_range && reduce_range));
    ++summary_.quantized_weights;
    return qmap_[w] = n;
  }

  /// The Cast and the two Muls after MatMulInteger/ConvInteger (ORT's names).
  void rescale(const std::string& integer_name, const std::string& integer_out, const quantized_names& a,
               const quantized_names& w, const std::string& y) {
    const std::string cast_out = integer_out + "_cast_output";
    NodeProto cast = make_node("Cast", {integer_out}, {cast_out}, integer_out + "_cast");
    set_int(cast, "to", TensorProto::FLOAT);
    new_nodes_.push_back(std::move(cast));
    const std::string mul = integer_name.empty() ? a.scale + "_" + w.scale + "_mul" : integer_name + "_scales_mul";
    if (!scale_muls_.count(mul)) {
      new_nodes_.push_back(make_node("Mul", {a.scale, w.scale}, {mul + ":0"}, mul));
      scale_muls_.insert(mul);
    }
    new_nodes_.push_back(make_node("Mul", {cast_out, mul + ":0"}, {y},
                                   integer_name.empty() ? "" : integer_name + "_output_scale_mul"));
  }

  /// True when `n` was rewritten (its replacement appended to new_nodes_).
  result<bool> quantize(NodeProto& n) {
    if (!selected(n)) return false;
    const bool matmul = n.op_type() == "MatMul", conv = n.op_type() == "Conv";
    if (!matmul && !conv) return false;
    if (n.input_size() < 2 || n.output_size() < 1) return bad_node(n, "expected two inputs and an output");
    if (!idx_.is_float_initializer(n.input(1))) {
      summary_.notes.push_back(n.name() + " (" + n.op_type() + "): its weight is not a constant float tensor");
      return false;
    }
    const std::string integer_name = n.name().empty() ? "" : n.name() + "_quant";
    const std::string integer_out = n.output(0) + "_output_quantized";
    quantized_names a = activation(n.input(0));
    // MatMul: per column with per_channel (axis -1), reduce_range allowed;
    // Conv: per tensor (ORT's ConvInteger quantizer).
    int axis = -1;
    if (matmul && opt_.per_channel) {
      const TensorProto* b = idx_.initializer(n.input(1));
      if (b->dims_size() == 0) return bad_node(n, "B is a scalar");
      axis = b->dims_size() - 1;
    }
    ONYX_ASSIGN(quantized_names w, weight(n.input(1), axis, matmul));
    NodeProto integer = make_node(matmul ? "MatMulInteger" : "ConvInteger", {a.q, w.q, a.zero_point, w.zero_point},
                                  {integer_out}, integer_name);
    if (conv)
      for (const auto& attr : n.attribute()) *integer.add_attribute() = attr;
    new_nodes_.push_back(std::move(integer));
    const bool bias = conv && n.input_size() > 2 && !n.input(2).empty();
    const std::string y = n.output(0);
    rescale(integer_name, integer_out, a, w, bias ? y + "quant_scaled_output" : y);
    if (bias) {
      const TensorProto* wp = idx_.initializer(n.input(1));
      std::vector<std::int64_t> shape(wp->dims_size(), 1);
      if (shape.size() < 2) return bad_node(n, "the weight has rank below 2");
      shape[1] = -1;
      const std::string shape_name = y + "_bias_reshape_shape", reshaped = y + "_bias_reshape_output";
      idx_.add(make_tensor(shape_name, dtype::int64, {static_cast<std::int64_t>(shape.size())}, shape));
      new_nodes_.push_back(make_node("Reshape", {n.input(2), shape_name}, {reshaped}, ""));
      new_nodes_.push_back(make_node("Add", {y + "quant_scaled_output", reshaped}, {y}, y + "_bias_add"));
    }
    ++summary_.quantized_nodes;
    return true;
  }

  GraphProto& g_;
  graph_index idx_;
  const dynamic_quantize_options& opt_;
  std::vector<NodeProto> new_nodes_;
  std::map<std::string, quantized_names> qmap_;
  std::set<std::string> scale_muls_;
  quantize_summary summary_;
};

/// The ops of `g` (subgraphs included) whose form changed between opsets 9
/// and 11, rewritten in their opset-11 form: Slice's starts/ends/axes and
/// Clip's min/max move from attributes to constant inputs. Any other op that
/// changed its inputs is refused rather than silently mis-read.
status lift_to_opset11(GraphProto& g) {
  for (auto& n : *g.mutable_node()) {
    for (auto& a : *n.mutable_attribute())
      if (a.has_g()) ONYX_TRY(lift_to_opset11(*a.mutable_g()));
    if (!n.domain().empty() && n.domain() != "ai.onnx") continue;
    if (n.op_type() == "Upsample" || n.op_type() == "Scatter" || n.op_type() == "Pad" || n.op_type() == "TopK")
      return status(errc::unsupported, "node '" + n.name() + "' (" + n.op_type() +
                                           ") changed form after opset 9; convert the model to opset 11 first");
    std::map<std::string, const onnx::AttributeProto*> at;
    for (const auto& a : n.attribute()) at[a.name()] = &a;
    auto add_const = [&](const std::string& suffix, tensor t) {
      const std::string name = (n.name().empty() ? n.output(0) : n.name()) + "_" + suffix;
      *g.add_initializer() = graph::tensor_to_proto(t, name);
      return name;
    };
    if (n.op_type() == "Slice" && n.input_size() == 1 && at.count("starts") && at.count("ends")) {
      auto ints = [&](const char* key) {
        std::vector<std::int64_t> v(at[key]->ints().begin(), at[key]->ints().end());
        return tensor::from(v, {static_cast<std::int64_t>(v.size())});
      };
      std::vector<std::string> ins{add_const("starts", ints("starts")), add_const("ends", ints("ends"))};
      if (at.count("axes")) ins.push_back(add_const("axes", ints("axes")));
      for (auto& i : ins) n.add_input(i);
      n.clear_attribute();
    } else if (n.op_type() == "Clip" && (at.count("min") || at.count("max"))) {
      const float lo = at.count("min") ? at["min"]->f() : -std::numeric_limits<float>::infinity();
      const float hi = at.count("max") ? at["max"]->f() : std::numeric_limits<float>::infinity();
      n.add_input(add_const("min", tensor::scalar(lo)));
      n.add_input(add_const("max", tensor::scalar(hi)));
      n.clear_attribute();
    }
  }
  return ok();
}

/// `m` standing alone (external data read in) with each of `values` also a
/// graph output (typed as its value_info declares, where it does), so a
/// session over it reports them: calibration's ranges, the lift's ranks.
result<ModelProto> probe_model(const ModelProto& m, const std::filesystem::path& model_dir,
                               const std::set<std::string>& values) {
  ModelProto probe = m;
  graph::external_data_root root(model_dir);
  ONYX_TRY(internalize(*probe.mutable_graph(), root));
  std::set<std::string> outputs;
  for (const auto& o : probe.graph().output()) outputs.insert(o.name());
  std::map<std::string, const onnx::ValueInfoProto*> infos;
  for (const auto& v : probe.graph().value_info()) infos[v.name()] = &v;
  for (const auto& t : values) {
    if (outputs.count(t)) continue;
    auto* o = probe.mutable_graph()->add_output();
    if (auto it = infos.find(t); it != infos.end()) *o = *it->second;
    o->set_name(t);
  }
  return probe;
}

/// Softmax, LogSoftmax and Hardmax: their `axis` changed meaning at opset 13.
bool softmax_family(const NodeProto& n) {
  return default_domain(n) && (n.op_type() == "Softmax" || n.op_type() == "LogSoftmax" || n.op_type() == "Hardmax");
}

/// The ops whose form changed between opsets 11 and 13, for lift_to_opset13.
bool changed_after_opset11(const NodeProto& n) {
  static const std::set<std::string> ops{"Squeeze", "Unsqueeze", "Split",   "ReduceSum", "Softmax",
                                         "LogSoftmax", "Hardmax", "Dropout", "Upsample", "Scatter"};
  return default_domain(n) && ops.count(n.op_type());
}

/// The rank of each input of `g`'s nodes that lift_to_opset13 needs (the
/// Softmax family's, whose axis means something else from opset 13), from
/// the float model's own inference: a session over it with those values as
/// outputs. A rank inference cannot tell is left out.
result<std::map<std::string, int>> ranks_for_lift(const ModelProto& m, const std::filesystem::path& model_dir) {
  std::set<std::string> wanted;
  for (const auto& n : m.graph().node())
    if (softmax_family(n) && n.input_size() > 0) wanted.insert(n.input(0));
  std::map<std::string, int> ranks;
  // Graph inputs and initializers declare theirs; the rest come from inference.
  for (const auto& i : m.graph().input())
    if (wanted.count(i.name()) && i.type().tensor_type().has_shape())
      ranks[i.name()] = i.type().tensor_type().shape().dim_size(), wanted.erase(i.name());
  for (const auto& i : m.graph().initializer())
    if (wanted.count(i.name())) ranks[i.name()] = i.dims_size(), wanted.erase(i.name());
  if (wanted.empty()) return ranks;
  ONYX_ASSIGN(ModelProto probe, probe_model(m, model_dir, wanted));
  session_options so;
  so.threads = 1;
  so.optimization_level = graph::passes::optimization_level::none;
  ONYX_ASSIGN(auto s, session::open_bytes(probe.SerializeAsString(), so));
  for (const auto& o : s->outputs())
    if (wanted.count(o.name) && o.type.shape.rank_known) ranks[o.name] = static_cast<int>(o.type.shape.rank());
  return ranks;
}

/// `g`'s ops whose form changed between opsets 11 and 13 rewritten in their
/// opset-13 form (what onnx's version converter does for them):
///  - Squeeze / Unsqueeze `axes`, Split `split`, ReduceSum `axes` and
///    Dropout `ratio` (opset 12) move from attributes to constant inputs;
///  - Softmax, LogSoftmax and Hardmax: up to opset 12 the input is coerced
///    to 2-D at `axis` (default 1), from 13 the op runs along that one axis
///    (default -1). An axis that is already the last one keeps its meaning
///    and is written out; any other becomes Flatten(axis) -> op(axis 1) ->
///    Reshape to the input's shape.
/// Upsample and Scatter, deprecated by opset 13, are refused. `ranks` holds
/// the Softmax family's input ranks (ranks_for_lift); subgraphs, which have
/// none there, may hold only Softmax-family nodes whose axis is -1.
status lift_graph_to_opset13(GraphProto& g, const std::map<std::string, int>& ranks) {
  for (auto& n : *g.mutable_node())
    for (auto& a : *n.mutable_attribute())
      if (a.has_g()) ONYX_TRY(lift_graph_to_opset13(*a.mutable_g(), {}));
  // New values get names no value of the graph has yet.
  std::set<std::string> taken;
  for (const auto& i : g.input()) taken.insert(i.name());
  for (const auto& i : g.initializer()) taken.insert(i.name());
  for (const auto& n : g.node())
    for (const auto& o : n.output()) taken.insert(o);
  auto fresh = [&](const std::string& want) {
    std::string name = want;
    for (int i = 1; taken.count(name); ++i) name = want + "_" + std::to_string(i);
    taken.insert(name);
    return name;
  };
  std::vector<NodeProto> nodes;
  nodes.reserve(g.node_size());
  for (auto& n : *g.mutable_node()) {
    if (!changed_after_opset11(n)) {
      nodes.push_back(std::move(n));
      continue;
    }
    const std::string base = n.name().empty() ? n.output(0) : n.name();
    const std::string& op = n.op_type();
    if (op == "Upsample" || op == "Scatter")
      return bad_node(n, "is deprecated in opset 13 (Resize, ScatterElements replace it); convert the model first");
    // Attribute `key` (ints, or a float for Dropout) moved to input `slot`.
    auto move_to_input = [&](const char* key, int slot) -> status {
      auto* attrs = n.mutable_attribute();
      auto it = std::find_if(attrs->begin(), attrs->end(), [&](const auto& a) { return a.name() == key; });
      if (it == attrs->end()) return ok();
      if (n.input_size() > slot) return bad_node(n, std::string("has both a `") + key + "` attribute and input");
      tensor t = it->type() == onnx::AttributeProto::FLOAT
                     ? tensor::scalar(it->f())
                     : tensor::from(std::vector<std::int64_t>(it->ints().begin(), it->ints().end()),
                                    {static_cast<std::int64_t>(it->ints_size())});
      const std::string name = fresh(base + "_" + key);
      *g.add_initializer() = graph::tensor_to_proto(t, name);
      while (n.input_size() < slot) n.add_input("");
      n.add_input(name);
      attrs->erase(it);
      return ok();
    };
    if (op == "Squeeze" || op == "Unsqueeze" || op == "ReduceSum") {
      ONYX_TRY(move_to_input("axes", 1));
    } else if (op == "Split") {
      ONYX_TRY(move_to_input("split", 1));
    } else if (op == "Dropout") {
      ONYX_TRY(move_to_input("ratio", 1));
    } else {  // Softmax, LogSoftmax, Hardmax
      std::int64_t axis = 1;
      onnx::AttributeProto* axis_attr = nullptr;
      for (auto& a : *n.mutable_attribute())
        if (a.name() == "axis") axis_attr = &a, axis = a.i();
      if (!axis_attr) {
        set_int(n, "axis", axis);
        axis_attr = n.mutable_attribute(n.attribute_size() - 1);
      }
      if (axis == -1) {
        axis_attr->set_i(-1);
        nodes.push_back(std::move(n));
        continue;
      }
      auto r = n.input_size() > 0 ? ranks.find(n.input(0)) : ranks.end();
      if (r == ranks.end())
        return bad_node(n, "its input's rank is unknown, and its axis " + std::to_string(axis) +
                               " means something else from opset 13; convert the model to opset 13 first");
      const int rank = r->second;
      const std::int64_t a = axis < 0 ? axis + rank : axis;
      if (a < 0 || a >= std::max(rank, 1)) return bad_node(n, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
      if (a == rank - 1 || rank <= 1) {
        axis_attr->set_i(-1);
        nodes.push_back(std::move(n));
        continue;
      }
      // Flatten at the axis, the op along the flattened rows, back to the input's shape.
      const std::string x = n.input(0), y = n.output(0);
      const std::string shape_out = fresh(base + "_shape_output"), flat_out = fresh(base + "_flatten_output"),
                        rows_out = fresh(base + "_2d_output");
      NodeProto flatten = make_node("Flatten", {x}, {flat_out}, base + "_flatten");
      set_int(flatten, "axis", a);
      n.set_input(0, flat_out);
      n.set_output(0, rows_out);
      axis_attr->set_i(1);
      nodes.push_back(make_node("Shape", {x}, {shape_out}, base + "_shape"));
      nodes.push_back(std::move(flatten));
      nodes.push_back(std::move(n));
      nodes.push_back(make_node("Reshape", {rows_out, shape_out}, {y}, base + "_reshape"));
      continue;
    }
    nodes.push_back(std::move(n));
  }
  g.clear_node();
  for (auto& n : nodes) *g.add_node() = std::move(n);
  return ok();
}

/// ORT's check_opset_version: below 10 becomes 11 (with the ops whose form
/// changed rewritten); 10 is refused here.
status check_opset(ModelProto& m, std::int64_t least, const char* why) {
  ONYX_ASSIGN(auto* opset, default_opset(m));
  if (opset->version() < 10) {
    ONYX_TRY(lift_to_opset11(*m.mutable_graph()));
    opset->set_version(11);
  }
  if (opset->version() < least)
    return status(errc::unsupported, "the model's ai.onnx opset is " + std::to_string(opset->version()) + "; " + why);
  return ok();
}

}  // namespace

status lift_to_opset13(ModelProto& m, const std::filesystem::path& model_dir) {
  ONYX_ASSIGN(auto* opset, default_opset(m));
  if (opset->version() >= 13) return ok();
  if (opset->version() < 11) {
    ONYX_TRY(lift_to_opset11(*m.mutable_graph()));
    opset->set_version(11);
  }
  ONYX_ASSIGN(auto ranks, ranks_for_lift(m, model_dir));
  ONYX_TRY(lift_graph_to_opset13(*m.mutable_graph(), ranks));
  opset->set_version(13);
  if (m.ir_version() < 7) m.set_ir_version(7);  // the IR version that goes with opset 13
  return ok();
}

result<quantize_summary> quantize_dynamic(ModelProto& m, const std::filesystem::path& model_dir,
                                          const dynamic_quantize_options& opt) {
  if (opt.weight_type != dtype::int8 && opt.weight_type != dtype::uint8)
    return status(errc::invalid_argument, "weight_type must be int8 or uint8");
  ONYX_TRY(check_opset(m, 11, "dynamic quantization needs DynamicQuantizeLinear (opset 11)"));
  graph::external_data_root root(model_dir);
  ONYX_TRY(internalize(*m.mutable_graph(), root));
  const int rounding = std::fegetround();
  std::fesetround(FE_TONEAREST);
  auto r = dynamic_quantizer(*m.mutable_graph(), opt).run();
  std::fesetround(rounding);
  return r;
}

// ---- calibration -----------------------------------------------------------------

result<std::vector<std::filesystem::path>> calibration_sets(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return status(errc::invalid_argument, "'" + dir.string() + "' is not a folder");
  if (fs::exists(dir / "input_0.pb")) return std::vector<fs::path>{dir};
  std::vector<fs::path> sets;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_directory() && e.path().filename().string().starts_with("test_data_set_") &&
        fs::exists(e.path() / "input_0.pb"))
      sets.push_back(e.path());
  std::sort(sets.begin(), sets.end());
  if (sets.empty())
    return status(errc::invalid_argument, "'" + dir.string() + "' holds neither input_0.pb nor test_data_set_*/input_0.pb");
  return sets;
}

namespace {

/// Per-tensor statistics over all samples: min/max, then (percentile) a histogram.
struct tensor_stats {
  float min = std::numeric_limits<float>::infinity(), max = -std::numeric_limits<float>::infinity();
  std::vector<double> hist;
};

constexpr int histogram_bins = 2048;

}  // namespace

namespace {

// One set's inputs (a folder of input_<i>.pb, input i being the model's i-th),
// named for `s`.
result<std::vector<named_value>> read_set(const session_core& s, const std::filesystem::path& set) {
  std::vector<named_value> inputs;
  for (std::size_t i = 0; i < s.inputs().size(); ++i) {
    auto file = set / ("input_" + std::to_string(i) + ".pb");
    if (!std::filesystem::exists(file)) break;
    ONYX_ASSIGN(value v, graph::read_value_file(file));
    inputs.emplace_back(s.inputs()[i].name, std::move(v));
  }
  return inputs;
}

/// The float model run over sample sets with some of its values as outputs:
/// calibration's view of the tensors it measures.
class probe_runner {
 public:
  static result<probe_runner> open(const ModelProto& m, const std::filesystem::path& model_dir,
                                   const std::set<std::string>& tensors, const static_quantize_options& opt) {
    std::set<std::string> init_names;
    for (const auto& i : m.graph().initializer()) init_names.insert(i.name());
    probe_runner p;
    for (const auto& t : tensors)
      if (!init_names.count(t)) p.wanted_.push_back(t);
    ONYX_ASSIGN(ModelProto probe, probe_model(m, model_dir, {p.wanted_.begin(), p.wanted_.end()}));
    session_options so;
    so.threads = opt.threads;
    // Fusions would hide the wanted tensors inside fused nodes; constant folding is fine.
    so.optimization_level = graph::passes::optimization_level::basic;
    ONYX_ASSIGN(p.s_, session::open_bytes(probe.SerializeAsString(), so));
    for (std::size_t i = 0; i < p.s_->outputs().size(); ++i) p.out_index_[p.s_->outputs()[i].name] = i;
    return p;
  }

  /// Runs each set (a folder of input_<i>.pb) and hands visit(name, value)
  /// each wanted float32 tensor.
  template <class Visit>
  status each_run(const std::vector<std::filesystem::path>& sets, Visit&& visit) {
    for (const auto& set : sets) {
      ONYX_ASSIGN(auto inputs, read_set(*s_, set));
      std::vector<value> outs;
      ONYX_TRY(std::move(s_->run(inputs, outs)).with_context("calibration on " + set.string()));
      for (const auto& t : wanted_) {
        auto it = out_index_.find(t);
        if (it == out_index_.end() || !outs[it->second].is_tensor()) continue;
        const tensor& x = outs[it->second].as_tensor();
        if (x.type() == dtype::float32) visit(t, x);
      }
    }
    return ok();
  }

 private:
  std::vector<std::string> wanted_;
  std::unique_ptr<session_core> s_;
  std::map<std::string, std::size_t> out_index_;
};

/// The range of each of `tensors` per channel (axis 1; a tensor of rank < 2
/// is one channel) over the sets.
result<std::map<std::string, std::vector<tensor_range>>> channel_ranges(
    const ModelProto& m, const std::filesystem::path& model_dir, const std::set<std::string>& tensors,
    const std::vector<std::filesystem::path>& sets, const static_quantize_options& opt) {
  ONYX_ASSIGN(auto probe, probe_runner::open(m, model_dir, tensors, opt));
  std::map<std::string, std::vector<tensor_range>> ranges;
  ONYX_TRY(probe.each_run(sets, [&](const std::string& t, const tensor& x) {
    const std::int64_t channels = x.rank() >= 2 ? x.dim(1) : 1;
    const std::int64_t batch = x.rank() >= 1 ? std::max<std::int64_t>(1, x.dim(0)) : 1;
    const std::int64_t inner = channels > 0 ? x.size() / batch / channels : 0;
    auto& r = ranges[t];
    if (r.empty()) r.assign(static_cast<std::size_t>(channels), tensor_range{INFINITY, -INFINITY});
    if (static_cast<std::int64_t>(r.size()) != channels) return;
    const float* v = x.data<float>();
    for (std::int64_t i = 0; i < x.size(); ++i) {
      auto& c = r[static_cast<std::size_t>(inner ? (i / inner) % channels : 0)];
      if (std::isfinite(v[i])) c.min = std::min(c.min, v[i]), c.max = std::max(c.max, v[i]);
    }
  }));
  return ranges;
}

}  // namespace

result<std::map<std::string, tensor_range>> calibrate(const ModelProto& m, const std::filesystem::path& model_dir,
                                                      const std::set<std::string>& tensors,
                                                      const std::vector<std::filesystem::path>& sets,
                                                      const static_quantize_options& opt) {
  if (sets.empty()) return status(errc::invalid_argument, "calibration needs at least one set of sample inputs");
  ONYX_ASSIGN(auto probe, probe_runner::open(m, model_dir, tensors, opt));
  std::map<std::string, tensor_stats> stats;
  auto each_run = [&](auto&& visit) {
    return probe.each_run(sets, [&](const std::string& t, const tensor& x) { visit(t, x.values<float>()); });
  };
  ONYX_TRY(each_run([&](const std::string& t, std::span<const float> v) {
    auto& st = stats[t];
    for (float x : v)
      if (std::isfinite(x)) {
        st.min = std::min(st.min, x);
        st.max = std::max(st.max, x);
      }
  }));
  std::map<std::string, tensor_range> ranges;
  if (opt.method == calibration_method::min_max) {
    for (const auto& [t, st] : stats)
      if (st.min <= st.max) ranges[t] = {st.min, st.max};
    return ranges;
  }
  if (!(opt.percentile > 0 && opt.percentile <= 100))
    return status(errc::invalid_argument, "the percentile must be in (0, 100]");
  ONYX_TRY(each_run([&](const std::string& t, std::span<const float> v) {
    auto& st = stats[t];
    if (st.hist.empty()) st.hist.assign(histogram_bins, 0.0);
    const double width = (static_cast<double>(st.max) - st.min) / histogram_bins;
    for (float x : v) {
      if (!std::isfinite(x)) continue;
      int b = width > 0 ? static_cast<int>((x - static_cast<double>(st.min)) / width) : 0;
      st.hist[std::clamp(b, 0, histogram_bins - 1)] += 1;
    }
  }));
  const double cut = (100.0 - opt.percentile) / 200.0;  // fraction cut from each side
  for (const auto& [t, st] : stats) {
    if (!(st.min <= st.max)) continue;
    double total = 0;
    for (double h : st.hist) total += h;
    const double width = (static_cast<double>(st.max) - st.min) / histogram_bins;
    // The lower edge of the bin where the cumulative share first reaches
    // `cut`, and the upper edge of the one where it reaches 1 - cut.
    double acc = 0;
    int lo = 0, hi = histogram_bins - 1;
    for (int b = 0; b < histogram_bins; ++b) {
      acc += st.hist[b];
      if (acc / total >= cut) {
        lo = b;
        break;
      }
    }
    acc = 0;
    for (int b = 0; b < histogram_bins; ++b) {
      acc += st.hist[b];
      if (acc / total >= 1.0 - cut) {
        hi = b;
        break;
      }
    }
    float rmin = static_cast<float>(st.min + lo * width), rmax = static_cast<float>(st.min + (hi + 1) * width);
    ranges[t] = {std::max(rmin, st.min), std::min(rmax, st.max)};
  }
  return ranges;
}

// ---- static quantization (QDQ) ---------------------------------------------------

namespace {

/// For each elementwise node (Add, Mul, Clip, Sigmoid, ...) whose varying
/// inputs all come, through other such nodes, from one value x: its output's
/// name -> x. Constants are initializers and Constant nodes' outputs.
std::map<std::string, std::string> elementwise_sources(const GraphProto& g) {
  // Not Relu: it follows a Conv or MatMul, whose QDQ rewrite takes it in.
  static const std::set<std::string> ops{"Add",  "Sub", "Mul", "Div", "Clip", "LeakyRelu", "Sigmoid", "HardSigmoid",
                                         "HardSwish", "Tanh", "Exp", "Neg", "Abs", "Erf", "Max", "Min", "Pow"};
  std::set<std::string> constants;
  for (const auto& t : g.initializer()) constants.insert(t.name());
  for (const auto& n : g.node())
    if (n.op_type() == "Constant" && default_domain(n) && n.output_size() == 1) constants.insert(n.output(0));
  std::map<std::string, std::string> source;
  for (const auto& n : g.node()) {
    if (!default_domain(n) || !ops.count(n.op_type()) || n.output_size() != 1) continue;
    std::set<std::string> from;
    for (const auto& in : n.input())
      if (!in.empty() && !constants.count(in)) from.insert(source.count(in) ? source.at(in) : in);
    if (from.size() == 1) source[n.output(0)] = *from.begin();
  }
  return source;
}

/// The outputs of the elementwise nodes (elementwise_sources) computed from
/// one value x, two or more of them: a hardswish written out (x * Clip(x + 3,
/// 0, 6) / 6), an affine step by constants. Static quantization leaves such a
/// region in float, quantized only where it starts and ends, by its
/// neighbours' Q/DQ: a runtime makes DQ -> region -> Q one table lookup
/// (onyx's fuse_qdq does), and each rounding inside it would only add error
/// (on PP-OCRv4 det, quantizing these Adds and Muls took the output's cosine
/// to float from 0.987 to 0.964). A lone node (a Sigmoid, an Add of a
/// constant) is quantized as ORT quantizes it: that adds no rounding between
/// quantized neighbours.
std::set<std::string> elementwise_regions(const GraphProto& g) {
  std::map<std::string, std::vector<std::string>> regions;  // x -> the outputs computed from it
  for (const auto& [out, x] : elementwise_sources(g)) regions[x].push_back(out);
  std::set<std::string> in_regions;
  for (const auto& [x, outs] : regions)
    if (outs.size() > 1) in_regions.insert(outs.begin(), outs.end());
  return in_regions;
}

/// Who reads and who writes each value of `g`'s nodes (node indices).
struct node_links {
  std::map<std::string, std::vector<int>> readers;
  std::map<std::string, int> producer;
  explicit node_links(const GraphProto& g) {
    for (int k = 0; k < g.node_size(); ++k) {
      for (const auto& i : g.node(k).input()) readers[i].push_back(k);
      for (const auto& o : g.node(k).output()) producer[o] = k;
    }
  }
};

/// Each BatchNormalization (inference form, constant parameters) that alone
/// reads a Conv's output, with the Conv's weights and bias constant, folded
/// into the Conv: W'[m] = W[m] s[m], B'[m] = (B[m] - mean[m]) s[m] + beta[m],
/// s = scale / sqrt(var + epsilon), in double (ORT's quantization
/// pre-processing does the same through its optimizer): the Conv's output is
/// then quantized once, after the normalization, not before it.
status fold_batch_norms(GraphProto& g) {
  std::set<std::string> names;
  for (const auto& n : g.node())
    if (n.op_type() == "Conv" || n.op_type() == "BatchNormalization") names.insert(n.input().begin(), n.input().end());
  graph_index idx(g);
  idx.hoist_constants(names);
  node_links links(g);
  auto& [readers, producer] = links;
  std::vector<int> folded;
  for (int k = 0; k < g.node_size(); ++k) {
    const NodeProto& bn = g.node(k);
    if (bn.op_type() != "BatchNormalization" || !default_domain(bn) || bn.input_size() != 5 ||
        bn.output_size() != 1 || int_attr(bn, "training_mode", 0) != 0 || int_attr(bn, "spatial", 1) != 1 ||
        !producer.count(bn.input(0)))
      continue;
    NodeProto& conv = *g.mutable_node(producer.at(bn.input(0)));
    if (conv.op_type() != "Conv" || !default_domain(conv) || conv.output_size() != 1 ||
        readers[conv.output(0)].size() != 1 || idx.is_graph_output(conv.output(0)) || conv.input_size() < 2 ||
        !idx.is_float_initializer(conv.input(1)) ||
        (conv.input_size() > 2 && !conv.input(2).empty() && !idx.is_float_initializer(conv.input(2))))
      continue;
    bool constant = true;
    for (int i = 1; i < 5; ++i) constant = constant && idx.is_float_initializer(bn.input(i));
    if (!constant) continue;
    ONYX_ASSIGN(tensor w, read_float(*idx.initializer(conv.input(1))));
    const std::int64_t m = w.rank() >= 1 ? w.dim(0) : 0;
    std::vector<tensor> p;
    for (int i = 1; i < 5; ++i) {
      ONYX_ASSIGN(tensor t, read_float(*idx.initializer(bn.input(i))));
      p.push_back(std::move(t));
    }
    bool fits = m > 0;
    for (const auto& t : p) fits = fits && t.size() == m;
    std::optional<tensor> b;
    if (conv.input_size() > 2 && !conv.input(2).empty()) {
      ONYX_ASSIGN(tensor t, read_float(*idx.initializer(conv.input(2))));
      fits = fits && t.size() == m;
      b = std::move(t);
    }
    if (!fits) continue;
    const double eps = float_attr(bn, "epsilon", 1e-5f);
    const std::int64_t per = w.size() / m;
    std::vector<float> bias(static_cast<std::size_t>(m));
    for (std::int64_t c = 0; c < m; ++c) {
      const double sc = static_cast<double>(p[0].data<float>()[c]) / std::sqrt(static_cast<double>(p[3].data<float>()[c]) + eps);
      for (std::int64_t i = 0; i < per; ++i) w.data<float>()[c * per + i] = static_cast<float>(w.data<float>()[c * per + i] * sc);
      const double b0 = b ? b->data<float>()[c] : 0.0;
      bias[static_cast<std::size_t>(c)] = static_cast<float>((b0 - p[2].data<float>()[c]) * sc + p[1].data<float>()[c]);
    }
    // New names: the originals may be shared with other nodes.
    const std::string wn = conv.output(0) + "_folded_W", bname = conv.output(0) + "_folded_B";
    idx.add(graph::tensor_to_proto(w, wn));
    idx.add(make_tensor(bname, dtype::float32, {m}, bias));
    conv.set_input(1, wn);
    if (conv.input_size() > 2) conv.set_input(2, bname);
    else conv.add_input(bname);
    conv.set_output(0, bn.output(0));
    folded.push_back(k);
  }
  for (auto it = folded.rbegin(); it != folded.rend(); ++it) g.mutable_node()->DeleteSubrange(*it, 1);
  idx.remove_unused();
  return ok();
}

/// Per-channel equalization around depthwise convolutions (one filter per
/// channel, group = channels), whose input and output channels often span
/// very different ranges, so that one scale per tensor leaves the narrow
/// channels a few quantization steps (Nagel et al., "Data-free quantization
/// through weight equalization and bias correction", 2019, for MobileNets).
/// Scaling a channel by a factor and undoing it exactly elsewhere:
///   input x, channel c times a[c], as far as its range (0 included) goes
///     inside the tensor's range, at most 1000x: by the producing Conv's
///     filter c (W, B times a[c]) or by a Mul appended to the elementwise
///     region that writes x; the depthwise filter c divided by a[c];
///   output y, channel c times b[c] likewise: the depthwise filter and bias
///     times b[c], and a Mul by 1 / b[c] put in front of the elementwise
///     region that reads y.
/// Only where x / y is read by this conv / that region alone, so no other
/// reader sees a changed value, and only where the Mul joins a region that
/// stays in float (elementwise_regions): it adds no rounding, and a table
/// lookup takes it in. Ranges come from running `m` over the sets.
status equalize_depthwise(ModelProto& m, const std::filesystem::path& model_dir,
                          const std::vector<std::filesystem::path>& sets, const static_quantize_options& opt) {
  GraphProto& g = *m.mutable_graph();
  std::set<std::string> names;
  for (const auto& n : g.node())
    if (n.op_type() == "Conv") names.insert(n.input().begin(), n.input().end());
  graph_index idx(g);
  idx.hoist_constants(names);
  node_links links(g);
  auto& [readers, producer] = links;
  const auto sources = elementwise_sources(g);
  const auto constant_conv = [&](const NodeProto& n) {
    return n.op_type() == "Conv" && default_domain(n) && n.input_size() >= 2 && n.output_size() == 1 &&
           idx.is_float_initializer(n.input(1)) &&
           (n.input_size() < 3 || n.input(2).empty() || idx.is_float_initializer(n.input(2)));
  };
  struct plan {
    int conv;
    int in_conv = -1;     // the Conv writing x, scaled per output channel; else a Mul goes after x
    bool input = false, output = false;
  };
  std::vector<plan> plans;
  std::set<std::string> measured;
  for (int k = 0; k < g.node_size(); ++k) {
    const NodeProto& d = g.node(k);
    if (!constant_conv(d) || !d.input(0).size() || opt.nodes_to_exclude.count(d.name())) continue;
    const TensorProto* w = idx.initializer(d.input(1));
    if (w->dims_size() < 3 || w->dims(1) != 1 || int_attr(d, "group", 1) != w->dims(0) || w->dims(0) < 2) continue;
    plan p{k};
    const std::string& x = d.input(0);
    if (readers[x].size() == 1 && !idx.is_graph_output(x) && producer.count(x)) {
      const NodeProto& src = g.node(producer.at(x));
      if (constant_conv(src) && !idx.is_graph_output(src.output(0))) p.in_conv = producer.at(x), p.input = true;
      else if (sources.count(x)) p.input = true;
    }
    const std::string& y = d.output(0);
    if (!idx.is_graph_output(y) && !readers[y].empty()) {
      p.output = true;
      for (int r : readers[y]) {
        const NodeProto& n = g.node(r);
        p.output = p.output && n.output_size() == 1 && sources.count(n.output(0)) && sources.at(n.output(0)) == y;
      }
    }
    if (!p.input && !p.output) continue;
    if (p.input) measured.insert(x);
    if (p.output) measured.insert(y);
    plans.push_back(p);
  }
  if (plans.empty()) return ok();
  ONYX_ASSIGN(auto ranges, channel_ranges(m, model_dir, measured, sets, opt));
  // Factors that stretch each channel's range (0 included) as far as it goes
  // inside the tensor's range, which stays as it is: narrow channels gain
  // steps, the widest keep theirs.
  const auto factors = [&](const std::string& t, std::int64_t channels) -> std::vector<double> {
    auto it = ranges.find(t);
    if (it == ranges.end() || static_cast<std::int64_t>(it->second.size()) != channels) return {};
    double lo = 0, hi = 0;
    for (const auto& r : it->second) lo = std::min<double>(lo, r.min), hi = std::max<double>(hi, r.max);
    std::vector<double> f;
    for (const auto& r : it->second) {
      double k = 1000.0;
      if (r.max > 0) k = std::min(k, hi / r.max);
      if (r.min < 0) k = std::min(k, lo / r.min);
      f.push_back(r.max > 0 || r.min < 0 ? std::max(k, 1.0) : 1.0);
    }
    return f;
  };
  // Scales filter (axis 0) c of initializer `name` by f[c] into a new initializer.
  int fresh = 0;
  const auto rescale = [&](NodeProto& n, int input, const std::vector<double>& f, bool divide) -> status {
    ONYX_ASSIGN(tensor t, read_float(*idx.initializer(n.input(input))));
    const std::int64_t per = t.size() / static_cast<std::int64_t>(f.size());
    for (std::int64_t i = 0; i < t.size(); ++i) {
      const double k = f[static_cast<std::size_t>(i / per)];
      t.data<float>()[i] = static_cast<float>(divide ? t.data<float>()[i] / k : t.data<float>()[i] * k);
    }
    const std::string name = n.input(input) + "_equalized_" + std::to_string(fresh++);
    idx.add(graph::tensor_to_proto(t, name));
    n.set_input(input, name);
    return ok();
  };
  const auto per_channel = [](const std::string& name, const std::vector<double>& f, bool invert) {
    std::vector<float> v;
    for (double k : f) v.push_back(static_cast<float>(invert ? 1.0 / k : k));
    return make_tensor(name, dtype::float32, {static_cast<std::int64_t>(f.size()), 1, 1}, v);
  };
  std::vector<std::pair<int, NodeProto>> inserted;  // a Mul to put after node k
  for (const auto& p : plans) {
    NodeProto& d = *g.mutable_node(p.conv);
    const std::int64_t channels = idx.initializer(d.input(1))->dims(0);
    const bool has_bias = d.input_size() > 2 && !d.input(2).empty();
    if (p.input) {
      const std::string x = d.input(0);
      auto a = factors(x, channels);
      if (!a.empty()) {
        ONYX_TRY(rescale(d, 1, a, true));
        if (p.in_conv >= 0) {
          NodeProto& src = *g.mutable_node(p.in_conv);
          ONYX_TRY(rescale(src, 1, a, false));
          if (src.input_size() > 2 && !src.input(2).empty()) ONYX_TRY(rescale(src, 2, a, false));
        } else {
          idx.add(per_channel(x + "_equalize_scale", a, false));
          d.set_input(0, x + "_equalized");
          inserted.emplace_back(producer.at(x), make_node("Mul", {x, x + "_equalize_scale"}, {x + "_equalized"},
                                                          d.name() + "_equalize_input"));
        }
      }
    }
    if (p.output) {
      const std::string y = d.output(0);
      auto b = factors(y, channels);
      if (!b.empty()) {
        ONYX_TRY(rescale(d, 1, b, false));
        if (has_bias) ONYX_TRY(rescale(d, 2, b, false));
        idx.add(per_channel(y + "_equalize_scale", b, true));
        d.set_output(0, y + "_equalized");
        inserted.emplace_back(p.conv, make_node("Mul", {y + "_equalized", y + "_equalize_scale"}, {y},
                                                d.name() + "_equalize_output"));
      }
    }
  }
  // The Muls in place, each right after the node whose output it reads.
  std::sort(inserted.begin(), inserted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  GraphProto nodes;
  std::size_t next = 0;
  for (int k = 0; k < g.node_size(); ++k) {
    *nodes.add_node() = g.node(k);
    for (; next < inserted.size() && inserted[next].first == k; ++next) *nodes.add_node() = inserted[next].second;
  }
  g.mutable_node()->Swap(nodes.mutable_node());
  idx.remove_unused();
  return ok();
}

class qdq_quantizer {
 public:
  qdq_quantizer(GraphProto& g, const static_quantize_options& opt)
      : g_(g), idx_(g), opt_(opt), in_region_(elementwise_regions(g)) {}

  bool selected(const NodeProto& n) const {
    return default_domain(n) && opt_.op_types.count(n.op_type()) && !opt_.nodes_to_exclude.count(n.name()) &&
           !(n.output_size() == 1 && in_region_.count(n.output(0)));
  }

  /// Whether Conv `n`'s output stays in float (float_region_inputs): every
  /// reader is a node of an elementwise region (a hardswish, an affine step),
  /// which is quantized once, where it ends, where the conv's output Q/DQ
  /// would round each such link twice. onyx runs the conv as
  /// onyx.fused.ConvIntegerToFloat.
  bool float_into_region(const NodeProto& n, const node_links& links) const {
    if (!opt_.float_region_inputs || n.op_type() != "Conv" || n.output_size() != 1 || idx_.is_graph_output(n.output(0)))
      return false;
    const auto readers = links.readers.find(n.output(0));
    if (readers == links.readers.end()) return false;
    for (int k : readers->second) {
      const NodeProto& r = g_.node(k);
      if (!(r.output_size() == 1 && in_region_.count(r.output(0)))) return false;
    }
    return true;
  }

  /// The float input slots of `n` that QDQ covers; weights and biases apart.
  struct plan {
    std::vector<int> activations;  // input slots quantized as uint8 activations (or constants)
    int weight = -1, bias = -1, weight_axis = 0;
    bool output = true;
  };

  std::optional<plan> plan_for(const NodeProto& n) {
    const std::string& op = n.op_type();
    plan p;
    auto present = [&](int i) { return i < n.input_size() && !n.input(i).empty(); };
    if (op == "Conv" || op == "Gemm" || op == "MatMul") {
      if (!present(0) || !present(1)) return std::nullopt;
      p.activations.push_back(0);
      if (idx_.is_float_initializer(n.input(1))) {
        p.weight = 1;
        if (op == "Conv") p.weight_axis = 0;
        else if (op == "Gemm") p.weight_axis = int_attr(n, "transB", 0) ? 0 : 1;
        else p.weight_axis = 1;
        const TensorProto* w = idx_.initializer(n.input(1));
        if ((op != "Conv" && w->dims_size() != 2) || (op == "Conv" && w->dims_size() < 3)) return std::nullopt;
      } else {
        if (op == "Conv") return std::nullopt;  // non-constant Conv weights: left in float
        p.activations.push_back(1);
      }
      if (present(2) && op != "MatMul") {
        if (p.weight >= 0 && idx_.is_float_initializer(n.input(2))) p.bias = 2;
        else return std::nullopt;
      }
      if (op == "Gemm" && int_attr(n, "transA", 0)) return std::nullopt;
      return p;
    }
    if (op == "Add" || op == "Mul" || op == "Concat") {
      for (int i = 0; i < n.input_size(); ++i)
        if (present(i)) p.activations.push_back(i);
      return p;
    }
    if (op == "MaxPool" || op == "AveragePool" || op == "GlobalAveragePool" || op == "Sigmoid" ||
        op == "LeakyRelu" || op == "Resize") {
      if (!present(0)) return std::nullopt;
      if (op == "MaxPool" && n.output_size() > 1 && !n.output(1).empty()) return std::nullopt;  // indices
      p.activations.push_back(0);
      return p;
    }
    return std::nullopt;
  }

  /// The tensors calibration must measure for the selected nodes (after
  /// moving the constants they read to initializers).
  std::set<std::string> tensors_to_calibrate() {
    std::set<std::string> read;
    for (const auto& n : g_.node())
      if (selected(n)) read.insert(n.input().begin(), n.input().end());
    idx_.hoist_constants(read);
    std::set<std::string> t;
    for (const auto& n : g_.node()) {
      if (!selected(n)) continue;
      auto p = plan_for(n);
      if (!p) continue;
      for (int i : p->activations)
        if (!idx_.has_initializer(n.input(i))) t.insert(n.input(i));
      t.insert(n.output(0));
    }
    // Relu/Clip outputs, for the range adjustment (ORT's adjust_tensor_ranges).
    for (const auto& n : g_.node())
      if ((n.op_type() == "Relu" || n.op_type() == "Clip") && default_domain(n) && t.count(n.input(0)))
        t.insert(n.output(0));
    return t;
  }

  result<quantize_summary> run(std::map<std::string, tensor_range> ranges) {
    // ORT's adjust_tensor_ranges: a Relu/Clip input read by that node alone takes its output's range.
    std::map<std::string, int> readers;
    for (const auto& n : g_.node())
      for (const auto& i : n.input()) ++readers[i];
    for (const auto& n : g_.node())
      if ((n.op_type() == "Relu" || n.op_type() == "Clip") && default_domain(n) && readers[n.input(0)] == 1 &&
          ranges.count(n.input(0)) && ranges.count(n.output(0)) && !idx_.is_graph_output(n.input(0)))
        ranges[n.input(0)] = ranges[n.output(0)];

    // What to quantize.
    const node_links links(g_);  // who reads each value (float_into_region)
    std::set<std::string> activations;  // value names given a Q/DQ pair
    std::vector<std::pair<int, plan>> nodes;
    for (int k = 0; k < g_.node_size(); ++k) {
      const auto& n = g_.node(k);
      if (!selected(n)) continue;
      auto p = plan_for(n);
      if (!p) {
        summary_.notes.push_back(n.name() + " (" + n.op_type() + "): not a pattern QDQ covers; left in float");
        continue;
      }
      bool have = true;
      for (int i : p->activations)
        if (!idx_.has_initializer(n.input(i)) && !ranges.count(n.input(i))) have = false;
      if (!ranges.count(n.output(0))) have = false;
      if (!have) {
        summary_.notes.push_back(n.name() + " (" + n.op_type() + "): a tensor was not measured (not float32?); left in float");
        continue;
      }
      for (int i : p->activations)
        if (!idx_.has_initializer(n.input(i))) activations.insert(n.input(i));
      if (!float_into_region(n, links)) activations.insert(n.output(0));
      nodes.emplace_back(k, *p);
    }

    // Quantization parameters of the activations.
    const qrange u8 = range_of(dtype::uint8, false, false);
    std::vector<NodeProto> head;  // Q/DQ of graph inputs and DQ of weights, before the graph's nodes
    std::map<std::string, std::vector<NodeProto>> after;  // Q/DQ after each tensor's producer
    std::map<std::string, std::string> renamed;           // activation -> its DQ output
    std::map<std::string, std::string> output_renamed;    // graph output -> its producer's new output name
    for (const auto& t : activations) {
      const auto& r = ranges.at(t);
      qparams qp = compute_qparams(r.min, r.max, u8, false);
      quant_[t] = qp;
      const std::string scale = t + "_scale", zp = t + "_zero_point";
      idx_.add(make_tensor(scale, dtype::float32, {}, std::vector<float>{qp.scale}));
      idx_.add(make_tensor(zp, dtype::uint8, {}, std::vector<int>{qp.zero_point}));
      std::string q_in = t, dq_out = t + "_DequantizeLinear_Output";
      if (idx_.is_graph_output(t)) {
        q_in = t + "_QuantizeLinear_Input";
        dq_out = t;
        output_renamed[t] = q_in;
        summary_.output_steps[t] = qp.scale;
      } else {
        renamed[t] = dq_out;
      }
      std::vector<NodeProto> pair;
      pair.push_back(make_node("QuantizeLinear", {q_in, scale, zp}, {t + "_QuantizeLinear_Output"}, t + "_QuantizeLinear"));
      pair.push_back(make_node("DequantizeLinear", {t + "_QuantizeLinear_Output", scale, zp}, {dq_out},
                               t + "_DequantizeLinear"));
      if (idx_.is_graph_input(t)) head.insert(head.end(), pair.begin(), pair.end());
      else after[t] = std::move(pair);
      ++summary_.quantized_activations;
    }

    // Weights, biases and constant inputs, and the rewired inputs.
    std::map<int, std::map<int, std::string>> new_inputs;  // node -> slot -> value
    for (auto& [k, p] : nodes) {
      NodeProto& n = *g_.mutable_node(k);
      if (p.weight >= 0) {
        ONYX_ASSIGN(std::string dq, weight(n.input(p.weight), p.weight_axis, head));
        new_inputs[k][p.weight] = dq;
      }
      if (p.bias >= 0) {
        const quantized_names& w = weights_.at(n.input(p.weight));
        const float beta = n.op_type() == "Gemm" ? float_attr(n, "beta", 1) : 1.0f;
        ONYX_ASSIGN(std::string dq, bias(n.input(p.bias), quant_.at(n.input(0)).scale, w, beta, head));
        new_inputs[k][p.bias] = dq;
        if (n.op_type() == "Gemm")
          for (auto& a : *n.mutable_attribute())
            if (a.name() == "beta") a.set_f(1.0f);
      }
      for (int i : p.activations)
        if (idx_.has_initializer(n.input(i))) {
          ONYX_ASSIGN(std::string dq, constant(n.input(i), head));
          new_inputs[k][i] = dq;
        }
      ++summary_.quantized_nodes;
    }

    // The new node list: head, then each node (inputs rewired) and the Q/DQ of its outputs.
    GraphProto out;
    for (auto& n : head) *out.add_node() = std::move(n);
    for (int k = 0; k < g_.node_size(); ++k) {
      NodeProto n = g_.node(k);
      for (int i = 0; i < n.input_size(); ++i) {
        if (auto it = new_inputs.find(k); it != new_inputs.end() && it->second.count(i)) n.set_input(i, it->second.at(i));
        else if (auto r = renamed.find(n.input(i)); r != renamed.end()) n.set_input(i, r->second);
      }
      std::vector<std::string> produced(n.output().begin(), n.output().end());
      for (int i = 0; i < n.output_size(); ++i)
        if (auto o = output_renamed.find(n.output(i)); o != output_renamed.end()) n.set_output(i, o->second);
      *out.add_node() = std::move(n);
      for (const auto& t : produced)
        if (auto it = after.find(t); it != after.end())
          for (auto& q : it->second) *out.add_node() = std::move(q);
    }
    // Readers of a graph output read its DequantizeLinear, which keeps the
    // name; nested graphs that capture another quantized value read its
    // DequantizeLinear output like every other reader.
    rename_captures(out, renamed);
    g_.mutable_node()->Swap(out.mutable_node());
    idx_.remove_unused();
    return summary_;
  }

 private:
  static void rename_captures(GraphProto& g, const std::map<std::string, std::string>& renamed) {
    for (auto& n : *g.mutable_node())
      for (auto& a : *n.mutable_attribute()) {
        if (a.has_g()) rename_in(*a.mutable_g(), renamed);
        for (auto& sg : *a.mutable_graphs()) rename_in(sg, renamed);
      }
  }
  static void rename_in(GraphProto& g, const std::map<std::string, std::string>& renamed) {
    std::set<std::string> local;
    for (const auto& i : g.input()) local.insert(i.name());
    for (const auto& i : g.initializer()) local.insert(i.name());
    for (const auto& n : g.node())
      for (const auto& o : n.output()) local.insert(o);
    for (auto& n : *g.mutable_node())
      for (int i = 0; i < n.input_size(); ++i)
        if (!local.count(n.input(i)))
          if (auto r = renamed.find(n.input(i)); r != renamed.end()) n.set_input(i, r->second);
    rename_captures(g, renamed);
  }

  /// W -> W_quantized (int8 symmetric, per channel or per tensor) and its DequantizeLinear.
  result<std::string> weight(const std::string& w, int axis, std::vector<NodeProto>& head) {
    const std::string dq = w + "_DequantizeLinear_Output";
    if (weights_.count(w)) return dq;
    ONYX_ASSIGN(auto n, store_weight(idx_, w, dtype::int8, opt_.per_channel ? axis : -1, true, false));
    NodeProto node = make_node("DequantizeLinear", {n.q, n.scale, n.zero_point}, {dq}, w + "_DequantizeLinear");
    if (opt_.per_channel) set_int(node, "axis", axis);
    head.push_back(std::move(node));
    weights_[w] = n;
    ++summary_.quantized_weights;
    return dq;
  }

  /// B -> B_quantized (int32, scale input_scale * weight_scale * beta, zero
  /// point 0); its DequantizeLinear writes B itself, as in ORT.
  result<std::string> bias(const std::string& b, float input_scale, const quantized_names& w, float beta,
                           std::vector<NodeProto>& head) {
    if (biases_.count(b)) return b;
    ONYX_ASSIGN(tensor bt, read_float(*idx_.initializer(b)));
    ONYX_ASSIGN(tensor ws, read_float(*idx_.initializer(w.scale)));
    const auto nb = bt.size(), nw = ws.size();
    if (nw != 1 && nw != nb)
      return status(errc::invalid_argument, "bias '" + b + "' has " + std::to_string(nb) + " values for " +
                                                std::to_string(nw) + " weight scales");
    std::vector<float> scales(nw);
    std::vector<std::int32_t> q(nb);
    for (std::int64_t c = 0; c < nw; ++c) {
      scales[c] = input_scale * ws.data<float>()[c] * beta;
      if (scales[c] == 0) scales[c] = 1;
    }
    for (std::int64_t i = 0; i < nb; ++i) {
      const float s = scales[nw == 1 ? 0 : i];
      double v = std::nearbyint(bt.data<float>()[i] / s);
      v = std::clamp(v, -2147483648.0, 2147483647.0);
      q[i] = static_cast<std::int32_t>(v);
    }
    const std::string qn = b + "_quantized", sn = b + "_quantized_scale", zn = b + "_quantized_zero_point";
    idx_.add(make_tensor(qn, dtype::int32, bt.shape(), q));
    const extents s = nw == 1 ? extents{} : extents{nw};
    idx_.add(make_tensor(sn, dtype::float32, s, scales));
    idx_.add(make_tensor(zn, dtype::int32, s, std::vector<int>(nw, 0)));
    NodeProto node = make_node("DequantizeLinear", {qn, sn, zn}, {b}, b + "_DequantizeLinear");
    if (nw != 1) set_int(node, "axis", 0);
    head.push_back(std::move(node));
    idx_.remove(b);
    biases_.insert(b);
    ++summary_.quantized_weights;
    return b;
  }

  /// A constant input of Add, Mul, Concat...: uint8 over its own range.
  result<std::string> constant(const std::string& c, std::vector<NodeProto>& head) {
    const std::string dq = c + "_DequantizeLinear_Output";
    if (weights_.count(c)) return dq;
    TensorProto* p = idx_.initializer(c);
    if (p->data_type() != TensorProto::FLOAT) return c;  // not float: read as it is
    ONYX_ASSIGN(auto n, store_weight(idx_, c, dtype::uint8, -1, false, false));
    head.push_back(make_node("DequantizeLinear", {n.q, n.scale, n.zero_point}, {dq}, c + "_DequantizeLinear"));
    weights_[c] = n;
    ++summary_.quantized_weights;
    return dq;
  }

  GraphProto& g_;
  graph_index idx_;
  const static_quantize_options& opt_;
  std::set<std::string> in_region_;  // elementwise_regions (outputs), left in float
  std::map<std::string, qparams> quant_;
  std::map<std::string, quantized_names> weights_;
  std::set<std::string> biases_;
  quantize_summary summary_;
};

}  // namespace

namespace {

// The float32 outputs of model `m` on each set (a folder of input_<i>.pb).
using set_outputs = std::vector<std::vector<std::vector<float>>>;
result<set_outputs> run_float_outputs(const ModelProto& m, const std::vector<std::filesystem::path>& sets,
                                      int threads) {
  session_options so;
  so.threads = threads;
  ONYX_ASSIGN(auto s, session::open_bytes(m.SerializeAsString(), so));
  set_outputs all;
  for (const auto& set : sets) {
    ONYX_ASSIGN(auto inputs, read_set(*s, set));
    std::vector<value> outs;
    ONYX_TRY(std::move(s->run(inputs, outs)).with_context("the accuracy check on " + set.string()));
    auto& per_set = all.emplace_back();
    for (const auto& o : outs) {
      if (!o.is_tensor() || o.as_tensor().type() != dtype::float32) {
        per_set.emplace_back();
        continue;
      }
      const auto v = o.as_tensor().values<float>();
      per_set.emplace_back(v.begin(), v.end());
    }
  }
  return all;
}

// The cosine similarity of b to a, averaged over the sets' float outputs.
// (The lowest over the sets made a poor target: on PP-OCRv4 det, leaving one
// conv in float raised five of the seven sample pages from 0.982-0.995 to
// 0.993-0.997 and lowered two by 0.002 and 0.008.)
double mean_cosine(const set_outputs& a, const set_outputs& b) {
  double sum = 0;
  int count = 0;
  for (std::size_t s = 0; s < a.size() && s < b.size(); ++s)
    for (std::size_t o = 0; o < a[s].size() && o < b[s].size(); ++o) {
      if (a[s][o].empty() || a[s][o].size() != b[s][o].size()) continue;
      double ab = 0, aa = 0, bb = 0;
      for (std::size_t i = 0; i < a[s][o].size(); ++i) {
        ab += static_cast<double>(a[s][o][i]) * b[s][o][i];
        aa += static_cast<double>(a[s][o][i]) * a[s][o][i];
        bb += static_cast<double>(b[s][o][i]) * b[s][o][i];
      }
      sum += aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : (aa == bb ? 1.0 : 0.0);
      ++count;
    }
  return count ? sum / count : 1.0;
}

// static_quantize_options::target_cosine: `m` (float, after equalization and
// with its constants hoisted by `all`, the quantizer of every selected node)
// is quantized with more and more of the Conv / MatMul / Gemm nodes `all`
// selects left in float, the most sensitive first, until its outputs reach
// the target; `m` ends as the last model tried.
result<quantize_summary> quantize_to_target(ModelProto& m, const std::vector<std::filesystem::path>& sets,
                                            const static_quantize_options& opt,
                                            const std::map<std::string, tensor_range>& ranges,
                                            const qdq_quantizer& all) {
  const ModelProto base = m;
  ONYX_ASSIGN(const set_outputs reference, run_float_outputs(base, sets, opt.threads));
  struct trial {
    ModelProto model;
    quantize_summary summary;
    double cosine = 0;
  };
  const auto quantize_without = [&](const std::set<std::string>& kept) -> result<trial> {
    trial t{base, {}, 0};
    static_quantize_options o = opt;
    o.nodes_to_exclude.insert(kept.begin(), kept.end());
    qdq_quantizer q(*t.model.mutable_graph(), o);
    ONYX_ASSIGN(t.summary, q.run(ranges));
    ONYX_ASSIGN(const set_outputs out, run_float_outputs(t.model, sets, opt.threads));
    t.cosine = mean_cosine(reference, out);
    return t;
  };
  std::set<std::string> kept;
  ONYX_ASSIGN(trial best, quantize_without(kept));
  const double start = best.cosine;
  std::vector<std::pair<double, std::string>> gains;  // cosine with the node alone in float
  std::optional<trial> top;  // the best of those trials, the search's first step
  std::string top_name;
  if (best.cosine < opt.target_cosine && opt.max_float_nodes > 0) {
    for (const auto& n : base.graph().node()) {
      if (n.name().empty() || !all.selected(n) || !(n.op_type() == "Conv" || n.op_type() == "MatMul" || n.op_type() == "Gemm"))
        continue;
      ONYX_ASSIGN(trial t, quantize_without({n.name()}));
      if (t.cosine <= best.cosine) continue;
      gains.emplace_back(t.cosine, n.name());
      if (!top || t.cosine > top->cosine) top = std::move(t), top_name = n.name();
    }
    std::sort(gains.begin(), gains.end(), std::greater<>());
  }
  for (const auto& [alone, name] : gains) {
    if (best.cosine >= opt.target_cosine || static_cast<int>(kept.size()) >= opt.max_float_nodes) break;
    kept.insert(name);
    trial t;
    if (top && kept == std::set<std::string>{top_name}) {
      t = std::move(*top);
      top.reset();
    } else {
      ONYX_ASSIGN(t, quantize_without(kept));
    }
    if (t.cosine <= best.cosine) {  // no help together with the others
      kept.erase(name);
      continue;
    }
    best = std::move(t);
  }
  m = std::move(best.model);
  quantize_summary r = std::move(best.summary);
  r.cosine_all_quantized = start;
  r.cosine = best.cosine;
  for (const auto& [alone, name] : gains)
    if (kept.count(name)) {
      char line[96];
      std::snprintf(line, sizeof line, " (for accuracy: alone in float, cosine %.4f -> %.4f)", start, alone);
      r.notes.push_back("node '" + name + "'" + line);
    }
  return r;
}

}  // namespace

result<quantize_summary> quantize_static(ModelProto& m, const std::filesystem::path& model_dir,
                                         const std::vector<std::filesystem::path>& sets,
                                         const static_quantize_options& opt) {
  ONYX_TRY(check_opset(m, 10, "QuantizeLinear needs opset 10"));
  if (opt.per_channel)  // DequantizeLinear's axis needs opset 13
    ONYX_TRY(lift_to_opset13(m, model_dir)
                 .with_context("moving the model to opset 13 for per-channel weights (or quantize per tensor)"));
  graph::external_data_root root(model_dir);
  ONYX_TRY(internalize(*m.mutable_graph(), root));
  const int rounding = std::fegetround();
  std::fesetround(FE_TONEAREST);
  if (opt.equalize) {
    status pre = fold_batch_norms(*m.mutable_graph());
    if (pre.ok()) pre = equalize_depthwise(m, model_dir, sets, opt);
    if (!pre.ok()) {
      std::fesetround(rounding);
      return pre;
    }
  }
  qdq_quantizer q(*m.mutable_graph(), opt);
  auto tensors = q.tensors_to_calibrate();  // also moves Constant-node weights to initializers
  auto ranges = calibrate(m, model_dir, tensors, sets, opt);
  if (!ranges.ok()) {
    std::fesetround(rounding);
    return ranges.error();
  }
  if (opt.target_cosine > 0) {
    auto r = quantize_to_target(m, sets, opt, ranges.value(), q);
    std::fesetround(rounding);
    return r;
  }
  auto r = q.run(std::move(ranges).value());
  std::fesetround(rounding);
  return r;
}

}  // namespace onyx::tools
