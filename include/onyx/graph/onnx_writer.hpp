// onyx/graph/onnx_writer.hpp: graph IR -> .onnx file (the optimized model).
//
// Writes a model as the pipeline left it (session_options::
// optimized_model_filepath): every node under its op's own domain and name
// (onyx's fused ops keep theirs, `onyx.fused`), its attributes as loaded or
// as the pass that made it set them, constants as initializers, declared
// types and shapes of the inputs and outputs (symbolic dims by name). Each
// domain gets one opset: the model's where every op of that domain holds
// it, else the highest first version among its ops; a graph whose ops share
// no opset is an error. The file loads again with onyx's .onnx loader (its
// fused ops only in onyx). Tested in test/unit/onnx_writer_test.cpp.
#pragma once

#include <filesystem>
#include <map>
#include <set>

#include "onyx/graph/ir.hpp"
#include "onyx/graph/tensor_proto.hpp"

namespace onyx::graph {

namespace writer_detail {

inline void set_type(onnx::TypeProto& p, const value_type& t) {
  if (t.optional) {
    value_type inner = t;
    inner.optional = false;
    set_type(*p.mutable_optional_type()->mutable_elem_type(), inner);
    return;
  }
  if (t.kind == value_kind::sequence) {
    value_type elem{value_kind::tensor, t.type, sym_shape::unknown_rank(), false};
    set_type(*p.mutable_sequence_type()->mutable_elem_type(), elem);
    return;
  }
  if (t.kind == value_kind::map) {
    p.mutable_map_type();
    return;
  }
  auto& tt = *p.mutable_tensor_type();
  tt.set_elem_type(static_cast<std::int32_t>(t.type));
  if (!t.shape.rank_known) return;
  auto& shape = *tt.mutable_shape();
  for (const auto& d : t.shape.dims) {
    auto& out = *shape.add_dim();
    if (d.known()) out.set_dim_value(d.value());
    else if (!d.is_unknown() && d.str().find('(') == std::string::npos) out.set_dim_param(d.str());
    // An expression of symbols (a derived dim) is left unnamed: inference derives it again.
  }
}

class writer {
 public:
  explicit writer(const model& m) : m_(m) {}

  status graph_(const graph& g, onnx::GraphProto& out) {
    out.set_name(g.name);
    auto name_of = [&](int id) { return id >= 0 ? g.values[id].name : std::string(); };
    // Constants a node, an output or a nested body reads become initializers.
    std::set<std::string> read;
    collect_reads(g, read);
    std::set<int> is_input(g.inputs.begin(), g.inputs.end());
    for (std::size_t id = 0; id < g.values.size(); ++id) {
      const auto& v = g.values[id];
      if (!v.constant || is_input.count(static_cast<int>(id)) || !read.count(v.name)) continue;
      if (!v.constant->raw() && v.constant->size() > 0)
        return status(errc::internal, "constant '" + v.name + "' was released before writing");
      if (v.constant->where().kind != device_kind::cpu)
        return status(errc::unsupported, "constant '" + v.name + "' is not in host memory");
      *out.add_initializer() = tensor_to_proto(*v.constant, v.name);
    }
    for (int id : g.inputs) value_info(g, id, *out.add_input());
    for (int id : g.outputs) value_info(g, id, *out.add_output());
    for (const auto& n : g.nodes) {
      if (!n.op) return status(errc::internal, n.label() + ": not bound to an op; resolve the model first");
      auto& np = *out.add_node();
      np.set_name(n.name);
      np.set_op_type(std::string(n.op->name));
      np.set_domain(std::string(n.op->domain));
      for (int id : n.inputs) np.add_input(name_of(id));
      for (int id : n.outputs) np.add_output(name_of(id));
      for (const auto& a : n.raw_attrs) {
        auto& ap = *np.add_attribute();
        ap.set_name(a.name);
        status st = std::visit([&](const auto& v) { return attr(v, ap); }, a.data);
        if (!st.ok()) return std::move(st).with_context(n.label() + ", attribute '" + a.name + "'");
      }
      ONYX_TRY(use_op(*n.op).with_context(n.label()));
    }
    return ok();
  }

  /// The opset per domain, checked against every op used.
  result<std::map<std::string, int>> opsets() const {
    std::map<std::string, int> out;
    for (const auto& [domain, ops] : used_) {
      int version = 0;
      if (auto it = m_.opsets.find(domain); it != m_.opsets.end()) version = it->second;
      bool holds = version > 0;
      for (const op_info* op : ops) holds = holds && op->since <= version && version <= op->until;
      if (!holds) {
        version = 1;
        for (const op_info* op : ops) version = std::max(version, op->since);
      }
      for (const op_info* op : ops)
        if (version < op->since || version > op->until)
          return status(errc::unsupported, "cannot write the model as .onnx: " + op->qualified_name() +
                                               " (opsets " + std::to_string(op->since) + "-" +
                                               std::to_string(op->until) + ") and another op of domain '" + domain +
                                               "' share no opset");
      out[domain] = version;
    }
    return out;
  }

 private:
  static void collect_reads(const graph& g, std::set<std::string>& read) {
    for (const auto& n : g.nodes) {
      for (int id : n.inputs)
        if (id >= 0) read.insert(g.values[id].name);
      for (const auto& sg : n.subgraphs) {
        for (int id : sg->captures) read.insert(sg->values[id].name);
      }
    }
    for (int id : g.outputs) read.insert(g.values[id].name);
  }

  static void value_info(const graph& g, int id, onnx::ValueInfoProto& out) {
    out.set_name(g.values[id].name);
    set_type(*out.mutable_type(), g.values[id].type);
  }

  status use_op(const op_info& op) {
    used_[std::string(op.domain)].insert(&op);
    return ok();
  }

  using AP = onnx::AttributeProto;
  status attr(std::int64_t v, AP& a) { return a.set_type(AP::INT), a.set_i(v), ok(); }
  status attr(float v, AP& a) { return a.set_type(AP::FLOAT), a.set_f(v), ok(); }
  status attr(const std::string& v, AP& a) { return a.set_type(AP::STRING), a.set_s(v), ok(); }
  status attr(const tensor& v, AP& a) {
    if (!v.raw() && v.size() > 0) return status(errc::internal, "the tensor was released");
    a.set_type(AP::TENSOR);
    *a.mutable_t() = tensor_to_proto(v, "");
    return ok();
  }
  status attr(const std::shared_ptr<const graph>& v, AP& a) {
    a.set_type(AP::GRAPH);
    return graph_(*v, *a.mutable_g());
  }
  status attr(const std::vector<std::int64_t>& v, AP& a) {
    a.set_type(AP::INTS);
    for (auto x : v) a.add_ints(x);
    return ok();
  }
  status attr(const std::vector<float>& v, AP& a) {
    a.set_type(AP::FLOATS);
    for (auto x : v) a.add_floats(x);
    return ok();
  }
  status attr(const std::vector<std::string>& v, AP& a) {
    a.set_type(AP::STRINGS);
    for (const auto& x : v) a.add_strings(x);
    return ok();
  }
  status attr(const std::vector<tensor>& v, AP& a) {
    a.set_type(AP::TENSORS);
    for (const auto& x : v) {
      if (!x.raw() && x.size() > 0) return status(errc::internal, "a tensor was released");
      *a.add_tensors() = tensor_to_proto(x, "");
    }
    return ok();
  }
  status attr(const std::vector<std::shared_ptr<const graph>>& v, AP& a) {
    a.set_type(AP::GRAPHS);
    for (const auto& x : v) ONYX_TRY(graph_(*x, *a.add_graphs()));
    return ok();
  }
  status attr(const value_type& v, AP& a) {
    a.set_type(AP::TYPE_PROTO);
    set_type(*a.mutable_tp(), v);
    return ok();
  }

  const model& m_;
  std::map<std::string, std::set<const op_info*>> used_;
};

}  // namespace writer_detail

/// `m` (its nodes bound to ops) as a ModelProto.
inline result<onnx::ModelProto> to_model_proto(const model& m) {
  if (!m.main) return status(errc::invalid_model, "the model has no graph");
  onnx::ModelProto mp;
  writer_detail::writer w(m);
  ONYX_TRY(w.graph_(*m.main, *mp.mutable_graph()));
  ONYX_ASSIGN(auto opsets, w.opsets());
  if (!opsets.count("")) opsets[""] = m.opsets.count("") ? m.opsets.at("") : 1;
  for (const auto& [domain, version] : opsets) {
    auto& o = *mp.add_opset_import();
    o.set_domain(domain);
    o.set_version(version);
  }
  mp.set_ir_version(std::max<std::int64_t>(m.ir_version, 8));
  mp.set_producer_name("onyx");
  mp.set_producer_version(m.producer.empty() ? std::string("optimized") : "optimized from " + m.producer);
  mp.set_domain(m.domain);
  mp.set_model_version(m.model_version);
  mp.set_doc_string(m.doc_string);
  mp.mutable_graph()->set_doc_string(m.graph_doc_string);
  for (const auto& [k, v] : m.metadata_props) {
    auto& p = *mp.add_metadata_props();
    p.set_key(k);
    p.set_value(v);
  }
  return mp;
}

/// Writes `m` to `path` as an .onnx file; fails naming the file or the node
/// that cannot be written.
inline status write_onnx_model(const model& m, const std::filesystem::path& path) {
  ONYX_ASSIGN(auto mp, to_model_proto(m));
  return write_proto_file(path, mp);
}

}  // namespace onyx::graph
