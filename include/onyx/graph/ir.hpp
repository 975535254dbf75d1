// onyx/graph/ir.hpp: the graph every pipeline stage reads and rewrites.
//
// Values are numbered; nodes refer to them by index (-1: an omitted optional
// input). A value may carry a constant (an initializer, a Constant node's
// tensor, or a folded result). Subgraphs (If/Loop/Scan bodies) are graphs of
// their own; the values they read from enclosing scopes are listed in
// `captures` and become explicit inputs of the node that owns them, so
// liveness analysis sees them.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "onyx/core/attribute.hpp"
#include "onyx/registry/op_info.hpp"

namespace onyx::graph {

/// Whether this program runs subgraphs (the bodies of If, Loop, Scan,
/// SequenceMap, FlexAttention): false where ONYX_NO_SUBGRAPHS is defined
/// (runtime/session.hpp), which links no subgraph inference, compilation or
/// running, and refuses a model that holds one.
#if defined(ONYX_NO_SUBGRAPHS)
inline constexpr bool subgraphs_enabled = false;
#else
inline constexpr bool subgraphs_enabled = true;
#endif

struct value_info {
  std::string name;
  value_type type;               // declared in the model, refined by inference
  std::optional<tensor> constant;     // initializer, Constant, or folded
  bool declared_shape = false;        // the model stated a shape for it
};

struct node {
  std::string name;     // the model's node name, or a generated one
  std::string op_type;  // as written in the model, for messages
  std::string domain;
  const op_info* op = nullptr;
  std::shared_ptr<const void> attrs;         // the op's parsed `attributes`
  std::vector<attribute> raw_attrs;          // as loaded (expand and folding re-read them)
  std::vector<int> inputs;                   // value ids, -1 = omitted
  std::vector<int> outputs;                  // value ids, -1 = omitted
  std::vector<std::shared_ptr<const graph>> subgraphs;  // graph attributes, in order
  std::string expanded_from;  // the model's node this one came from by expansion, as its label()

  /// `Conv 'conv1'`: how messages name a node; a node made by an expansion
  /// also names the model's node it came from.
  std::string label() const {
    if (expanded_from.empty()) return message(op_type, " '", name, "'");
    return message(op_type, " '", name, "' (expanded from ", expanded_from, ")");
  }
};

struct graph {
  std::string name;
  std::vector<value_info> values;
  std::vector<node> nodes;  // topologically sorted
  std::vector<int> inputs;  // graph inputs the caller feeds
  std::vector<int> outputs;
  std::vector<int> captures;  // values named here but defined in an enclosing scope

  int add_value(std::string name, value_type t = {}) {
    values.push_back(value_info{std::move(name), std::move(t), std::nullopt, false});
    return static_cast<int>(values.size()) - 1;
  }
  int find(std::string_view value_name) const {
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i].name == value_name) return static_cast<int>(i);
    return -1;
  }
};

/// `g` as an op's inference sees it (ops::infer_context::interface_of).
inline ops::body_interface interface_of(const graph& g) {
  ops::body_interface io;
  io.inputs = g.inputs.size();
  for (int id : g.outputs) {
    value_type t = g.values[id].type;
    if (t.shape.rank_known)
      for (auto& d : t.shape.dims)
        if (!d.known()) d = dim::unknown();
    io.outputs.push_back(std::move(t));
  }
  return io;
}

struct model {
  std::shared_ptr<graph> main;
  std::map<std::string, int, std::less<>> opsets;  // domain ("" = ai.onnx) -> version
  std::int64_t ir_version = 0;
  std::string producer;
  /// The rest of ModelProto's description (session_core::metadata()).
  std::string producer_version, domain, doc_string, graph_doc_string;
  std::int64_t model_version = 0;
  std::map<std::string, std::string> metadata_props;  // custom key/value pairs
  /// Already through the optimization passes (a compact model written by
  /// onyx-ops): a session runs none again, so it needs only the kernels of
  /// the nodes it finds.
  bool optimized = false;
};

}  // namespace onyx::graph
