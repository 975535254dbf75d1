// onyx/graph/normalize.hpp: one op struct per op, at its latest semantics.
//
// A node whose op has an `expand` and no kernel on any listed backend is
// replaced by the nodes its expansion builds: older opsets up-convert this way
// (Clip_v6 -> Clip with constant inputs), and so do function-style ops that a
// build chose not to give a kernel. Expansions may produce nodes that expand
// again; each rewrite keeps the graph topologically sorted.
#pragma once

#include <functional>

#include "onyx/graph/ir.hpp"

namespace onyx::graph {

namespace normalize_detail {

class expander final : public ops::expand_context {
 public:
  expander(graph& g, const op_table& ops, const node& n, std::vector<node>& out)
      : g_(g), ops_(ops), n_(n), out_(out) {}

  int input_count() const override { return static_cast<int>(n_.inputs.size()); }
  int output_count() const override { return static_cast<int>(n_.outputs.size()); }
  ref input(int i) const override { return i < input_count() ? n_.inputs[i] : -1; }
  ref constant(tensor t) override {
    int id = g_.add_value(n_.name + "/const" + std::to_string(counter_++),
                          {value_kind::tensor, t.type(), sym_shape(t.shape())});
    g_.values[id].constant = std::move(t);
    return id;
  }
  result<std::vector<ref>> add(std::string_view op, std::vector<ref> inputs, std::vector<attribute> attrs,
                               int outputs) override {
    const op_info* info = ops_.latest("", op);
    if (!info)
      return status(errc::unsupported, "its expansion needs operator " + std::string(op) + ", which this build lacks");
    node nd;
    nd.name = n_.name + "/" + std::string(op) + std::to_string(counter_++);
    nd.expanded_from = n_.expanded_from.empty() ? n_.label() : n_.expanded_from;
    nd.op_type = std::string(op);
    nd.op = info;
    auto parsed = info->parse(attrs);
    if (!parsed.ok()) return std::move(parsed).error().with_context(nd.label());
    nd.attrs = std::move(parsed).value();
    nd.raw_attrs = std::move(attrs);
    nd.inputs = std::move(inputs);
    for (int i = 0; i < outputs; ++i) nd.outputs.push_back(g_.add_value(nd.name + ":" + std::to_string(i)));
    auto outs = nd.outputs;
    out_.push_back(std::move(nd));
    return outs;
  }
  void set_output(int i, ref r) override { bindings_.emplace_back(i, r); }

  /// Renames: the node's original output values keep their ids (graph outputs
  /// and later readers stay valid); the value an expansion bound to an output
  /// is redirected to that id.
  status finish() {
    for (auto [i, r] : bindings_) {
      if (i >= output_count() || n_.outputs[i] < 0) continue;
      int target = n_.outputs[i];
      bool produced = false;
      for (auto& nd : out_)
        for (auto& o : nd.outputs)
          if (o == r) o = target, produced = true;
      if (produced)
        for (auto& nd : out_)
          for (auto& in : nd.inputs)
            if (in == r) in = target;
      if (!produced) {  // an input or constant passed straight through: copy it with Identity
        ONYX_ASSIGN(auto ids, add("Identity", {r}, {}, 1));
        out_.back().outputs[0] = target;
        (void)ids;
      }
    }
    return ok();
  }

 private:
  graph& g_;
  const op_table& ops_;
  const node& n_;
  std::vector<node>& out_;
  std::vector<std::pair<int, ref>> bindings_;
  int counter_ = 0;
};

}  // namespace normalize_detail

/// True when `n` should be rewritten by its op's expansion.
inline bool should_expand(const node& n) { return n.op && n.op->expand && !n.op->has_kernels(); }

inline status normalize(graph& g, const op_table& ops) {
  std::vector<node> result;
  std::vector<node> work(std::make_move_iterator(g.nodes.begin()), std::make_move_iterator(g.nodes.end()));
  g.nodes.clear();
  // Depth-first: an expansion's nodes are themselves normalized, in order.
  std::function<status(node&&, int)> visit = [&](node&& n, int depth) -> status {
    if (!should_expand(n)) {
      result.push_back(std::move(n));
      return ok();
    }
    if (depth > 16) return status(errc::internal, n.label() + ": expansions nest more than 16 deep");
    std::vector<node> produced;
    normalize_detail::expander ex(g, ops, n, produced);
    status st = n.op->expand(n.attrs.get(), ex);
    if (st.ok()) st = ex.finish();
    if (!st.ok()) return std::move(st).with_context(n.label());
    for (auto& p : produced) ONYX_TRY(visit(std::move(p), depth + 1));
    return ok();
  };
  for (auto& n : work) ONYX_TRY(visit(std::move(n), 0));
  g.nodes = std::move(result);
  for (auto& n : g.nodes)
    for (auto& sg : n.subgraphs) ONYX_TRY(normalize(const_cast<graph&>(*sg), ops));
  return ok();
}

}  // namespace onyx::graph
