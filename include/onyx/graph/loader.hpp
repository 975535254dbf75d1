// onyx/graph/loader.hpp: .onnx file -> graph IR.
//
// Parses the ModelProto from a file stream, moves initializer bytes out of the
// message (a model costs its weights once in memory), memory-maps external
// data confined to the model's folder, inlines model-local functions, turns
// Constant nodes into constant values, resolves every node to a registered op
// at the model's opset (graph/resolve.hpp), and checks the graph: dangling names, cycles,
// duplicate definitions. All unsupported ops are reported at once.
//
// Uses libonnx-dev's generated classes (schema IR 8). Fields newer models add
// (IR 9-11) arrive as unknown fields; none of them is needed to run the graph,
// so onyx does not compile a schema of its own.
#pragma once

#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include "onyx/graph/ir.hpp"
#include "onyx/graph/onnx_writer.hpp"
#include "onyx/graph/resolve.hpp"
#include "onyx/graph/tensor_proto.hpp"

namespace onyx::graph {

namespace loader_detail {

inline std::string domain_of(const std::string& d) { return d == "ai.onnx" ? std::string() : d; }

inline value_type convert_type(const onnx::TypeProto& t) {
  value_type v;
  if (t.has_tensor_type() || t.has_sparse_tensor_type()) {
    const auto& tt = t.tensor_type();
    v.kind = value_kind::tensor;
    v.type = is_valid(tt.elem_type()) ? static_cast<dtype>(tt.elem_type()) : dtype::undefined;
    if (tt.has_shape()) {
      sym_shape s;
      for (const auto& d : tt.shape().dim()) {
        if (d.has_dim_value() && d.dim_value() >= 0) s.dims.emplace_back(d.dim_value());
        else if (d.has_dim_param() && !d.dim_param().empty()) s.dims.push_back(dim::symbol(d.dim_param()));
        else s.dims.push_back(dim::unknown());
      }
      v.shape = std::move(s);
    }
  } else if (t.has_sequence_type()) {
    v = convert_type(t.sequence_type().elem_type());
    v.kind = value_kind::sequence;
    v.shape = sym_shape::unknown_rank();
  } else if (t.has_map_type()) {
    v.kind = value_kind::map;
    v.type = convert_type(t.map_type().value_type()).type;  // the values' element type
  } else if (t.has_optional_type()) {
    v = convert_type(t.optional_type().elem_type());
    v.optional = true;
  }
  return v;
}

/// Lexical scopes of value names while converting nested graphs.
struct scope {
  graph* g;
  scope* outer;
  std::map<std::string, int, std::less<>> names;
};

class converter {
 public:
  explicit converter(external_data_root& root) : root_(root) {}

  result<std::shared_ptr<graph>> convert(onnx::GraphProto& gp, scope* outer) {
    auto g = std::make_shared<graph>();
    g->name = gp.name();
    scope sc{g.get(), outer, {}};

    for (auto& init : *gp.mutable_initializer()) {
      auto t = tensor_from_proto(init, &root_);
      if (!t.ok()) return std::move(t).error().with_context("initializer '" + init.name() + "'");
      int id = g->add_value(init.name(), {value_kind::tensor, t->type(), sym_shape(t->shape())});
      g->values[id].constant = std::move(t).value();
      g->values[id].declared_shape = true;
      sc.names[init.name()] = id;
    }
    for (const auto& in : gp.input()) {
      if (sc.names.count(in.name())) continue;  // IR < 4 lists initializers as inputs too
      if (in.name().empty()) return status(errc::invalid_model, "graph '" + gp.name() + "' has an input without a name");
      int id = g->add_value(in.name(), convert_type(in.type()));
      g->values[id].declared_shape = in.type().tensor_type().has_shape();
      sc.names[in.name()] = id;
      g->inputs.push_back(id);
    }
    std::map<std::string, const onnx::ValueInfoProto*> declared;
    for (const auto& vi : gp.value_info()) declared[vi.name()] = &vi;
    for (const auto& vi : gp.output()) declared[vi.name()] = &vi;

    // Every name a node defines, first: nodes may be listed out of order.
    std::map<std::string, int> producer;
    for (int n = 0; n < gp.node_size(); ++n)
      for (const auto& o : gp.node(n).output())
        if (!o.empty()) {
          if (producer.count(o) || sc.names.count(o))
            return status(errc::invalid_model, "value '" + o + "' is defined more than once");
          producer[o] = n;
        }

    // Topological order (Kahn), with the model's order as tie-break.
    std::vector<int> order;
    ONYX_TRY(sort_nodes(gp, producer, order));

    for (int n : order) ONYX_TRY(convert_node(*gp.mutable_node(n), n, sc, declared));

    for (const auto& out : gp.output()) {
      int id = lookup(sc, out.name());
      if (id < 0) return status(errc::invalid_model, "graph output '" + out.name() + "' is not produced by any node");
      auto t = convert_type(out.type());
      auto& v = g->values[id];
      if (v.type.type == dtype::undefined) v.type = t;
      g->outputs.push_back(id);
    }
    return g;
  }

 private:
  status sort_nodes(const onnx::GraphProto& gp, const std::map<std::string, int>& producer, std::vector<int>& order) {
    int n = gp.node_size();
    std::vector<int> pending(n, 0);
    std::vector<std::vector<int>> users(n);
    for (int i = 0; i < n; ++i) {
      std::set<int> deps;
      auto add_deps = [&](const onnx::NodeProto& node, auto& self) -> void {
        for (const auto& in : node.input())
          if (auto it = producer.find(in); it != producer.end()) deps.insert(it->second);
        for (const auto& a : node.attribute()) {  // subgraphs read outer values too
          auto visit = [&](const onnx::GraphProto& sg) {
            for (const auto& sn : sg.node()) self(sn, self);
          };
          if (a.has_g()) visit(a.g());
          for (const auto& sg : a.graphs()) visit(sg);
        }
      };
      add_deps(gp.node(i), add_deps);
      deps.erase(i);
      pending[i] = static_cast<int>(deps.size());
      for (int d : deps) users[d].push_back(i);
    }
    std::set<int> ready;
    for (int i = 0; i < n; ++i)
      if (!pending[i]) ready.insert(i);
    while (!ready.empty()) {
      int i = *ready.begin();
      ready.erase(ready.begin());
      order.push_back(i);
      for (int u : users[i])
        if (--pending[u] == 0) ready.insert(u);
    }
    if (static_cast<int>(order.size()) != n) {
      for (int i = 0; i < n; ++i)
        if (pending[i])
          return status(errc::invalid_model, "the graph has a cycle through node '" + gp.node(i).name() + "' (" +
                                                 gp.node(i).op_type() + ")");
    }
    return ok();
  }

  static int lookup(scope& sc, const std::string& name) {
    if (auto it = sc.names.find(name); it != sc.names.end()) return it->second;
    if (!sc.outer) return -1;
    if (lookup(*sc.outer, name) < 0) return -1;
    // A capture: a value of an enclosing scope, read by this subgraph.
    auto& outer_type = find_type(*sc.outer, name);
    int id = sc.g->add_value(name, outer_type);
    sc.g->captures.push_back(id);
    sc.names[name] = id;
    return id;
  }
  static const value_type& find_type(scope& sc, const std::string& name) {
    if (auto it = sc.names.find(name); it != sc.names.end()) return sc.g->values[it->second].type;
    return find_type(*sc.outer, name);
  }

  status convert_node(onnx::NodeProto& np, int index, scope& sc,
                      const std::map<std::string, const onnx::ValueInfoProto*>& declared) {
    graph& g = *sc.g;
    node nd;
    nd.name = np.name().empty() ? np.op_type() + "_" + std::to_string(index) : np.name();
    nd.op_type = np.op_type();
    nd.domain = domain_of(np.domain());
    auto where = [&] { return nd.label(); };
    // Before the attributes are converted: that moves their tensors' data.
    if (nd.op_type == "Constant" && nd.domain.empty()) return convert_constant(nd, np, g, sc);

    for (auto& a : *np.mutable_attribute()) {
      auto attr = convert_attribute(a, sc);
      if (!attr.ok()) return std::move(attr).error().with_context(where());
      if (auto* sg = std::get_if<std::shared_ptr<const graph>>(&attr->data)) nd.subgraphs.push_back(*sg);
      if (auto* v = std::get_if<std::vector<std::shared_ptr<const graph>>>(&attr->data))
        nd.subgraphs.insert(nd.subgraphs.end(), v->begin(), v->end());
      nd.raw_attrs.push_back(std::move(attr).value());
    }

    for (const auto& in : np.input()) {
      if (in.empty()) {
        nd.inputs.push_back(-1);
        continue;
      }
      int id = lookup(sc, in);
      if (id < 0)
        return status(errc::invalid_model, where() + ": input '" + in +
                                               "' is not produced by any node, initializer or graph input");
      nd.inputs.push_back(id);
    }

    for (const auto& o : np.output()) {
      if (o.empty()) {
        nd.outputs.push_back(-1);
        continue;
      }
      value_type t;
      bool has_shape = false;
      if (auto it = declared.find(o); it != declared.end()) {
        t = convert_type(it->second->type());
        has_shape = it->second->type().tensor_type().has_shape();
      }
      int id = g.add_value(o, t);
      g.values[id].declared_shape = has_shape;
      sc.names[o] = id;
      nd.outputs.push_back(id);
    }

    g.nodes.push_back(std::move(nd));
    return ok();
  }

  /// Constant nodes become constant values, their tensors moved, not copied.
  status convert_constant(node& nd, onnx::NodeProto& np, graph& g, scope& sc) {
    if (np.output_size() != 1 || np.attribute_size() != 1)
      return status(errc::invalid_model, nd.label() + ": expected one output and exactly one value attribute");
    auto& a = *np.mutable_attribute(0);
    tensor t;
    if (a.name() == "value") {
      auto r = tensor_from_proto(*a.mutable_t(), &root_);
      if (!r.ok()) return std::move(r).error().with_context(nd.label());
      t = std::move(r).value();
    } else if (a.name() == "value_float") t = tensor::scalar(a.f());
    else if (a.name() == "value_int") t = tensor::scalar<std::int64_t>(a.i());
    else if (a.name() == "value_floats") t = tensor::from(std::vector<float>(a.floats().begin(), a.floats().end()), {a.floats_size()});
    else if (a.name() == "value_ints") t = tensor::from(std::vector<std::int64_t>(a.ints().begin(), a.ints().end()), {a.ints_size()});
    else if (a.name() == "value_string") {
      t = tensor::zeros(dtype::string, {});
      t.data<std::string>()[0] = a.s();
    } else if (a.name() == "value_strings") {
      t = tensor::zeros(dtype::string, {a.strings_size()});
      for (int i = 0; i < a.strings_size(); ++i) t.data<std::string>()[i] = a.strings(i);
    } else
      return status(errc::unsupported, nd.label() + ": Constant attribute '" + a.name() + "' is not supported");
    const std::string& out = np.output(0);
    int id = g.add_value(out, {value_kind::tensor, t.type(), sym_shape(t.shape())});
    g.values[id].constant = std::move(t);
    g.values[id].declared_shape = true;
    sc.names[out] = id;
    return ok();
  }

  result<attribute> convert_attribute(onnx::AttributeProto& a, scope& sc) {
    attribute out{a.name(), std::int64_t{0}};
    if (!a.ref_attr_name().empty())
      return status(errc::invalid_model, "attribute '" + a.name() + "' refers to '" + a.ref_attr_name() +
                                             "' outside of a function body");
    using AP = onnx::AttributeProto;
    switch (a.type()) {
      case AP::FLOAT: out.data = a.f(); break;
      case AP::INT: out.data = a.i(); break;
      case AP::STRING: out.data = a.s(); break;
      case AP::FLOATS: out.data = std::vector<float>(a.floats().begin(), a.floats().end()); break;
      case AP::INTS: out.data = std::vector<std::int64_t>(a.ints().begin(), a.ints().end()); break;
      case AP::STRINGS: out.data = std::vector<std::string>(a.strings().begin(), a.strings().end()); break;
      case AP::TENSOR: {
        auto t = tensor_from_proto(*a.mutable_t(), &root_);
        if (!t.ok()) return std::move(t).error().with_context("attribute '" + a.name() + "'");
        out.data = std::move(t).value();
        break;
      }
      case AP::TENSORS: {
        std::vector<tensor> ts;
        for (auto& tp : *a.mutable_tensors()) {
          auto t = tensor_from_proto(tp, &root_);
          if (!t.ok()) return std::move(t).error().with_context("attribute '" + a.name() + "'");
          ts.push_back(std::move(t).value());
        }
        out.data = std::move(ts);
        break;
      }
      case AP::TYPE_PROTO: out.data = convert_type(a.tp()); break;
      case AP::GRAPH: {
        auto g = convert(*a.mutable_g(), &sc);
        if (!g.ok()) return std::move(g).error().with_context("subgraph '" + a.name() + "'");
        out.data = std::shared_ptr<const graph>(std::move(g).value());
        break;
      }
      case AP::GRAPHS: {
        std::vector<std::shared_ptr<const graph>> gs;
        for (auto& sg : *a.mutable_graphs()) {
          auto g = convert(sg, &sc);
          if (!g.ok()) return std::move(g).error().with_context("subgraph '" + a.name() + "'");
          gs.push_back(std::move(g).value());
        }
        out.data = std::move(gs);
        break;
      }
      default:
        return status(errc::unsupported, "attribute '" + a.name() + "' has a type onyx does not read (" +
                                             std::to_string(a.type()) + ")");
    }
    return out;
  }

  external_data_root& root_;
};

// ---------------------------------------------------------------------------
// Model-local functions, inlined into the graph before conversion.

class function_inliner {
 public:
  explicit function_inliner(const onnx::ModelProto& m) {
    for (const auto& f : m.functions()) functions_[{domain_of(f.domain()), f.name()}] = &f;
  }

  status inline_graph(onnx::GraphProto& g, int depth = 0) {
    if (functions_.empty()) return ok();
    if (depth > 64) return status(errc::invalid_model, "model-local functions nest more than 64 deep (recursion?)");
    google::protobuf::RepeatedPtrField<onnx::NodeProto> out;
    for (auto& n : *g.mutable_node()) {
      for (auto& a : *n.mutable_attribute()) {
        if (a.has_g()) ONYX_TRY(inline_graph(*a.mutable_g(), depth));
        for (auto& sg : *a.mutable_graphs()) ONYX_TRY(inline_graph(sg, depth));
      }
      auto it = functions_.find({domain_of(n.domain()), n.op_type()});
      if (it == functions_.end()) {
        *out.Add() = std::move(n);
        continue;
      }
      onnx::GraphProto body;
      ONYX_TRY(expand_call(n, *it->second, body));
      ONYX_TRY(inline_graph(body, depth + 1));
      for (auto& bn : *body.mutable_node()) *out.Add() = std::move(bn);
    }
    g.mutable_node()->Swap(&out);
    return ok();
  }

 private:
  status expand_call(const onnx::NodeProto& call, const onnx::FunctionProto& f, onnx::GraphProto& body) {
    std::string prefix = (call.name().empty() ? f.name() : call.name()) + "/" + std::to_string(counter_++) + "/";
    std::map<std::string, std::string> rename;
    for (int i = 0; i < f.input_size(); ++i) rename[f.input(i)] = i < call.input_size() ? call.input(i) : "";
    for (int i = 0; i < f.output_size(); ++i) rename[f.output(i)] = i < call.output_size() ? call.output(i) : "";
    std::map<std::string, const onnx::AttributeProto*> given;
    for (const auto& a : call.attribute()) given[a.name()] = &a;
    // FunctionProto.attribute_proto (attribute defaults, IR 9) is not in
    // libonnx 1.12's schema: an attribute the call omits takes the op's default.
    auto name_of = [&](const std::string& n) {
      if (n.empty()) return n;
      auto it = rename.find(n);
      return it != rename.end() ? it->second : prefix + n;
    };
    for (const auto& fn : f.node()) {
      onnx::NodeProto n = fn;
      n.set_name(prefix + fn.name());
      for (auto& in : *n.mutable_input()) in = name_of(in);
      for (auto& o : *n.mutable_output()) o = name_of(o);
      google::protobuf::RepeatedPtrField<onnx::AttributeProto> attrs;
      for (auto& a : *n.mutable_attribute()) {
        if (a.ref_attr_name().empty()) {
          *attrs.Add() = std::move(a);
          continue;
        }
        const onnx::AttributeProto* src = nullptr;
        if (auto g = given.find(a.ref_attr_name()); g != given.end()) src = g->second;
        if (!src) continue;  // optional attribute not given: the op's default applies
        auto* copy = attrs.Add();
        *copy = *src;
        copy->set_name(a.name());
      }
      n.mutable_attribute()->Swap(&attrs);
      *body.add_node() = std::move(n);
    }
    return ok();
  }

  std::map<std::pair<std::string, std::string>, const onnx::FunctionProto*> functions_;
  int counter_ = 0;
};

}  // namespace loader_detail

/// Builds the graph IR from a parsed model. `folder` anchors external data;
/// `model_file`, the file's mapping when load_model(path) moved large
/// initializers out of the message (what in_place_location names).
inline result<model> load_model(onnx::ModelProto& mp, const std::filesystem::path& folder, const op_table& ops,
                                std::shared_ptr<const mapped_file> model_file = nullptr) {
  using namespace loader_detail;
  if (!mp.has_graph()) return status(errc::invalid_model, "the model has no graph");
  model m;
  m.ir_version = mp.ir_version();
  m.producer = mp.producer_name();
  m.producer_version = mp.producer_version();
  m.domain = mp.domain();
  m.model_version = mp.model_version();
  m.doc_string = mp.doc_string();
  m.graph_doc_string = mp.graph().doc_string();
  for (const auto& p : mp.metadata_props()) m.metadata_props[p.key()] = p.value();
  for (const auto& o : mp.opset_import()) m.opsets[domain_of(o.domain())] = static_cast<int>(o.version());
  if (mp.opset_import_size() == 0) m.opsets[""] = 1;  // IR 1-2 models carry no import
  for (const auto& f : mp.functions())
    for (const auto& o : f.opset_import()) m.opsets.try_emplace(domain_of(o.domain()), static_cast<int>(o.version()));

  function_inliner inliner(mp);
  ONYX_TRY(inliner.inline_graph(*mp.mutable_graph()));

  external_data_root root(folder);
  root.set_model_file(std::move(model_file));
  converter conv(root);
  ONYX_ASSIGN(m.main, conv.convert(*mp.mutable_graph(), nullptr));
  ONYX_TRY(resolve_ops(m, ops));
  return m;
}

/// Loads `path` (an .onnx file): mapped, its large initializers viewed in
/// place (weights_in_place.hpp), or read as a stream where the mapping or
/// that rewrite does not work out.
inline result<model> load_model(const std::filesystem::path& path, const op_table& ops) {
  onnx::ModelProto mp;
  std::shared_ptr<const mapped_file> file;
  bool parsed = false;
  if (auto f = mapped_file::open(path.string()); f.ok() && f->size() > 0) {
    const std::string_view bytes(reinterpret_cast<const char*>(f->data()), f->size());
    if (auto rewritten = move_weights_out(bytes)) {
      parsed = mp.ParseFromString(*rewritten);
      if (parsed) file = std::make_shared<const mapped_file>(std::move(f).value());
    } else if (bytes.size() <= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      // Nothing to move: parse the mapping itself rather than read the file again.
      parsed = mp.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
    }
    if (!parsed) mp.Clear();
  }
  // The streamed parse: files over 2 GiB, and bytes that fail, whose error it names.
  if (!parsed) ONYX_TRY(read_proto_file(path, mp));
  auto m = load_model(mp, path.parent_path(), ops, std::move(file));
  if (!m.ok()) return std::move(m).error().with_context(path.filename().string());
  return m;
}

/// The .onnx loader, as a session's `Loader` policy; `save` writes the
/// optimized model (session_options::optimized_model_filepath).
struct onnx_loader {
  static result<model> load(const std::filesystem::path& path, const op_table& ops) { return load_model(path, ops); }
  static status save(const model& m, const std::filesystem::path& path) { return write_onnx_model(m, path); }
};

/// Loads a model held in memory (serialized ModelProto bytes).
inline result<model> load_model_from_bytes(std::string_view bytes, const op_table& ops,
                                           const std::filesystem::path& folder = ".") {
  onnx::ModelProto mp;
  if (!mp.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return status(errc::invalid_model,
                  "cannot parse the bytes as an ONNX model (" + std::string(parse_failure_reason(bytes)) + ")");
  return load_model(mp, folder, ops);
}

}  // namespace onyx::graph
