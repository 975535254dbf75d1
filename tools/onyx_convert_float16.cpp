// onyx-convert-float16: a float32 ONNX model rewritten to compute in float16
// (or bfloat16), for benchmarks and tests of the narrow-float paths.
//
//   onyx-convert-float16 IN.onnx OUT.onnx [--bfloat16] [--rounded-float32]
//   onyx-convert-float16 --tensor IN.pb OUT.pb [--bfloat16] [--rounded-float32]
//
// The second form converts one TensorProto file (a test input or output).
// --rounded-float32 rounds the same tensors to float16 (bfloat16) but keeps
// them, and every type, float32: the model a float16 one computes when it
// rounds only its weights and inputs, the reference for its accuracy.
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
// not handled: the tool is meant for float CNNs and transformers.
// External data is read (from the model's folder) and written inline.
// Model-local functions are left as they are.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "onyx/core/float_convert.hpp"
#include "onyx/graph/tensor_proto.hpp"

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

int fail(const std::string& msg) {
  std::fprintf(stderr, "onyx-convert-float16: %s\n", msg.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  dtype to = dtype::float16;
  std::vector<std::string> paths;
  const char* usage =
      "usage: onyx-convert-float16 IN.onnx OUT.onnx [--bfloat16] [--rounded-float32]\n"
      "       onyx-convert-float16 --tensor IN.pb OUT.pb [--bfloat16] [--rounded-float32]\n";
  bool tensor_file = false, rounded = false;
  for (const auto& a : args) {
    if (a == "--bfloat16") {
      to = dtype::bfloat16;
    } else if (a == "--rounded-float32") {
      rounded = true;
    } else if (a == "--tensor") {
      tensor_file = true;
    } else if (a == "-h" || a == "--help") {
      std::fputs(usage, stdout);
      return 0;
    } else if (a.starts_with("-")) {
      return fail("unknown option " + a + "\n" + usage);
    } else {
      paths.push_back(a);
    }
  }
  if (paths.size() != 2) return fail(std::string("expected two paths\n") + usage);
  if (tensor_file) {
    onnx::TensorProto p;
    std::ifstream in(paths[0], std::ios::binary);
    if (!in || !p.ParseFromIstream(&in)) return fail("cannot read a TensorProto from " + paths[0]);
    converter c{to, rounded, nullptr};
    if (auto s = c.tensor(p); !s.ok()) return fail(s.message());
    std::ofstream out(paths[1], std::ios::binary);
    if (!out || !p.SerializeToOstream(&out)) return fail("cannot write " + paths[1]);
    return 0;
  }
  onnx::ModelProto m;
  {
    std::ifstream in(paths[0], std::ios::binary);
    if (!in) return fail("cannot open " + paths[0]);
    if (!m.ParseFromIstream(&in)) return fail(paths[0] + " is not an ONNX model");
  }
  onyx::graph::external_data_root root(std::filesystem::path(paths[0]).parent_path());
  converter c{to, rounded, &root};
  if (auto s = c.graph(*m.mutable_graph()); !s.ok()) return fail(s.message());
  std::ofstream out(paths[1], std::ios::binary);
  if (!out || !m.SerializeToOstream(&out)) return fail("cannot write " + paths[1]);
  std::printf("%s: %d float32 tensors converted to %s\n", paths[1].c_str(), c.converted,
              std::string(onyx::name(to)).c_str());
  return 0;
}
