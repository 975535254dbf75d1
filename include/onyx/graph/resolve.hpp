// onyx/graph/resolve.hpp: binding a graph's nodes to the ops of an op table.
//
// Every node whose op is not yet set (subgraphs included) gets the op of
// `ops` whose opset range holds the model's opset for the node's domain; its
// attributes are parsed into the op's typed `attributes` and its arity is
// checked. Every op the table lacks is reported at once, with the opset
// ranges the build has. Free of protobuf: the .onnx loader
// (graph/loader.hpp) calls it, and so does a session handed a graph that was
// built some other way.
#pragma once

#include <set>

#include "onyx/core/message.hpp"
#include "onyx/graph/ir.hpp"

namespace onyx::graph {

/// Binds `nd` to `op`: parses its attributes into the op's typed form and
/// checks its arity. The compact reader calls it for nodes it finds by op
/// version; resolve_ops for nodes it finds by the model's opset.
inline status bind_op(node& nd, const op_info& op) {
  nd.op = &op;
  auto where = [&] { return nd.label(); };
  auto parsed = op.parse(nd.raw_attrs);
  if (!parsed.ok()) return std::move(parsed).error().with_context(where());
  nd.attrs = std::move(parsed).value();
  auto arity_error = [&](const char* what, int n, ops::arity a) {
    if (a.max == a.min) return failure(errc::invalid_model, where(), ": has ", n, " ", what, ", expected ", a.min);
    if (a.max == ops::variadic)
      return failure(errc::invalid_model, where(), ": has ", n, " ", what, ", expected ", a.min, " or more");
    return failure(errc::invalid_model, where(), ": has ", n, " ", what, ", expected ", a.min, " to ", a.max);
  };
  int nin = static_cast<int>(nd.inputs.size()), nout = static_cast<int>(nd.outputs.size());
  if (nin < op.inputs.min || nin > op.inputs.max) return arity_error("inputs", nin, op.inputs);
  if (nout < op.outputs.min || nout > op.outputs.max) return arity_error("outputs", nout, op.outputs);
  // Only optional inputs and outputs may be left unnamed (a kernel reads its
  // required inputs and writes its required outputs).
  const auto required = [](const ops::arity& a, int i) { return i >= 64 || !((a.optional >> i) & 1); };
  for (int i = 0; i < op.inputs.min; ++i)
    if (nd.inputs[static_cast<std::size_t>(i)] < 0 && required(op.inputs, i))
      return failure(errc::invalid_model, where(), ": input ", i, " is required, but the model leaves it unnamed");
  for (int i = 0; i < op.outputs.min; ++i)
    if (nd.outputs[static_cast<std::size_t>(i)] < 0 && required(op.outputs, i))
      return failure(errc::invalid_model, where(), ": output ", i, " is required, but the model leaves it unnamed");
  return ok();
}

namespace resolve_detail {

inline status resolve_graph(graph& g, const model& m, const op_table& ops, std::set<std::string>& missing) {
  for (auto& nd : g.nodes) {
    if (subgraphs_enabled)
      for (const auto& sg : nd.subgraphs) ONYX_TRY(resolve_graph(const_cast<graph&>(*sg), m, ops, missing));
    if (nd.op) continue;
    auto where = [&] { return nd.label(); };
    auto opset = m.opsets.find(nd.domain);
    if (opset == m.opsets.end())
      return failure(errc::invalid_model, where(), ": domain '", nd.domain, "' is not among the model's opset imports");
    nd.op = ops.find(nd.domain, nd.op_type, opset->second);
    if (!nd.op) {
      std::string key = (nd.domain.empty() ? "" : nd.domain + ".") + nd.op_type;
      if (auto* any = ops.find_any(nd.domain, nd.op_type))
        missing.insert(key + " at opset " + std::to_string(opset->second) + " (this build has it for opsets " +
                       std::to_string(any->since) + "-" +
                       (any->until >= ops::latest ? "latest" : std::to_string(any->until)) + ")");
      else
        missing.insert(key);
      continue;
    }
    ONYX_TRY(bind_op(nd, *nd.op));
  }
  return ok();
}

}  // namespace resolve_detail

/// Binds the unbound nodes of `m` to `ops`; fails naming every missing op,
/// or the first node whose attributes or arity do not fit its op.
inline status resolve_ops(model& m, const op_table& ops) {
  if (!m.main) return status(errc::invalid_model, "the model has no graph");
  std::set<std::string> missing;
  status st = resolve_detail::resolve_graph(*m.main, m, ops, missing);
  if (!missing.empty()) {
    std::string list;
    for (const auto& s : missing) list += (list.empty() ? "" : ", ") + s;
    return status(errc::unsupported, "this build of onyx has no " +
                                         std::string(missing.size() == 1 ? "operator " : "operators ") + list);
  }
  return st;
}

}  // namespace onyx::graph
