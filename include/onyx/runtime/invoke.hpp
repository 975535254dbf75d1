// onyx/runtime/invoke.hpp: one kernel, run once, outside any session run.
//
// Value propagation and constant folding (runtime::evaluate_node) and the op
// unit tests (test/unit/op_harness.hpp) run a kernel on known inputs: prepare
// it if it has state, allocate the outputs whose shape inference fixed, make
// its per-shape plan and scratch on the spot, call it.
#pragma once

#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <vector>

#include "onyx/registry/op_info.hpp"
#include "onyx/core/thread_pool.hpp"

namespace onyx::runtime {

/// A kernel_context for running a kernel outside a session run: outputs are
/// host tensors left for the kernel to write, as a session's are, and there
/// are no subgraphs.
class standalone_context final : public kernel_context {
 public:
  explicit standalone_context(const thread_pool* pool) : pool_(pool) {}
  const thread_pool* pool() const override { return pool_; }
  tensor allocate(dtype t, const extents& shape) override { return tensor::uninitialized(t, shape); }
  status run_subgraph(int, std::span<const value>, std::vector<value>&) override {
    return status(errc::unsupported, "subgraphs cannot run outside a session");
  }

 private:
  const thread_pool* pool_;
};

/// Why an allocation of the runtime's own failed: std::bad_alloc (reported
/// as errc::resource_exhausted by catch_allocation_failure), or an abort
/// without exceptions, as tensor::uninitialized does.
[[noreturn]] inline void out_of_memory() {
#if defined(__cpp_exceptions)
  throw std::bad_alloc();
#else
  std::abort();
#endif
}

/// `bytes` in the memory of backend `be`: its own (a GPU's) where it has
/// some, else the host's; null when it cannot be had.
inline std::shared_ptr<void> try_allocate_block(const backend_info* be, std::size_t bytes) {
  return be && be->allocate ? be->allocate(bytes) : try_allocate_aligned(bytes);
}

/// As try_allocate_block, failing through out_of_memory().
inline std::shared_ptr<void> allocate_block(const backend_info* be, std::size_t bytes) {
  auto block = try_allocate_block(be, bytes);
  if (!block) out_of_memory();
  return block;
}

/// Runs `k` on the call `c` (inputs, outputs, attributes and state set),
/// first making its per-shape plan for the actual input shapes and allocating
/// its scratch, when the kernel has a plan step. For calls outside a shaped
/// plan: subgraph bodies, nodes whose input shapes the plan could not know,
/// runtime::invoke.
inline status run_with_plan_here(const kernel_entry& k, kernel_call& c, const thread_pool* pool,
                                 const backend_info* backend = nullptr) {
  if (!k.plan) return k.run(c);
  std::vector<value_type> types(c.in_.size());
  for (std::size_t i = 0; i < c.in_.size(); ++i) {
    const value* v = c.in_[i];
    if (!v || v->is_none())
      types[i].kind = value_kind::none;
    else if (v->is_tensor())
      types[i] = {value_kind::tensor, v->as_tensor().type(), sym_shape(v->as_tensor().shape())};
    else
      types[i].kind = v->kind();
  }
  plan_info_base p;
  p.attrs_ = c.attrs_;
  p.state_ = c.state_;
  p.inputs_ = types;
  p.pool_ = pool;
  ONYX_ASSIGN(kernel_plan kp, k.plan(p));
  std::shared_ptr<void> scratch = allocate_block(backend, kp.scratch_bytes);  // on the kernel's device
  c.plan_ = kp.object.get();
  c.scratch_ = std::span<std::byte>(static_cast<std::byte*>(scratch.get()), kp.scratch_bytes);
  return k.run(c);
}

/// Runs kernel `k` once. `inputs[i]` is null for an omitted input;
/// `outputs[i]` is the inferred type of output i, or null where the output is
/// not wanted. An output whose shape inference left open is allocated by the
/// kernel. Unwanted outputs come back empty.
inline result<std::vector<tensor>> invoke(const kernel_entry& k, const void* attrs,
                                          std::span<const tensor* const> inputs,
                                          std::span<const value_type* const> outputs,
                                          const thread_pool* pool) {
  std::vector<value> in_values(inputs.size()), out_values(outputs.size());
  std::vector<value_type> in_types(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i]) {
      in_values[i] = *inputs[i];
      in_types[i] = {value_kind::tensor, inputs[i]->type(), sym_shape(inputs[i]->shape())};
    } else {
      in_types[i].kind = value_kind::none;
    }
  for (std::size_t i = 0; i < outputs.size(); ++i)
    if (outputs[i])
      if (auto e = outputs[i]->shape.concrete_extents()) out_values[i] = tensor::uninitialized(outputs[i]->type, *e);

  std::shared_ptr<const void> state;
  if (k.prepare) {
    prepare_info_base p;
    p.attrs_ = attrs;
    p.inputs_ = in_types;
    p.constants_ = inputs;
    p.pool_ = pool;
    ONYX_ASSIGN(state, k.prepare(p));
  }
  std::vector<value*> in_ptrs, out_ptrs;
  for (std::size_t i = 0; i < in_values.size(); ++i) in_ptrs.push_back(inputs[i] ? &in_values[i] : nullptr);
  for (std::size_t i = 0; i < out_values.size(); ++i) out_ptrs.push_back(outputs[i] ? &out_values[i] : nullptr);
  standalone_context ctx(pool);
  kernel_call c;
  c.attrs_ = attrs;
  c.state_ = state.get();
  c.in_ = in_ptrs;
  c.out_ = out_ptrs;
  c.ctx_ = &ctx;
  ONYX_TRY(run_with_plan_here(k, c, pool));
  std::vector<tensor> out;
  for (auto& v : out_values) out.push_back(v.is_tensor() ? v.as_tensor() : tensor{});
  return out;
}

}  // namespace onyx::runtime
