// onyx/runtime/executor.hpp: walking a compiled graph.
//
// A `shaped_plan` is made once per input-shape signature: concrete inference
// gives every value its extents, nodes whose outputs are then known (shape
// arithmetic) are dropped from the step list, and the remaining intermediate
// tensors get arena offsets by liveness. Values whose extents depend on data
// (after NonZero, say) are left unplanned and inferred again, with the actual
// input values, right before their node runs.
//
// Each step whose kernel has a plan step (kernel.hpp) is planned here, once
// per shape signature: its per-shape object is kept in the plan and its
// scratch is one more arena range, live during that step only, so scratch
// and tensors share memory by liveness. A step whose input shapes were not
// known at plan time plans on the spot when it runs (runtime::run_with_plan_here).
//
// A `run_context` holds one run's state: the arena and a slot per value. It is
// reused across runs of the same plan so the hot path allocates nothing but
// the graph outputs. The session hands each concurrent run its own context.
#pragma once

#include <array>
#include <chrono>
#include <limits>

#include "onyx/core/message.hpp"
#include "onyx/runtime/compiled_graph.hpp"
#include "onyx/runtime/memory_plan.hpp"
#include "onyx/runtime/profile.hpp"

namespace onyx::runtime {

inline constexpr std::size_t unplanned = std::numeric_limits<std::size_t>::max();

/// A step's kernel plan, made with the plan's shapes.
struct step_plan {
  bool planned = false;  // false: the kernel has no plan step, or it plans at run time
  kernel_plan kernel;
  std::size_t scratch_offset = 0;     // in the arena of the kernel's device
  std::vector<extents> input_shapes;  // what it was planned for (empty for non-tensors)
};

struct shaped_plan {
  std::vector<extents> key;  // the input extents this plan is for
  graph::inferred st;        // concrete
  std::vector<int> steps;    // indices into compiled_graph::nodes
  std::vector<step_plan> step_plans;  // per step
  std::vector<std::size_t> offsets;  // per value: offset in its device's arena, or `unplanned`
  std::array<std::size_t, device_kinds> arena_bytes{};
};

namespace executor_detail {

/// Runs the plan step of node `b` for the concrete types of `st`; leaves
/// `sp.planned` false when an input's extents are not known yet.
inline status plan_step(const bound_node& b, const graph::inferred& st, const thread_pool* pool, step_plan& sp) {
  if (!b.kernel->plan) return ok();
  const auto& n = *b.node;
  std::vector<value_type> types(n.inputs.size());
  sp.input_shapes.assign(n.inputs.size(), {});
  for (std::size_t i = 0; i < n.inputs.size(); ++i) {
    int id = n.inputs[i];
    if (id < 0) {
      types[i].kind = value_kind::none;
      continue;
    }
    types[i] = st.types[id];
    if (types[i].kind != value_kind::tensor) continue;
    auto e = types[i].shape.concrete_extents();
    if (!e || types[i].optional) return ok();
    sp.input_shapes[i] = *e;
  }
  plan_info_base p;
  p.attrs_ = n.attrs.get();
  p.state_ = b.state.get();
  p.inputs_ = types;
  p.pool_ = pool;
  auto kp = b.kernel->plan(p);
  if (!kp.ok()) return std::move(kp).error().with_context(n.label());
  sp.kernel = std::move(kp).value();
  sp.planned = true;
  return ok();
}

/// Adds one kernel call to the profile's table and, when it traces, its event.
inline void record(op_profile& p, const bound_node& b, std::span<value* const> in, op_profile::clock::time_point start,
                   op_profile::clock::duration elapsed) {
  const auto& n = *b.node;
  std::string key = n.op_type;
  if (p.by_shape())
    for (const value* v : in)
      if (v && v->is_tensor()) key += " " + to_string(v->as_tensor().shape());
  p.add(key, elapsed);
  if (!p.tracing()) return;
  op_profile::event e;
  e.name = n.name;
  e.cat = "node";
  e.start = start;
  e.duration = elapsed;
  e.thread = op_profile::thread_number();
  e.op = n.op->qualified_name();
  std::string sig;
  for (const value* v : in) {
    if (!sig.empty()) sig += ",", e.input_shapes += ",";
    if (v && v->is_tensor()) {
      sig += name(v->as_tensor().type());
      e.input_shapes += "[";
      for (std::size_t d = 0; d < v->as_tensor().rank(); ++d)
        e.input_shapes += (d ? "," : "") + std::to_string(v->as_tensor().dim(d));
      e.input_shapes += "]";
    } else {
      sig += v && !v->is_none() ? "value" : "none";
      e.input_shapes += v && v->is_sequence() ? "sequence" : v && v->is_map() ? "map" : "none";
    }
  }
  e.kernel = std::string(b.backend->name) + "(" + sig + ")";
  if (b.backend->device == device_kind::cpu) e.isa = p.isa();
  p.add_event(std::move(e));
}

/// Whether the step's inputs have the shapes it was planned for.
inline bool shapes_match(const step_plan& sp, std::span<value* const> ins) {
  for (std::size_t i = 0; i < ins.size(); ++i)
    if (ins[i] && ins[i]->is_tensor() && ins[i]->as_tensor().shape() != sp.input_shapes[i]) return false;
  return true;
}

}  // namespace executor_detail

/// Concrete inference and memory planning for the given graph-input types.
inline result<std::shared_ptr<const shaped_plan>> make_shaped_plan(const compiled_graph& cg,
                                                                   std::vector<value_type> input_types,
                                                                   std::vector<extents> key,
                                                                   const thread_pool* pool) {
  const auto& g = *cg.g;
  auto plan = std::make_shared<shaped_plan>();
  plan->key = std::move(key);
  plan->st = cg.types;
  for (std::size_t i = 0; i < g.inputs.size(); ++i) {
    plan->st.types[g.inputs[i]] = std::move(input_types[i]);
    plan->st.known[g.inputs[i]].reset();
  }
  ONYX_TRY(graph::infer_graph(g, plan->st, make_evaluator(pool, cg.limits)));

  std::vector<char> is_output(g.values.size(), 0);
  for (int id : g.outputs) is_output[id] = 1;
  std::vector<int> first(g.values.size(), -1), last(g.values.size(), -1);
  for (std::size_t k = 0; k < cg.nodes.size(); ++k) {
    const auto& n = *cg.nodes[k].node;
    bool known = n.subgraphs.empty();
    for (int id : n.outputs)
      if (id >= 0 && !plan->st.known[id]) known = false;
    if (known) continue;  // every output already computed by inference
    // Every output whose extents are known must fit the limits (the plan's
    // arena sums them with unchecked arithmetic).
    for (int id : n.outputs) {
      if (id < 0 || plan->st.types[id].kind != value_kind::tensor) continue;
      if (auto e = plan->st.types[id].shape.concrete_extents())
        ONYX_TRY(check_allocation(cg.limits, plan->st.types[id].type, *e,
                                  [&] { return message(n.label(), ": output '", g.values[id].name, "'"); }));
    }
    int step = static_cast<int>(plan->steps.size());
    plan->steps.push_back(static_cast<int>(k));
    for (int id : n.outputs)
      if (id >= 0 && first[id] < 0) first[id] = step;
    for (int id : n.inputs)
      if (id >= 0) last[id] = step;
    for (int id : cg.nodes[k].captured) last[id] = step;
  }
  plan->step_plans.resize(plan->steps.size());
  for (std::size_t s = 0; s < plan->steps.size(); ++s)
    ONYX_TRY(executor_detail::plan_step(cg.nodes[plan->steps[s]], plan->st, pool, plan->step_plans[s]));
  // The intermediate tensors the arena holds.
  auto plannable = [&](int id) {
    const auto& t = plan->st.types[id];
    return first[id] >= 0 && !is_output[id] && !plan->st.known[id] && t.kind == value_kind::tensor && !t.optional &&
           t.type != dtype::string && t.shape.concrete_extents();
  };
  auto bytes_of = [&](int id) {
    const auto& t = plan->st.types[id];
    return storage_bytes(t.type, element_count(*t.shape.concrete_extents()));
  };
  // Inputs a kernel only copies into its output 0 (Concat at batch 1, see
  // planned::inputs_in_output) live inside that output's buffer: their
  // producers write them in place, the kernel skips their copies, and the
  // shared buffer lives from the first of them to the last reader of any.
  // An input joins one such buffer at most, and its offset must keep the
  // 64-byte alignment kernels may rely on. A Concat's output may itself join
  // a later Concat's (DenseNet's blocks, Concat(previous, new) layer after
  // layer: the whole block is then one buffer, each layer writing its
  // channels in place); offsets add up along the chain.
  std::vector<int> host(g.values.size(), -1);  // input placed in this value's buffer
  std::vector<std::size_t> offset_in_host(g.values.size(), 0);
  for (std::size_t s = 0; s < plan->steps.size(); ++s) {
    const auto& sp = plan->step_plans[s];
    if (!sp.planned || sp.kernel.inputs_in_output.empty()) continue;
    const auto& n = *cg.nodes[plan->steps[s]].node;
    const int out = n.outputs.empty() ? -1 : n.outputs[0];
    if (out < 0 || !plannable(out) || host[out] >= 0) continue;
    for (std::size_t i = 0; i < n.inputs.size() && i < sp.kernel.inputs_in_output.size(); ++i) {
      const int id = n.inputs[i];
      const std::int64_t at = sp.kernel.inputs_in_output[i];
      if (id < 0 || id == out || at < 0 || at % static_cast<std::int64_t>(tensor_alignment) != 0 || !plannable(id) ||
          host[id] >= 0 || cg.devices[id] != cg.devices[out] ||
          std::count(n.inputs.begin(), n.inputs.end(), id) != 1 ||
          static_cast<std::size_t>(at) + bytes_of(id) > bytes_of(out))
        continue;
      host[id] = out;
      offset_in_host[id] = static_cast<std::size_t>(at);
      first[out] = std::min(first[out], first[id]);
      last[out] = std::max(last[out], last[id]);
    }
  }
  // A kernel that accumulates into one of its inputs (planned::
  // overwrites_input: fused::Conv's residual Z) writes output 0 over that
  // input's buffer when it is the input's last reader: the two are one
  // buffer, from the input's first step to the output's last reader. Neither
  // may already share a buffer (above), and they must have the same bytes.
  std::vector<char> hosts(g.values.size(), 0);
  for (std::size_t id = 0; id < g.values.size(); ++id)
    if (host[id] >= 0) hosts[host[id]] = 1;
  for (std::size_t s = 0; s < plan->steps.size(); ++s) {
    const auto& sp = plan->step_plans[s];
    if (!sp.planned || sp.kernel.overwrites_input < 0) continue;
    const auto& n = *cg.nodes[plan->steps[s]].node;
    const auto i = static_cast<std::size_t>(sp.kernel.overwrites_input);
    const int out = n.outputs.empty() ? -1 : n.outputs[0];
    const int in = i < n.inputs.size() ? n.inputs[i] : -1;
    if (out < 0 || in < 0 || in == out || !plannable(out) || !plannable(in) || host[out] >= 0 || host[in] >= 0 ||
        hosts[out] || last[in] != static_cast<int>(s) || cg.devices[in] != cg.devices[out] ||
        std::count(n.inputs.begin(), n.inputs.end(), in) != 1 || bytes_of(in) != bytes_of(out))
      continue;
    host[out] = in;
    offset_in_host[out] = 0;
    hosts[in] = 1;
    last[in] = std::max(last[in], last[out]);
  }
  // One arena per device: tensors are planned among those of their device.
  plan->offsets.assign(g.values.size(), unplanned);
  for (int d = 0; d < device_kinds; ++d) {
    std::vector<live_range> ranges;
    for (std::size_t id = 0; id < g.values.size(); ++id) {
      const int v = static_cast<int>(id);
      if (static_cast<int>(cg.devices[id]) != d || !plannable(v) || host[id] >= 0) continue;
      ranges.push_back({v, first[id], std::max(last[id], first[id]), bytes_of(v)});
    }
    auto mp = plan_memory(ranges);
    for (std::size_t i = 0; i < ranges.size(); ++i) plan->offsets[ranges[i].value] = mp.offsets[i];
    // Scratch lives during its own step only, so every step's scratch starts
    // at one offset past the tensors: a kernel's per-thread buffers then sit
    // at the same addresses from layer to layer and stay in that core's
    // cache. (Placed among the tensors by liveness, each layer's im2col tiles
    // landed on other, cold lines: 2 threads, Inception-v2 took 47.8 ms
    // against 42.1 ms with per-call heap buffers.)
    const std::size_t scratch_at = (mp.arena_bytes + tensor_alignment - 1) / tensor_alignment * tensor_alignment;
    std::size_t scratch_bytes = 0;
    for (std::size_t s = 0; s < plan->steps.size(); ++s) {
      auto& sp = plan->step_plans[s];
      if (sp.planned && sp.kernel.scratch_bytes > 0 && static_cast<int>(cg.nodes[plan->steps[s]].backend->device) == d) {
        sp.scratch_offset = scratch_at;
        scratch_bytes = std::max(scratch_bytes, sp.kernel.scratch_bytes);
      }
    }
    plan->arena_bytes[d] = scratch_bytes ? scratch_at + scratch_bytes : mp.arena_bytes;
    if (cg.limits.max_arena && plan->arena_bytes[d] > cg.limits.max_arena)
      return failure(errc::resource_exhausted, "running graph '", g.name,
                     "' on inputs of these shapes needs an arena of ", byte_count(plan->arena_bytes[d]),
                     " for its tensors and kernel scratch, more than allowed (", byte_count(cg.limits.max_arena),
                     ", session_options::max_arena_bytes)");
  }
  for (std::size_t id = 0; id < g.values.size(); ++id) {
    if (host[id] < 0) continue;
    std::size_t at = 0;
    int root = static_cast<int>(id);
    for (; host[root] >= 0; root = host[root]) at += offset_in_host[root];
    plan->offsets[id] = plan->offsets[root] + at;  // roots are planned above, never members
  }
  return std::shared_ptr<const shaped_plan>(std::move(plan));
}

/// Watches the kernel calls of a run (the allocation test counts with it).
class step_observer {
 public:
  virtual ~step_observer() = default;
  virtual void before(const graph::node& n) = 0;
  virtual void after(const graph::node& n) = 0;
};

/// One run's state over one graph.
struct run_context {
  const shaped_plan* plan = nullptr;
  std::array<std::shared_ptr<void>, device_kinds> arenas;
  std::array<std::size_t, device_kinds> arena_bytes{};
  std::vector<value> slots;
  std::vector<std::vector<value*>> in_ptrs, out_ptrs;  // per step
  std::vector<char> reset_after_run;                   // per value
  op_profile* profile = nullptr;                       // set when the session profiles (profile.hpp)
  const std::atomic<bool>* terminate = nullptr;        // run_options::terminate: checked before each node
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();  // run_options::timeout
  step_observer* observer = nullptr;                   // called around each kernel call
};

namespace executor_detail {

/// Inference on actual values, for nodes whose output shapes the plan could
/// not know in advance.
class runtime_infer final : public ops::infer_context {
 public:
  runtime_infer(const graph::node& n, std::span<value* const> ins) : n_(n), ins_(ins) {
    for (auto* v : ins) {
      value_type t;
      if (!v || v->is_none()) t.kind = value_kind::none;
      else if (v->is_tensor()) t = {value_kind::tensor, v->as_tensor().type(), sym_shape(v->as_tensor().shape())};
      else if (v->is_sequence()) t = {value_kind::sequence, v->as_sequence().elem_type, sym_shape::unknown_rank()};
      else t.kind = v->kind();
      t.optional = v && v->is_optional();
      types_.push_back(std::move(t));
    }
    outs_.resize(n.outputs.size());
  }
  int input_count() const override { return static_cast<int>(ins_.size()); }
  int output_count() const override { return static_cast<int>(outs_.size()); }
  bool has_input(int i) const override { return i < input_count() && ins_[i] && !ins_[i]->is_none(); }
  const value_type& input(int i) const override { return types_[i]; }
  const tensor* input_value(int i) const override {
    return has_input(i) && ins_[i]->is_tensor() && ins_[i]->as_tensor().where().kind == device_kind::cpu
               ? &ins_[i]->as_tensor()
               : nullptr;
  }
  void set_output(int i, value_type t) override {
    if (i < output_count()) outs_[i] = std::move(t);
  }
  void set_output_value(int, tensor) override {}
  const std::string& node_name() const override { return n_.name; }
  ops::body_interface interface_of(const graph::graph& body) const override { return onyx::graph::interface_of(body); }

  std::vector<value_type> outs_;

 private:
  const graph::node& n_;
  std::span<value* const> ins_;
  std::vector<value_type> types_;
};

}  // namespace executor_detail

namespace executor_detail {
/// Whether run_options::terminate was set for `rc`'s run.
inline bool terminated(const run_context& rc) { return rc.terminate && rc.terminate->load(std::memory_order_relaxed); }
/// Whether `rc`'s run is past run_options::timeout.
inline bool past_deadline(const run_context& rc) {
  return rc.deadline != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() > rc.deadline;
}
}  // namespace executor_detail

class executor;

/// The kernel_context of one node during a run.
class node_context final : public kernel_context {
 public:
  node_context(const thread_pool* pool, const bound_node* node, run_context* rc)
      : pool_(pool), node_(node), rc_(rc) {}
  const thread_pool* pool() const override { return pool_; }
  /// Throws allocation_limit_error over the session's limits (the executor
  /// reports it as a status naming the node).
  tensor allocate(dtype t, const extents& shape) override {
    if (status s = check_allocation(limits_, t, shape, [] { return std::string("an output"); }); !s.ok()) {
#if defined(__cpp_exceptions)
      throw allocation_limit_error(s.message());
#else
      std::abort();
#endif
    }
    return allocate_on(node_->backend, t, shape, device{node_->backend->device});
  }
  void set_limits(const memory_limits& l) { limits_ = l; }
  status run_subgraph(int index, std::span<const value> inputs, std::vector<value>& outputs) override;
  bool stop_requested() const override {
    return executor_detail::terminated(*rc_) || executor_detail::past_deadline(*rc_);
  }
  int subgraph_index(const graph::graph* g) const override {
    const auto& sg = node_->node->subgraphs;
    for (std::size_t i = 0; i < sg.size(); ++i)
      if (sg[i].get() == g) return static_cast<int>(i);
    return -1;
  }

 private:
  const thread_pool* pool_;
  const bound_node* node_;
  run_context* rc_;
  memory_limits limits_;
};

namespace executor_detail {
/// errc::cancelled when `rc` was told to stop or is past its deadline.
inline status check_stop(const run_context& rc, const std::string_view before, const graph::node* n) {
  const std::string label = n ? n->label() : std::string();
  if (terminated(rc))
    return failure(errc::cancelled, "the run was terminated (run_options::terminate was set) ", before, label);
  if (past_deadline(rc))
    return failure(errc::cancelled, "the run passed its deadline (run_options::timeout) ", before, label);
  return ok();
}
}  // namespace executor_detail

/// Sets up `rc` for `plan` (a no-op when it already is) and binds the
/// inputs. Fails, leaving `rc` as it was, when the plan's arena (the tensors
/// and kernel scratch of these input shapes) cannot be allocated.
inline status bind_plan(const compiled_graph& cg, const shaped_plan* plan, run_context& rc) {
  const auto& g = *cg.g;
  for (int d = 0; plan && d < device_kinds; ++d)
    if (rc.arena_bytes[d] < plan->arena_bytes[d]) {
      auto arena = try_allocate_block(cg.device_backends[d], plan->arena_bytes[d]);
      if (!arena)
        return failure(errc::resource_exhausted, "running graph '", g.name, "' on inputs of these shapes needs ",
                       byte_count(plan->arena_bytes[d]), " for its tensors and kernel scratch, more than can be allocated");
      rc.arenas[d] = std::move(arena);
      rc.arena_bytes[d] = plan->arena_bytes[d];
      rc.plan = nullptr;
    }
  if (plan && rc.plan == plan) return ok();
  rc.plan = plan;
  rc.slots.assign(g.values.size(), value{});
  rc.reset_after_run.assign(g.values.size(), 1);
  const auto& st = plan ? plan->st : cg.types;
  for (std::size_t id = 0; id < g.values.size(); ++id) {
    if (g.values[id].constant) rc.slots[id] = *g.values[id].constant;
    else if (cg.released[id])  // its readers consumed it at prepare: type and shape only
      rc.slots[id] = tensor::view(nullptr, cg.types.types[id].type, *cg.types.types[id].shape.concrete_extents(),
                                  device{cg.devices[id]});
    else if (st.known[id]) {
      // Known on the host by inference; a device with memory of its own gets a copy.
      const backend_info* be = cg.device_backends[static_cast<int>(cg.devices[id])];
      if (be && be->allocate && be->from_host && st.known[id]->type() != dtype::string) {
        ONYX_ASSIGN(rc.slots[id], copy_to_device(be, *st.known[id], device{cg.devices[id]}));
      } else {
        rc.slots[id] = *st.known[id];
      }
    }
    else if (plan && plan->offsets[id] != unplanned) {
      const auto& t = st.types[id];
      auto d = cg.devices[id];
      rc.slots[id] = tensor::view(static_cast<char*>(rc.arenas[static_cast<int>(d)].get()) + plan->offsets[id],
                                  t.type, *t.shape.concrete_extents(), device{d});
    } else
      continue;
    rc.reset_after_run[id] = 0;
  }
  std::size_t steps = plan ? plan->steps.size() : cg.nodes.size();
  rc.in_ptrs.assign(steps, {});
  rc.out_ptrs.assign(steps, {});
  for (std::size_t s = 0; s < steps; ++s) {
    const auto& n = *cg.nodes[plan ? plan->steps[s] : s].node;
    for (int id : n.inputs) rc.in_ptrs[s].push_back(id >= 0 ? &rc.slots[id] : nullptr);
    for (int id : n.outputs) rc.out_ptrs[s].push_back(id >= 0 ? &rc.slots[id] : nullptr);
  }
  return ok();
}

/// Runs every step of `cg` with graph inputs already in rc.slots.
inline status execute(const compiled_graph& cg, const shaped_plan* plan, run_context& rc, const thread_pool* pool) {
  const auto& g = *cg.g;
  const auto& st = plan ? plan->st : cg.types;
  std::size_t steps = plan ? plan->steps.size() : cg.nodes.size();
  for (std::size_t s = 0; s < steps; ++s) {
    const bound_node& b = cg.nodes[plan ? plan->steps[s] : s];
    const auto& n = *b.node;
    if (rc.terminate || rc.deadline != std::chrono::steady_clock::time_point::max())
      ONYX_TRY(executor_detail::check_stop(rc, "before ", &n));
    auto& outs = rc.out_ptrs[s];
    // Outputs the plan did not place: graph outputs (fresh each run) and
    // values whose extents were unknown until now. One allocation path for
    // both (its message names output `id`).
    int id = -1;
    auto output_name = [&] { return message(n.label(), ": output '", g.values[id].name, "'"); };
    auto allocate = [&](value& out, dtype t, const extents& e) {
      ONYX_TRY(check_allocation(cg.limits, t, e, output_name));
      return catch_allocation_failure(
          [&] {
            out = allocate_on(cg.device_backends[static_cast<int>(cg.devices[id])], t, e, device{cg.devices[id]});
            return ok();
          },
          output_name);
    };
    bool need_infer = false;
    for (std::size_t i = 0; i < outs.size(); ++i) {
      id = n.outputs[i];
      if (id < 0 || !rc.reset_after_run[id]) continue;
      auto e = plan ? st.types[id].shape.concrete_extents() : std::nullopt;
      if (e && st.types[id].kind == value_kind::tensor && !st.types[id].optional)
        ONYX_TRY(allocate(*outs[i], st.types[id].type, *e));
      else
        need_infer = true;
    }
    if (need_infer) {
      executor_detail::runtime_infer inf(n, rc.in_ptrs[s]);
      status is = n.op->infer(n.attrs.get(), inf);
      if (!is.ok()) return std::move(is).with_context(n.label());
      for (std::size_t i = 0; i < outs.size(); ++i) {
        id = n.outputs[i];
        if (id < 0 || !rc.reset_after_run[id]) continue;
        const auto& t = inf.outs_[i];
        auto e = t.shape.concrete_extents();
        if (e && t.kind == value_kind::tensor && !t.optional && !(*outs[i]).is_tensor())
          ONYX_TRY(allocate(*outs[i], t.type, *e));
        else if (!(*outs[i]).is_tensor())
          *outs[i] = value{};  // the kernel allocates it
      }
    }
    for (std::size_t i = 0; i < rc.in_ptrs[s].size(); ++i) {
      if (n.inputs[i] < 0) continue;
      const value& v = *rc.in_ptrs[s][i];
      if (v.is_none() && !st.types[n.inputs[i]].optional)
        return failure(errc::internal, n.label(), ": input '", g.values[n.inputs[i]].name, "' has no value");
      // The device invariant: a kernel only ever reads its own device's
      // memory, and the host inputs it names (kernel_entry::host_inputs) on the host.
      const bool on_host = b.backend->device != device_kind::cpu && reads_on_host(*b.kernel, i);
      const device_kind want = on_host ? device_kind::cpu : b.backend->device;
      if (v.is_tensor() && b.kernel != &copy_kernel && v.as_tensor().where().kind != want)
        return failure(errc::internal, n.label(), ": input '", g.values[n.inputs[i]].name, "' is on ",
                       to_string(v.as_tensor().where()), ", the kernel reads it on ",
                       on_host ? std::string_view("cpu") : b.backend->name);
    }
    node_context ctx(pool, &b, &rc);
    ctx.set_limits(cg.limits);
    kernel_call c;
    c.attrs_ = n.attrs.get();
    c.state_ = b.state.get();
    c.in_ = rc.in_ptrs[s];
    c.out_ = outs;
    c.ctx_ = &ctx;
    const step_plan* sp = plan ? &plan->step_plans[s] : nullptr;
    const bool planned = sp && sp->planned && executor_detail::shapes_match(*sp, c.in_);
    if (planned) {
      c.plan_ = sp->kernel.object.get();
      c.scratch_ = std::span<std::byte>(
          static_cast<std::byte*>(rc.arenas[static_cast<int>(b.backend->device)].get()) + sp->scratch_offset,
          sp->kernel.scratch_bytes);
    }
    if (rc.observer) rc.observer->before(n);
#if !defined(ONYX_NO_PROFILE)
    const auto start = rc.profile ? op_profile::clock::now() : op_profile::clock::time_point{};
#endif
    // Allocation failures inside the kernel (its outputs over the limits,
    // its own buffers) end the run with the node named.
    status r = catch_allocation_failure([&] { return planned ? b.kernel->run(c) : run_with_plan_here(*b.kernel, c, pool, b.backend); },
                                        [&] { return std::string("allocating inside the kernel"); });
    if (rc.observer) rc.observer->after(n);
#if !defined(ONYX_NO_PROFILE)  // session.hpp: a program built without profiling records nothing
    if (rc.profile) {
      // An asynchronous device's kernel has only been queued: wait for it, so
      // the time is the node's and not whatever it queued behind.
      if (r.ok() && b.backend->synchronize) r = b.backend->synchronize();
      executor_detail::record(*rc.profile, b, c.in_, start, op_profile::clock::now() - start);
    }
#endif
    if (!r.ok()) return std::move(r).with_context(n.label());
  }
  return ok();
}

/// Releases what one run left in the slots (inputs, outputs, dynamic values).
inline void finish_run(run_context& rc) {
  for (std::size_t id = 0; id < rc.slots.size(); ++id)
    if (rc.reset_after_run[id]) rc.slots[id] = value{};
}

inline status node_context::run_subgraph(int index, std::span<const value> inputs, std::vector<value>& outputs) {
  if (!graph::subgraphs_enabled)
    return status(errc::unsupported, "this program runs no subgraphs (ONYX_NO_SUBGRAPHS)");
  if (index < 0 || index >= static_cast<int>(node_->subgraphs.size()))
    return failure(errc::internal, "subgraph ", index, " does not exist");
  if (!node_->subgraphs[index]) return node_->subgraph_errors[index];  // inference failed for it: see bound_node
  const compiled_graph& sub = *node_->subgraphs[index];
  const auto& g = *sub.g;
  if (inputs.size() != g.inputs.size())
    return status(errc::invalid_argument, "subgraph '" + g.name + "' takes " + std::to_string(g.inputs.size()) +
                                              " inputs, got " + std::to_string(inputs.size()));
  run_context rc;
  rc.terminate = rc_->terminate;
  rc.deadline = rc_->deadline;
  // A body may hold no node to check before (a Loop carrying its values
  // through): each call checks once.
  if (rc.terminate || rc.deadline != std::chrono::steady_clock::time_point::max())
    ONYX_TRY(executor_detail::check_stop(rc, "in subgraph '" + g.name + "'", nullptr));
  ONYX_TRY(bind_plan(sub, nullptr, rc));
  for (std::size_t i = 0; i < inputs.size(); ++i) rc.slots[g.inputs[i]] = inputs[i];
  for (std::size_t i = 0; i < g.captures.size(); ++i) rc.slots[g.captures[i]] = rc_->slots[sub.capture_sources[i]];
  if (status s = execute(sub, nullptr, rc, pool_); !s.ok()) return std::move(s).with_context("subgraph '" + g.name + "'");
  outputs.clear();
  for (int id : g.outputs) outputs.push_back(rc.slots[id]);
  return ok();
}

}  // namespace onyx::runtime
