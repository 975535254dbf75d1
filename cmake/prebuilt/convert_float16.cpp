// cmake/prebuilt/convert_float16.cpp: float32 models rewritten to float16 or
// bfloat16 (include/onyx/tools/float16.hpp), compiled once into onyx_runtime.
#include "onyx/tools/float16.hpp"

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "onyx/core/float_convert.hpp"

namespace onyx::tools {

namespace {

using onyx::dtype;

struct converter {
  dtype to;                   // float16 or bfloat16
  bool keep_float32 = false;  // round tensors to `to` but store them as float32
  onyx::graph::external_data_root* root;
  int converted = 0;

  /// The type tensors and values are stored in.
  int onnx_to() const { return keep_float32 ? onnx::TensorProto::FLOAT : static_cast<int>(to); }

  /// `p` in the narrow type when it is float32; clamps finite values.
  onyx::status tensor(onnx::TensorProto& p) {
    if (p.data_type() != onnx::TensorProto::FLOAT) return onyx::ok();
    std::string name = p.name();
    ONYX_ASSIGN(onyx::tensor t, onyx::graph::tensor_from_proto(p, root));
    const float limit = to == dtype::float16 ? 65504.0f : 3.3895314e38f;
    std::vector<float> v(t.values<float>().begin(), t.values<float>().end());
    for (auto& x : v)
      if (std::isfinite(x)) x = std::fmax(-limit, std::fmin(limit, x));
    onyx::tensor n = onyx::tensor::zeros(to, t.shape());
    onyx::narrow(std::span<const float>(v), n);
    if (keep_float32) {
      onyx::widen(n, t.values<float>());
      n = std::move(t);
    }
    p = onyx::graph::tensor_to_proto(n, name);
    ++converted;
    return onyx::ok();
  }

  void type(onnx::TypeProto& t) {
    if (t.has_tensor_type() && t.tensor_type().elem_type() == onnx::TensorProto::FLOAT)
      t.mutable_tensor_type()->set_elem_type(onnx_to());
    else if (t.has_sequence_type())
      type(*t.mutable_sequence_type()->mutable_elem_type());
    else if (t.has_optional_type())
      type(*t.mutable_optional_type()->mutable_elem_type());
  }

  /// Names of values that must stay float32: scales inputs, and backwards
  /// through the nodes that compute them.
  static std::set<std::string> kept_float32(const onnx::GraphProto& g) {
    std::set<std::string> kept;
    for (const auto& n : g.node()) {
      if (n.domain().empty() || n.domain() == "ai.onnx") {
        if (n.op_type() == "Resize" && n.input_size() > 2) kept.insert(n.input(2));
        if (n.op_type() == "Upsample" && n.input_size() > 1) kept.insert(n.input(1));
      }
    }
    for (int k = g.node_size(); k-- > 0;) {
      const auto& n = g.node(k);
      bool any = false;
      for (const auto& o : n.output()) any = any || kept.count(o);
      if (any)
        for (const auto& i : n.input()) kept.insert(i);
    }
    kept.erase("");
    return kept;
  }

  onyx::status graph(onnx::GraphProto& g) {
    const auto kept = kept_float32(g);
    auto keeps = [&](const std::string& name) { return kept.count(name) > 0; };
    for (auto& init : *g.mutable_initializer())
      if (!keeps(init.name())) ONYX_TRY(tensor(init));
    for (auto& n : *g.mutable_node()) {
      const bool default_domain = n.domain().empty() || n.domain() == "ai.onnx";
      const bool keep = n.output_size() > 0 && keeps(n.output(0));
      for (auto& a : *n.mutable_attribute()) {
        if (a.has_g()) ONYX_TRY(graph(*a.mutable_g()));
        for (auto& sg : *a.mutable_graphs()) ONYX_TRY(graph(sg));
        if (!default_domain || keep) continue;
        if ((n.op_type() == "Constant" || n.op_type() == "ConstantOfShape") && a.name() == "value")
          ONYX_TRY(tensor(*a.mutable_t()));
        if (n.op_type() == "Cast" && a.name() == "to" && a.i() == onnx::TensorProto::FLOAT) a.set_i(onnx_to());
      }
      if (default_domain && !keep && n.op_type() == "Constant")
        for (auto& a : *n.mutable_attribute())
          if (a.name() == "value_float" || a.name() == "value_floats") {
            onnx::TensorProto p;
            p.set_data_type(onnx::TensorProto::FLOAT);
            if (a.name() == "value_float") {
              p.add_float_data(a.f());
            } else {
              p.add_dims(a.floats_size());
              for (float f : a.floats()) p.add_float_data(f);
            }
            ONYX_TRY(tensor(p));
            a.Clear();
            a.set_name("value");
            a.set_type(onnx::AttributeProto::TENSOR);
            *a.mutable_t() = std::move(p);
          }
    }
    for (auto* list : {g.mutable_input(), g.mutable_output(), g.mutable_value_info()})
      for (auto& v : *list)
        if (!keeps(v.name())) type(*v.mutable_type());
    return onyx::ok();
  }
};

/// keep_io_types: Cast at the main graph's float32 inputs and outputs, which
/// keep float32 (onnxconverter-common's names).
void keep_io_types(onnx::GraphProto& g, const std::set<std::string>& float_inputs,
                   const std::set<std::string>& float_outputs, int to) {
  auto set_float = [](onnx::ValueInfoProto& v) {
    v.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  };
  auto rename_reads = [](onnx::GraphProto& graph, const std::string& from, const std::string& to_name, auto& self) -> void {
    for (auto& n : *graph.mutable_node()) {
      for (auto& i : *n.mutable_input())
        if (i == from) i = to_name;
      for (auto& a : *n.mutable_attribute()) {
        if (a.has_g()) self(*a.mutable_g(), from, to_name, self);
        for (auto& sg : *a.mutable_graphs()) self(sg, from, to_name, self);
      }
    }
  };
  std::vector<onnx::NodeProto> head, tail;
  for (int i = 0; i < g.input_size(); ++i) {
    auto& in = *g.mutable_input(i);
    if (!float_inputs.count(in.name())) continue;
    const std::string cast = "graph_input_cast_" + std::to_string(i);
    rename_reads(g, in.name(), cast, rename_reads);
    onnx::NodeProto n;
    n.set_op_type("Cast");
    n.set_name("graph_input_cast" + std::to_string(i));
    n.add_input(in.name());
    n.add_output(cast);
    auto* a = n.add_attribute();
    a->set_name("to");
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(to);
    head.push_back(std::move(n));
    set_float(in);
  }
  for (int i = 0; i < g.output_size(); ++i) {
    auto& out = *g.mutable_output(i);
    if (!float_outputs.count(out.name())) continue;
    const std::string cast = "graph_output_cast_" + std::to_string(i);
    bool produced = false;
    for (auto& n : *g.mutable_node())
      for (auto& o : *n.mutable_output())
        if (o == out.name()) {
          o = cast;
          produced = true;
        }
    if (!produced) {
      bool initializer = false;
      for (auto& init : *g.mutable_initializer())
        if (init.name() == out.name()) {
          init.set_name(cast);
          initializer = true;
        }
      if (!initializer) continue;  // a graph input passed through: already float32
    }
    rename_reads(g, out.name(), cast, rename_reads);
    onnx::NodeProto n;
    n.set_op_type("Cast");
    n.set_name("graph_output_cast" + std::to_string(i));
    n.add_input(cast);
    n.add_output(out.name());
    auto* a = n.add_attribute();
    a->set_name("to");
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(onnx::TensorProto::FLOAT);
    tail.push_back(std::move(n));
    set_float(out);
  }
  if (head.empty() && tail.empty()) return;
  onnx::GraphProto nodes;
  for (auto& n : head) *nodes.add_node() = std::move(n);
  for (auto& n : *g.mutable_node()) *nodes.add_node() = std::move(n);
  for (auto& n : tail) *nodes.add_node() = std::move(n);
  g.mutable_node()->Swap(nodes.mutable_node());
}

}  // namespace

result<int> convert_float16(onnx::ModelProto& m, const std::filesystem::path& model_dir, const float16_options& opt) {
  if (opt.to != dtype::float16 && opt.to != dtype::bfloat16)
    return status(errc::invalid_argument, "float16 conversion goes to float16 or bfloat16");
  auto& g = *m.mutable_graph();
  std::set<std::string> float_inputs, float_outputs;
  if (opt.keep_io_types && !opt.rounded_float32) {
    const auto kept = converter::kept_float32(g);
    auto is_float = [&](const onnx::ValueInfoProto& v) {
      return v.type().has_tensor_type() && v.type().tensor_type().elem_type() == onnx::TensorProto::FLOAT &&
             !kept.count(v.name());
    };
    std::set<std::string> inits;
    for (const auto& i : g.initializer()) inits.insert(i.name());
    for (const auto& v : g.input())
      if (is_float(v) && !inits.count(v.name())) float_inputs.insert(v.name());
    for (const auto& v : g.output())
      if (is_float(v)) float_outputs.insert(v.name());
  }
  graph::external_data_root root(model_dir);
  converter c{opt.to, opt.rounded_float32, &root};
  ONYX_TRY(c.graph(g));
  keep_io_types(g, float_inputs, float_outputs, static_cast<int>(opt.to));
  return c.converted;
}

status convert_float16(onnx::TensorProto& p, const float16_options& opt) {
  if (opt.to != dtype::float16 && opt.to != dtype::bfloat16)
    return status(errc::invalid_argument, "float16 conversion goes to float16 or bfloat16");
  converter c{opt.to, opt.rounded_float32, nullptr};
  return c.tensor(p);
}

}  // namespace onyx::tools
