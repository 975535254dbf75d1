// onyx/runtime/compiled_graph.hpp: a graph with every node bound to a kernel.
//
// compile() runs the stages after loading: symbolic inference (which fixes
// every dtype), optimization passes, then binding: each node gets the kernel
// for its (op, backend, type signature) on the first listed backend that has
// one, and `prepare` runs once with the node's constant inputs.
#pragma once

#include <cstring>
#include <map>
#include <string>
#include <set>

#include "onyx/graph/infer.hpp"
#include "onyx/graph/passes/passes.hpp"
#include "onyx/runtime/invoke.hpp"
#include "onyx/core/message.hpp"
#include "onyx/core/memory_limits.hpp"
#include "onyx/core/thread_pool.hpp"

namespace onyx::runtime {

struct compiled_graph;

inline constexpr int device_kinds = 3;  // device_kind values

/// A tensor of `t` and `e` on `dev`: in the memory of `be` when it has its
/// own (a GPU), else on the host. Fails through out_of_memory() when the
/// memory cannot be had.
inline tensor allocate_on(const backend_info* be, dtype t, const extents& e, device dev) {
  if (!be || !be->allocate || t == dtype::string) return tensor::uninitialized(t, e, dev);
  if (std::any_of(e.begin(), e.end(), [](std::int64_t d) { return d < 0; }) || !checked_storage_bytes(t, e))
    out_of_memory();
  auto block = allocate_block(be, storage_bytes(t, element_count(e)));
  void* data = block.get();
  return tensor::adopt(std::move(block), data, t, e, dev);
}

/// A copy of host tensor `t` on `dev`, the device of `be` (null: a host
/// device sharing the host's memory).
inline result<tensor> copy_to_device(const backend_info* be, const tensor& t, device dev) {
  tensor c = allocate_on(be, t.type(), t.shape(), dev);
  if (be && be->from_host) ONYX_TRY(be->from_host(t, c));
  else std::memcpy(c.raw(), t.raw(), t.bytes());
  return c;
}

/// Whether kernel `k`, run on a device, reads input `i` on the host (kernel_entry::host_inputs).
inline bool reads_on_host(const kernel_entry& k, std::size_t i) { return i < 32 && (k.host_inputs >> i) & 1u; }

struct bound_node {
  const graph::node* node = nullptr;
  const kernel_entry* kernel = nullptr;
  const backend_info* backend = nullptr;
  std::shared_ptr<const void> state;
  /// Per subgraph: compiled, or null with the reason in subgraph_errors when
  /// it could not be, being a body that inference did not reach or whose
  /// inference its node let fail (an If branch that will not run, a Loop
  /// body that may make no iteration): running it raises that error.
  std::vector<std::shared_ptr<const compiled_graph>> subgraphs;
  std::vector<status> subgraph_errors;
  std::vector<int> captured;  // outer values the subgraphs read (liveness)
};

struct compiled_graph {
  std::shared_ptr<graph::graph> g;
  graph::inferred types;  // symbolic: dtypes are final, shapes may hold symbols
  std::vector<bound_node> nodes;
  std::vector<int> capture_sources;  // per g->captures entry: the value id in the enclosing graph
  std::vector<device_kind> devices;  // per value: where its memory lives
  /// Per device_kind: the backend whose memory it is (null: the host's).
  std::array<const backend_info*, device_kinds> device_backends{};
  /// Per value: 1 where a constant was freed after its readers' prepare
  /// consumed it (kernel.hpp); runs bind a data-less tensor of its type there.
  std::vector<char> released;
  memory_limits limits;  // compile_options::limits: checked before each allocation of a run
};

// ---------------------------------------------------------------------------
// Devices. A value lives on the device of the node that produces it (graph
// inputs and constants on the host). Where a node runs on another device than
// one of its inputs, a copy is inserted: a built-in onyx.Copy node for values,
// a copy made once at load for constants. Graph outputs come back to the host.

struct copy_state {
  const backend_info* from;  // null: the host
  const backend_info* to;
};

inline status run_copy(const kernel_call& c) {
  const auto& s = c.state<copy_state>();
  const tensor& in = c.input(0);
  tensor& out = c.output(0);
  if (s.to && s.to->from_host) return s.to->from_host(in, out);
  if (s.from && s.from->to_host) return s.from->to_host(in, out);
  std::memcpy(out.raw(), in.raw(), in.bytes());
  return ok();
}

inline status infer_copy(const void*, ops::infer_context& c) {
  c.set_output(0, c.input(0));
  return ok();
}

inline const kernel_entry copy_kernel{0, {}, &run_copy, nullptr, nullptr};
inline const op_info copy_op{"onyx", "Copy", 1, ops::latest, {1, 1}, {1, 1}, {}, nullptr, &infer_copy, nullptr, {}};

inline status insert_copies(graph::graph& g, graph::inferred& st, std::vector<bound_node>& bound,
                            std::vector<device_kind>& devices) {
  const auto host = device_kind::cpu;
  devices.assign(g.values.size(), host);
  std::vector<const backend_info*> backend_of(g.values.size(), nullptr);
  std::map<std::pair<int, device_kind>, int> copies;
  std::vector<graph::node> nodes;
  std::vector<bound_node> out;

  auto add_value = [&](int from, device_kind dev, const backend_info* be) {
    int id = g.add_value(g.values[from].name + "@" + to_string(device{dev}), g.values[from].type);
    st.types.push_back(st.types[from]);
    st.known.push_back(std::nullopt);
    devices.push_back(dev);
    backend_of.push_back(be);
    return id;
  };
  // The value `id` on device `dev` (whose backend is `be`, null for the host).
  auto on_device = [&](int id, device_kind dev, const backend_info* be) -> result<int> {
    if (devices[id] == dev) return id;
    if (auto it = copies.find({id, dev}); it != copies.end()) return it->second;
    int copy = add_value(id, dev, be);
    if (g.values[id].constant) {  // copied once, now
      ONYX_ASSIGN(tensor c, copy_to_device(be, *g.values[id].constant, device{dev}));
      g.values[copy].constant = c;
      // Inference reads known values on the host: a copy in a device's own
      // memory is not one of them.
      if (!be || !be->allocate) st.known[copy] = std::move(c);
    } else {
      graph::node n;
      n.name = g.values[id].name + "/copy_to_" + to_string(device{dev});
      n.op_type = "Copy";
      n.domain = "onyx";
      n.op = &copy_op;
      n.inputs = {id};
      n.outputs = {copy};
      bound_node b;
      b.kernel = &copy_kernel;
      b.backend = be ? be : backend_of[id];
      b.state = std::make_shared<const copy_state>(copy_state{backend_of[id], be});
      nodes.push_back(std::move(n));
      out.push_back(std::move(b));
    }
    copies[{id, dev}] = copy;
    return copy;
  };

  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    auto& n = g.nodes[k];
    const backend_info* be = bound[k].backend->device == host ? nullptr : bound[k].backend;
    device_kind dev = bound[k].backend->device;
    for (std::size_t i = 0; i < n.inputs.size(); ++i) {
      auto& in = n.inputs[i];
      if (in < 0) continue;
      // A shape or axes input the device kernel reads on the host stays there.
      const bool stays = be && reads_on_host(*bound[k].kernel, i);
      ONYX_ASSIGN(in, on_device(in, stays ? host : dev, stays ? nullptr : be));
    }
    for (int o : n.outputs)
      if (o >= 0) devices[o] = dev, backend_of[o] = be;
    nodes.push_back(std::move(n));
    out.push_back(std::move(bound[k]));
  }
  for (auto& o : g.outputs) {
    int from = o;
    ONYX_ASSIGN(o, on_device(from, host, nullptr));
    if (o != from) std::swap(g.values[o].name, g.values[from].name);  // the output keeps its name
  }
  g.nodes = std::move(nodes);
  bound = std::move(out);
  return ok();
}

/// The kernel for `n` on the first backend that has one, or a status that
/// says which signatures the build does have.
inline result<std::pair<const kernel_entry*, const backend_info*>> find_kernel(const graph::node& n,
                                                                               const graph::inferred& st,
                                                                               bool host_only = false) {
  auto sig = graph::signature_of(n, st);
  // What a kernel's `accepts` is asked (kernel.hpp), made on first need.
  std::vector<value_type> in_types;
  std::vector<char> wanted;
  prepare_info_base info;
  bool info_made = false;
  std::string refused;  // backends whose kernel has the signature but not this node
  auto accepted = [&](const kernel_entry& k) {
    if (!k.accepts) return true;
    if (!info_made) {
      for (int id : n.inputs) in_types.push_back(id >= 0 ? st.types[id] : value_type{value_kind::none});
      for (int id : n.outputs) wanted.push_back(id >= 0 ? 1 : 0);
      info.attrs_ = n.attrs.get();
      info.inputs_ = in_types;
      info.outputs_ = wanted;
      info_made = true;
    }
    return k.accepts(info);
  };
  for (const auto& bk : n.op->kernels) {
    if (host_only && bk.backend->device != device_kind::cpu) continue;
    if (auto* k = bk.find(sig.key())) {
      if (accepted(*k)) return std::pair{k, bk.backend};
      refused += message(refused.empty() ? "" : ", ", bk.backend->name);
    }
  }
  if (!refused.empty())
    return failure(errc::unsupported, "the ", refused, " kernel for ", ops::to_string(sig),
                   " does not take this node (an attribute, input or output it does not implement), and no other "
                   "backend has one");
  std::string have;
  for (const auto& bk : n.op->kernels)
    for (const auto& e : bk.entries) {
      if (have.size() > 200) break;
      have += message(have.empty() ? "" : ", ", ops::to_string(e.sig));
    }
  if (!n.op->has_kernels())
    return failure(errc::unsupported, "this build has no kernel for ", n.op->qualified_name());
  return failure(errc::unsupported, "no kernel for type signature ", ops::to_string(sig), "; this build has ",
                 have.empty() ? "none" : have);
}

/// Runs `n` once on known inputs with a host kernel: value propagation and
/// constant folding share it.
/// An output over `limits` (or memory running out) is an error, so folding
/// leaves such a node to run time, where the run reports it.
inline result<std::vector<tensor>> evaluate_node(const graph::node& n, std::span<const tensor* const> inputs,
                                                 const graph::inferred& st, const thread_pool* pool,
                                                 const memory_limits& limits = {}) {
  ONYX_ASSIGN(auto found, find_kernel(n, st, true));
  std::vector<const value_type*> outputs;
  for (int id : n.outputs) {
    outputs.push_back(id >= 0 ? &st.types[id] : nullptr);
    if (id < 0 || st.types[id].kind != value_kind::tensor) continue;
    if (auto e = st.types[id].shape.concrete_extents())
      ONYX_TRY(check_allocation(limits, st.types[id].type, *e, [&] { return message(n.label(), ": an output"); }));
  }
  return catch_allocation_failure([&] { return invoke(*found.first, n.attrs.get(), inputs, outputs, pool); },
                                  [&] { return n.label(); });
}

#if defined(ONYX_NO_PROPAGATION) && !defined(ONYX_NO_OPTIMIZER)
#error "ONYX_NO_PROPAGATION needs ONYX_NO_OPTIMIZER: constant folding evaluates nodes through make_evaluator"
#endif

/// What inference and constant folding evaluate nodes with; empty (nothing
/// is evaluated, values are computed when the model runs) where
/// ONYX_NO_PROPAGATION is defined (runtime/session.hpp).
inline graph::evaluate_fn make_evaluator(const thread_pool* pool, const memory_limits& limits = {}) {
#if defined(ONYX_NO_PROPAGATION)
  (void)pool, (void)limits;
  return nullptr;
#else
  return [pool, limits](const graph::node& n, std::span<const tensor* const> ins, const graph::inferred& st) {
    return evaluate_node(n, ins, st, pool, limits);
  };
#endif
}

struct compile_options {
  bool optimize = true;
  const thread_pool* pool = nullptr;
  op_table ops;  // what fusions may produce
  /// Called with the main graph after inference ("infer") and after each
  /// optimization pass (its name): a stage dump (graph::stage_dumper).
  graph::passes::after_pass_fn after_stage{};
  graph::passes::pass_options passes{};  // which optional passes run
  memory_limits limits{};  // folding skips larger outputs; runs check against them
};

/// Per value of `g`: how many node inputs read it, or -1 where a constant
/// must stay whoever consumes it (a graph output, captured by a subgraph at
/// any depth, not a constant). What release_consumed counts down.
inline std::vector<int> consumable_readers(const graph::graph& g) {
  std::vector<int> readers(g.values.size(), 0);
  for (std::size_t id = 0; id < g.values.size(); ++id)
    if (!g.values[id].constant) readers[id] = -1;
  for (int id : g.outputs) readers[id] = -1;
  std::set<std::string> captured;  // by name, as bodies capture
  auto collect = [&captured](const graph::graph& body, auto& self) -> void {
    for (int id : body.captures) captured.insert(body.values[id].name);
    for (const auto& n : body.nodes)
      for (const auto& sg : n.subgraphs) self(*sg, self);
  };
  if (graph::subgraphs_enabled)
    for (const auto& n : g.nodes)
      for (const auto& sg : n.subgraphs) collect(*sg, collect);
  for (std::size_t id = 0; id < g.values.size(); ++id)
    if (captured.count(g.values[id].name)) readers[id] = -1;
  for (const auto& n : g.nodes)
    for (int id : n.inputs)
      if (id >= 0 && readers[id] >= 0) ++readers[id];
  return readers;
}

/// After node `n`'s prepare: counts down the readers of each input it
/// consumed and frees a constant whose last reader that was.
inline void release_consumed(graph::graph& g, compiled_graph& cg, const graph::node& n,
                             std::span<const char> consumed, std::vector<int>& readers) {
  for (std::size_t i = 0; i < n.inputs.size() && i < consumed.size(); ++i) {
    const int id = n.inputs[i];
    if (id < 0 || !consumed[i] || readers[id] <= 0 || --readers[id] > 0) continue;
    if (!cg.types.types[id].shape.concrete_extents()) continue;  // the placeholder needs its extents
    g.values[id].constant.reset();
    cg.types.known[id].reset();
    cg.released[id] = 1;
  }
}

/// A graph's types after inference and the optimization passes.
struct optimized_graph {
  graph::inferred types;
  std::vector<int> capture_sources;  // per g.captures entry: the value id in the enclosing graph
};

/// Infers `g` and (with opt.optimize) runs the optimization passes over it,
/// in place. `outer` gives the types of values the graph captures from its
/// enclosing scope (null for the main graph). Subgraph bodies are left to
/// their owner's caller (compile, or optimize_model).
inline result<optimized_graph> infer_and_optimize(graph::graph& g, const compile_options& opt,
                                                  const graph::graph* outer_graph = nullptr,
                                                  const graph::inferred* outer = nullptr) {
  optimized_graph out;
  auto evaluate = make_evaluator(opt.pool, opt.limits);
  // A body starts from its inference within the enclosing graph, which typed
  // its inputs; a body that inference did not reach, from its declarations.
  const graph::inferred* body = nullptr;
  if (outer)
    if (auto it = outer->bodies.find(&g); it != outer->bodies.end()) body = it->second.get();
  out.types = body ? *body : graph::initial_state(g);
  for (int id : g.captures) {
    int src = outer_graph ? outer_graph->find(g.values[id].name) : -1;
    if (src < 0) return failure(errc::invalid_model, "captured value '", g.values[id].name, "' not found");
    out.capture_sources.push_back(src);
    out.types.types[id] = outer->types[src];
    out.types.known[id] = outer->known[src];
  }
  ONYX_TRY(graph::infer_graph(g, out.types, evaluate));
  const auto& after_stage = outer_graph ? graph::passes::after_pass_fn{} : opt.after_stage;
  if (after_stage) ONYX_TRY(after_stage("infer", g, out.types));
#if !defined(ONYX_NO_OPTIMIZER)  // a program that runs only optimized (compact) models links no pass
  if (opt.optimize) ONYX_TRY(graph::passes::optimize(g, out.types, evaluate, opt.ops, after_stage, opt.passes));
#endif
  return out;
}

/// Infers, optimizes and binds `g`. `outer` gives the types of values the
/// graph captures from its enclosing scope (null for the main graph).
inline result<std::shared_ptr<const compiled_graph>> compile(std::shared_ptr<graph::graph> g,
                                                             const compile_options& opt,
                                                             const graph::graph* outer_graph = nullptr,
                                                             const graph::inferred* outer = nullptr) {
  auto cg = std::make_shared<compiled_graph>();
  ONYX_ASSIGN(auto optimized, infer_and_optimize(*g, opt, outer_graph, outer));
  cg->types = std::move(optimized.types);
  cg->limits = opt.limits;
  cg->capture_sources = std::move(optimized.capture_sources);

  // Bind: each node gets the kernel of the first backend that has one.
  // Subgraph bodies run on the host, where their owner's kernel calls them.
  std::vector<bound_node> bound;
  for (const auto& n : g->nodes) {
    auto found = find_kernel(n, cg->types, outer_graph != nullptr);
    if (!found.ok()) return std::move(found).error().with_context(n.label());
    bound_node b;
    std::tie(b.kernel, b.backend) = *found;
    bound.push_back(std::move(b));
  }
#if defined(ONYX_HOST_ONLY)
  // A build whose backends all run on the host (onyx_add_inference_executable,
  // BACKENDS cpu) has no copy to place and links no copy insertion.
  for (std::size_t k = 0; k < bound.size(); ++k)
    if (bound[k].backend->device != device_kind::cpu)
      return failure(errc::unsupported, g->nodes[k].label(), ": runs on backend ", bound[k].backend->name,
                     ", but this program was built for the host only (ONYX_HOST_ONLY)");
  cg->devices.assign(g->values.size(), device_kind::cpu);
#else
  for (const auto& b : bound)
    if (b.backend->device != device_kind::cpu) cg->device_backends[static_cast<int>(b.backend->device)] = b.backend;
  ONYX_TRY(catch_allocation_failure([&] { return insert_copies(*g, cg->types, bound, cg->devices); },
                                    [] { return std::string("copying constants to the device"); }));
#endif

  // Prepare in order, freeing each consumed constant after its last reader's
  // prepare: the peak is then all raw weights plus one node's packed copy,
  // not every weight twice.
  cg->released.assign(g->values.size(), 0);
  std::vector<int> readers = consumable_readers(*g);
  for (std::size_t k = 0; k < g->nodes.size(); ++k) {
    const auto& n = g->nodes[k];
    bound_node& b = bound[k];
    b.node = &n;
    if (b.kernel->prepare) {
      std::vector<value_type> in_types;
      std::vector<const tensor*> constants;
      for (int id : n.inputs) {
        in_types.push_back(id >= 0 ? cg->types.types[id] : value_type{value_kind::none});
        constants.push_back(id >= 0 && g->values[id].constant ? &*g->values[id].constant : nullptr);
      }
      std::vector<char> consumed(n.inputs.size(), 0);
      prepare_info_base p;
      p.attrs_ = n.attrs.get();
      p.inputs_ = in_types;
      p.constants_ = constants;
      p.pool_ = opt.pool;
      p.consumed_ = consumed;
      auto st = b.kernel->prepare(p);
      if (!st.ok()) return std::move(st).error().with_context(n.label());
      b.state = std::move(st).value();
      release_consumed(*g, *cg, n, consumed, readers);
    }
    if (!graph::subgraphs_enabled) continue;  // the session refused a model that holds any
    for (const auto& sg : n.subgraphs) {
      auto sub = compile(std::const_pointer_cast<graph::graph>(sg), opt, g.get(), &cg->types);
      if (!sub.ok()) {
        if (cg->types.bodies.count(sg.get())) return std::move(sub).error().with_context(n.label());
        b.subgraphs.push_back(nullptr);  // not reached by inference: fails if it runs
        b.subgraph_errors.push_back(std::move(sub).error().with_context("subgraph '" + sg->name + "'"));
        continue;
      }
      for (int src : (*sub)->capture_sources) b.captured.push_back(src);
      b.subgraphs.push_back(std::move(sub).value());
      b.subgraph_errors.emplace_back();
    }
  }
  cg->nodes = std::move(bound);
  cg->g = std::move(g);
  return std::shared_ptr<const compiled_graph>(std::move(cg));
}

}  // namespace onyx::runtime
