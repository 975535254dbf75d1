// onyx/graph/model_builder.hpp: build ONNX models in C++, for tests, benches
// and examples.
//
//   onyx::graph::model_builder b{21};                        // opset of the default domain
//   auto x = b.input("x", dtype::float32, {"N", 3, 8, 8});   // dims: sizes or symbols
//   auto w = b.initializer("w", weights);
//   auto y = b.node("Conv", {x, w}, {{"kernel_shape", std::vector<std::int64_t>{3, 3}}});
//   auto halves = b.node("Split", {y}, {{"axis", 1}}, 2);     // several outputs
//   b.output(halves[0]);
//   status st = b.save("m.onnx");
//
// Node outputs get unique names ("n0_out0", ...), unique across subgraphs too.
// The builder writes what it is told and checks nothing, so tests can build
// invalid models on purpose. Tested in test/unit/model_builder_test.cpp.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "onyx/core/status.hpp"
#include "onyx/core/tensor.hpp"
#include "onyx/graph/tensor_proto.hpp"

namespace onyx::graph {

namespace detail {
/// Names taken in a model (all its graphs), so generated ones never collide.
struct builder_names {
  std::unordered_set<std::string> used;
  int nodes = 0;

  /// "n<k>", the k-th node's name and its outputs' prefix. (Appended, not
  /// `"n" + std::to_string(k)`, which trips GCC 12's -Wrestrict at -O3.)
  static std::string node_name(int k) {
    std::string s = "n";
    s += std::to_string(k);
    return s;
  }

  /// `base` if free, else `base_1`, `base_2`, ...; marks the result used.
  std::string fresh(const std::string& base) {
    std::string name = base;
    for (int i = 1; used.count(name); ++i) name = base + "_" + std::to_string(i);
    used.insert(name);
    return name;
  }
};
}  // namespace detail

/// Builds one GraphProto: the main graph (through model_builder) or a
/// subgraph body for If, Loop or Scan (from subgraph()).
class graph_builder {
 public:
  /// One dim of a declared shape: a size, a symbol ("N"), or "" for an
  /// unnamed unknown dim.
  struct dim_spec {
    template <std::integral I> dim_spec(I n) : size(static_cast<std::int64_t>(n)) {}
    dim_spec(const char* name) : symbol(name) {}
    dim_spec(std::string name) : symbol(std::move(name)) {}
    std::optional<std::int64_t> size;
    std::string symbol;
  };
  /// A declared shape of known rank: `{"N", 3}`, `{}` (a scalar), or extents.
  struct shape_spec {
    shape_spec() = default;
    shape_spec(std::initializer_list<dim_spec> list) : dims(list) {}
    shape_spec(const extents& e) : dims(e.begin(), e.end()) {}
    std::vector<dim_spec> dims;
  };
  /// An op: "Relu" (default domain) or {"com.microsoft", "FusedMatMul"}.
  struct op {
    op(const char* name) : type(name) {}
    op(std::string name) : type(std::move(name)) {}
    op(std::string in_domain, std::string name) : domain(std::move(in_domain)), type(std::move(name)) {}
    std::string domain, type;
  };
  /// An attribute's value: an integer (or a dtype, for Cast's `to`), a float,
  /// a string, a vector of int64, float or string, a tensor, or a subgraph.
  class attribute_value {
   public:
    template <std::integral I> attribute_value(I v) { set(onnx::AttributeProto::INT)->set_i(v); }
    attribute_value(dtype t) { set(onnx::AttributeProto::INT)->set_i(static_cast<std::int64_t>(t)); }
    template <std::floating_point F> attribute_value(F v) {
      set(onnx::AttributeProto::FLOAT)->set_f(static_cast<float>(v));
    }
    attribute_value(const char* s) { set(onnx::AttributeProto::STRING)->set_s(s); }
    attribute_value(std::string s) { set(onnx::AttributeProto::STRING)->set_s(std::move(s)); }
    attribute_value(const std::vector<std::int64_t>& v) {
      set(onnx::AttributeProto::INTS)->mutable_ints()->Add(v.begin(), v.end());
    }
    attribute_value(const std::vector<float>& v) {
      set(onnx::AttributeProto::FLOATS)->mutable_floats()->Add(v.begin(), v.end());
    }
    attribute_value(const std::vector<std::string>& v) {
      auto* a = set(onnx::AttributeProto::STRINGS);
      for (const auto& s : v) a->add_strings(s);
    }
    attribute_value(const tensor& t) { *set(onnx::AttributeProto::TENSOR)->mutable_t() = tensor_to_proto(t, ""); }
    attribute_value(const graph_builder& body);  // a copy of the body's graph

    /// The attribute, without its name.
    const onnx::AttributeProto& proto() const { return proto_; }

   private:
    onnx::AttributeProto* set(onnx::AttributeProto::AttributeType t) {
      proto_.set_type(t);
      return &proto_;
    }
    onnx::AttributeProto proto_;
  };
  using attributes = std::vector<std::pair<std::string, attribute_value>>;

  /// A standalone graph named `name`. Prefer subgraph(), which shares the
  /// enclosing model's names.
  explicit graph_builder(std::string name = "graph")
      : graph_builder(std::make_unique<onnx::GraphProto>(), std::make_shared<detail::builder_names>()) {
    graph_->set_name(std::move(name));
  }

  // -- types, for inputs and outputs that are not plain tensors --------------
  /// A tensor type of unknown rank.
  static onnx::TypeProto tensor_type(dtype t) {
    onnx::TypeProto type;
    type.mutable_tensor_type()->set_elem_type(static_cast<std::int32_t>(t));
    return type;
  }
  /// A tensor type of known rank.
  static onnx::TypeProto tensor_type(dtype t, const shape_spec& shape) {
    onnx::TypeProto type = tensor_type(t);
    auto* s = type.mutable_tensor_type()->mutable_shape();  // present even when empty: rank 0
    for (const auto& d : shape.dims) {
      auto* dim = s->add_dim();
      if (d.size)
        dim->set_dim_value(*d.size);
      else if (!d.symbol.empty())
        dim->set_dim_param(d.symbol);
    }
    return type;
  }
  static onnx::TypeProto sequence_type(onnx::TypeProto elem) {
    onnx::TypeProto type;
    *type.mutable_sequence_type()->mutable_elem_type() = std::move(elem);
    return type;
  }
  static onnx::TypeProto optional_type(onnx::TypeProto elem) {
    onnx::TypeProto type;
    *type.mutable_optional_type()->mutable_elem_type() = std::move(elem);
    return type;
  }

  // -- building --------------------------------------------------------------
  /// Declares a graph input; returns its name.
  std::string input(std::string name, dtype t, const shape_spec& shape) { return input(name, tensor_type(t, shape)); }
  /// A tensor input of unknown rank.
  std::string input(std::string name, dtype t) { return input(name, tensor_type(t)); }
  std::string input(std::string name, onnx::TypeProto type) {
    auto* v = graph_->add_input();
    v->set_name(name);
    *v->mutable_type() = std::move(type);
    names_->used.insert(name);
    return name;
  }

  /// Adds an initializer holding a copy of `t`; returns its name.
  std::string initializer(std::string name, const tensor& t) {
    *graph_->add_initializer() = tensor_to_proto(t, name);
    names_->used.insert(name);
    return name;
  }
  /// Adds a Constant node whose `value` is a copy of `t`; returns its output.
  std::string constant(const tensor& t) { return node("Constant", {}, {{"value", t}}); }

  /// Adds a node with one output; returns the output's generated name.
  /// An input "" stands for an omitted optional input.
  std::string node(op o, std::vector<std::string> inputs, const attributes& attrs = {}) {
    return node(std::move(o), std::move(inputs), attrs, 1)[0];
  }
  /// Adds a node with `outputs` outputs; returns their generated names.
  std::vector<std::string> node(op o, std::vector<std::string> inputs, const attributes& attrs, int outputs) {
    int k = names_->nodes;  // the node's number, as node() below takes it
    std::vector<std::string> names;
    for (int i = 0; i < outputs; ++i)
      names.push_back(names_->fresh(detail::builder_names::node_name(k).append("_out").append(std::to_string(i))));
    return node(std::move(o), std::move(inputs), attrs, std::move(names));
  }
  /// Adds a node whose outputs are named `outputs` ("" for an omitted one).
  std::vector<std::string> node(op o, std::vector<std::string> inputs, const attributes& attrs,
                                std::vector<std::string> outputs) {
    auto* n = graph_->add_node();
    n->set_name(names_->fresh(detail::builder_names::node_name(names_->nodes++)));
    n->set_op_type(std::move(o.type));
    if (!o.domain.empty()) n->set_domain(std::move(o.domain));
    for (auto& in : inputs) n->add_input(std::move(in));
    for (const auto& out : outputs) {
      n->add_output(out);
      if (!out.empty()) names_->used.insert(out);
    }
    for (const auto& [name, v] : attrs) {
      auto* a = n->add_attribute();
      *a = v.proto();
      a->set_name(name);
    }
    return outputs;
  }

  /// Declares `name` a graph output, with no type, or with a tensor type
  /// (unknown rank without a shape), or with any type. (ONNX's checker wants
  /// a shape on the main graph's inputs and outputs; onyx does not.)
  void output(const std::string& name) { graph_->add_output()->set_name(name); }
  void output(const std::string& name, dtype t) { output(name, tensor_type(t)); }
  void output(const std::string& name, dtype t, const shape_spec& shape) { output(name, tensor_type(t, shape)); }
  void output(const std::string& name, onnx::TypeProto type) {
    auto* v = graph_->add_output();
    v->set_name(name);
    *v->mutable_type() = std::move(type);
  }

  /// Records a type for an intermediate value (GraphProto.value_info).
  void value_info(const std::string& name, onnx::TypeProto type) {
    auto* v = graph_->add_value_info();
    v->set_name(name);
    *v->mutable_type() = std::move(type);
  }

  /// An empty graph named `name` for an If/Loop/Scan body. It shares this
  /// model's names; pass it as an attribute value when it is complete.
  graph_builder subgraph(std::string name) {
    graph_builder g(std::make_unique<onnx::GraphProto>(), names_);
    g.graph_->set_name(std::move(name));
    return g;
  }

  onnx::GraphProto& graph() { return *graph_; }
  const onnx::GraphProto& graph() const { return *graph_; }

 protected:
  /// A builder over a graph that lives elsewhere (inside a ModelProto).
  graph_builder(onnx::GraphProto* graph, std::shared_ptr<detail::builder_names> names)
      : graph_(graph), names_(std::move(names)) {}

 private:
  graph_builder(std::unique_ptr<onnx::GraphProto> owned, std::shared_ptr<detail::builder_names> names)
      : owned_(std::move(owned)), graph_(owned_.get()), names_(std::move(names)) {}

  std::unique_ptr<onnx::GraphProto> owned_;  // null when the graph is a model's
  onnx::GraphProto* graph_;
  std::shared_ptr<detail::builder_names> names_;
};

inline graph_builder::attribute_value::attribute_value(const graph_builder& body) {
  *set(onnx::AttributeProto::GRAPH)->mutable_g() = body.graph();
}

namespace detail {
/// Holds a model_builder's ModelProto; a base so that it exists before the graph_builder base.
struct model_storage {
  std::unique_ptr<onnx::ModelProto> model_ = std::make_unique<onnx::ModelProto>();
};
}  // namespace detail

/// Builds a ModelProto: the main graph (this is its graph_builder), the
/// opset imports and the IR version.
class model_builder : private detail::model_storage, public graph_builder {
 public:
  /// A model importing the default ONNX domain at `opset`, with the lowest IR
  /// version that opset needs (ONNX's release table), and a graph named "main".
  explicit model_builder(std::int64_t opset = 21) : graph_builder(model_->mutable_graph(), std::make_shared<detail::builder_names>()) {
    model_->set_producer_name("onyx");
    model_->mutable_graph()->set_name("main");
    import("", opset);
  }

  /// Imports `domain` ("" is ONNX's default, "ai.onnx.ml", "com.microsoft")
  /// at `version`, replacing an earlier import of the same domain. A newer
  /// default-domain opset raises the IR version to the one it needs.
  model_builder& import(const std::string& domain, std::int64_t version) {
    if (domain.empty()) model_->set_ir_version(std::max(model_->ir_version(), ir_version_for(version)));
    for (auto& o : *model_->mutable_opset_import())
      if (o.domain() == domain) return o.set_version(version), *this;
    auto* o = model_->add_opset_import();
    o->set_domain(domain);
    o->set_version(version);
    return *this;
  }
  model_builder& ir_version(std::int64_t v) {
    model_->set_ir_version(v);
    return *this;
  }

  onnx::ModelProto& proto() { return *model_; }
  const onnx::ModelProto& proto() const { return *model_; }
  /// The serialized model (empty if it is over protobuf's 2 GiB limit).
  std::string serialize() const { return model_->SerializeAsString(); }
  /// Writes the model to `path`; errc::io on failure.
  status save(const std::filesystem::path& path) const { return write_proto_file(path, *model_); }

  /// The IR version that ONNX releases paired with `opset`.
  static constexpr std::int64_t ir_version_for(std::int64_t opset) {
    return opset >= 23 ? 11 : opset >= 21 ? 10 : opset >= 19 ? 9 : opset >= 15 ? 8 : opset >= 12 ? 7
         : opset == 11 ? 6 : opset == 10 ? 5 : opset == 9 ? 4 : 3;
  }
};

}  // namespace onyx::graph
