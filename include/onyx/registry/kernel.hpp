// onyx/registry/kernel.hpp: the one ABI every kernel implements.
//
//   template <> struct kernel<ops::Relu, cpu> {
//     static constexpr std::array types{dtypes::floats};       // one set per signature slot
//     template <ops::signature S> static status run(const call<ops::Relu>&);
//     // optional: using state = ...;
//     //           template <ops::signature S> static result<state> prepare(const prepare_info<ops::Relu>&);
//     // optional: template <ops::signature S>
//     //           static result<planned<P>> plan(const plan_info<ops::Relu>&);
//     // optional: static bool accepts(const prepare_info<ops::Relu>&);
//   };
//
// A kernel is keyed by (op, backend, type signature). The registry crosses the
// per-slot dtype sets into signatures and instantiates `run<S>` for each; a
// kernel that is not listed is never instantiated.
//
// Lifecycle (XNNPACK's create / reshape / run):
//   - `prepare` runs once per node, with its constant inputs (packed weights).
//   - `plan` runs once per node and input-shape signature, with the prepared
//     state and the concrete input types. It returns a per-shape object P
//     (geometry, tiles, work split) and the scratch bytes `run` needs. The
//     executor places the scratch in the run's arena, live only during the
//     node's step. Outside a shaped plan (subgraph bodies, runtime::invoke)
//     the plan is made on the spot and the scratch allocated there.
//   - `run` reads them as `c.plan<P>()` and `c.scratch()`. A kernel that
//     declares `plan` always receives its plan; with them, `run` allocates
//     nothing but the outputs only it can size.
//
// A kernel that implements only part of its op (a GPU Attention without a KV
// cache) says which nodes it takes with `accepts`, asked at bind time with the
// node's attributes, input types and wanted outputs (no constant data, no
// pool): a node it refuses goes to the next listed backend that has a kernel.
//
// Constant inputs a kernel has made its own: a `prepare` that packs a constant
// input into its state and will never read the original's data again (not in
// `plan`, not in `run`, for any input shape) says so with
// `p.consume_constant(i)`. Once every node that reads that constant has
// consumed it, the session frees the tensor right after the last of those
// prepares, so the weights are not held twice (raw and packed). It stays when
// the constant is a graph output, a subgraph captures it, or any reader did
// not consume it. Afterwards `plan` and `run` still see the input with its
// dtype and shape (`has_input(i)` is true) but its data pointer is null.
// runtime::invoke (constant folding, tests) ignores the declaration.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "onyx/core/status.hpp"
#include "onyx/core/value.hpp"
#include "onyx/ops/op.hpp"

namespace onyx::graph {
struct graph;
}

namespace onyx {

class thread_pool;

/// Primary template: no kernel. Backends specialize it per op.
template <class Op, class Backend> struct kernel;

template <class Op, class Backend>
concept has_kernel = requires { kernel<Op, Backend>::types; };

/// The CPU backend. ISA selection happens inside it, by CPUID.
struct cpu {
  static constexpr std::string_view name = "cpu";
  static constexpr device_kind device = device_kind::cpu;
};

/// Per-run services a kernel may use.
class kernel_context {
 public:
  virtual ~kernel_context() = default;
  virtual const thread_pool* pool() const = 0;
  /// Allocates an output whose shape only the kernel can know (NonZero, ...).
  virtual tensor allocate(dtype t, const extents& shape) = 0;
  /// Runs subgraph `index` of the current node (If/Loop/Scan bodies).
  virtual status run_subgraph(int index, std::span<const value> inputs, std::vector<value>& outputs) = 0;
  /// The run_subgraph index of graph attribute `g` of the current node, or
  /// -1 (a node's graphs are numbered in the model's attribute order, which
  /// need not be the op's: If may list else_branch first).
  virtual int subgraph_index(const graph::graph* g) const {
    (void)g;
    return -1;
  }
  /// Whether the run was told to stop (run_options::terminate, or past
  /// run_options::timeout). The executor checks between nodes; a kernel whose
  /// one call can run long (Conv over a huge map) checks between blocks of
  /// work and returns kernel_call::stopped(). Safe from pool threads.
  virtual bool stop_requested() const { return false; }
};

/// One kernel invocation: attributes, prepared state, inputs and outputs.
class kernel_call {
 public:
  const void* attrs_ = nullptr;
  const void* state_ = nullptr;
  std::span<value* const> in_;
  std::span<value* const> out_;
  kernel_context* ctx_ = nullptr;
  const void* plan_ = nullptr;    // the kernel's per-shape plan, when it declares one
  std::span<std::byte> scratch_;  // the bytes that plan asked for, 64-byte aligned

  int input_count() const { return static_cast<int>(in_.size()); }
  int output_count() const { return static_cast<int>(out_.size()); }
  bool has_input(int i) const { return i < input_count() && in_[i] && !in_[i]->is_none(); }
  const tensor& input(int i) const { return in_[i]->as_tensor(); }
  const value& input_value(int i) const { return *in_[i]; }
  bool has_output(int i) const { return i < output_count() && out_[i]; }
  /// The output planned by the executor (shape and memory already set).
  tensor& output(int i) const { return out_[i]->as_tensor(); }
  value& output_value(int i) const { return *out_[i]; }
  /// Allocates output `i` with a shape decided by the kernel.
  tensor& allocate_output(int i, dtype t, const extents& shape) const {
    *out_[i] = ctx_->allocate(t, shape);
    return out_[i]->as_tensor();
  }
  kernel_context& context() const { return *ctx_; }
  /// See kernel_context::stop_requested.
  bool stop_requested() const { return ctx_ && ctx_->stop_requested(); }
  /// What a kernel returns when it stops early because stop_requested().
  static status stopped() {
    return status(errc::cancelled, "stopped inside the kernel: the run was terminated or passed its deadline "
                                   "(run_options::terminate, run_options::timeout)");
  }
  const thread_pool* pool() const { return ctx_->pool(); }
  template <class State> const State& state() const { return *static_cast<const State*>(state_); }
  /// The object the kernel's `plan` step returned for these input shapes.
  template <class P>
  const P& plan() const {
    return *static_cast<const P*>(plan_);
  }
  /// The scratch the plan asked for: uninitialized, valid during this call only.
  std::span<std::byte> scratch() const { return scratch_; }
  /// `count` elements of T at byte `offset` of the scratch (see scratch_layout).
  template <class T>
  T* scratch_at(std::size_t offset) const {
    return reinterpret_cast<T*>(scratch_.data() + offset);
  }
};

template <class Op> class call : public kernel_call {
 public:
  const typename Op::attributes& attrs() const { return *static_cast<const typename Op::attributes*>(attrs_); }
};

/// What `prepare` sees: once per node, before any run.
class prepare_info_base {
 public:
  const void* attrs_ = nullptr;
  std::span<const value_type> inputs_;
  std::span<const tensor* const> constants_;  // null where the input is not constant
  const thread_pool* pool_ = nullptr;
  std::span<char> consumed_;  // per input, set by consume_constant; empty: not recorded
  std::span<const char> outputs_;  // per output, 1 where the node wants it; empty: not recorded

  /// Whether the node wants output `i` (an optional output it names).
  bool wants_output(int i) const {
    return i < static_cast<int>(outputs_.size()) && outputs_[static_cast<std::size_t>(i)];
  }

  const value_type& input(int i) const { return inputs_[i]; }
  int input_count() const { return static_cast<int>(inputs_.size()); }
  /// Input `i` when it is a constant (an initializer), else nullptr.
  const tensor* constant(int i) const { return i < static_cast<int>(constants_.size()) ? constants_[i] : nullptr; }
  /// Declares that this kernel keeps what it needs of constant input `i` in
  /// its state and never reads the tensor's data again (see "Constant inputs
  /// a kernel has made its own" above). No effect where `i` is not constant.
  void consume_constant(int i) const {
    if (constant(i) && i < static_cast<int>(consumed_.size())) consumed_[static_cast<std::size_t>(i)] = 1;
  }
  const thread_pool* pool() const { return pool_; }
};

template <class Op> class prepare_info : public prepare_info_base {
 public:
  const typename Op::attributes& attrs() const { return *static_cast<const typename Op::attributes*>(attrs_); }
};

/// What `plan` sees: once per node and input-shape signature. Tensor inputs
/// have concrete shapes (`input_shape`); absent inputs are value_kind::none.
class plan_info_base {
 public:
  const void* attrs_ = nullptr;
  const void* state_ = nullptr;  // null when the kernel has no state
  std::span<const value_type> inputs_;
  const thread_pool* pool_ = nullptr;

  int input_count() const { return static_cast<int>(inputs_.size()); }
  bool has_input(int i) const { return i < input_count() && inputs_[i].kind != value_kind::none; }
  const value_type& input(int i) const { return inputs_[i]; }
  /// The extents of tensor input `i` (concrete by contract).
  extents input_shape(int i) const { return inputs_[i].shape.concrete_extents().value_or(extents{}); }
  const thread_pool* pool() const { return pool_; }
  template <class State>
  const State& state() const {
    return *static_cast<const State*>(state_);
  }
};

template <class Op>
class plan_info : public plan_info_base {
 public:
  const typename Op::attributes& attrs() const { return *static_cast<const typename Op::attributes*>(attrs_); }
};

/// What a kernel's `plan` returns: its per-shape object and scratch bytes,
/// and, for a kernel that only copies some inputs unchanged into output 0
/// (Concat), where each lands: `inputs_in_output[i]` is input i's byte offset
/// in output 0 when the input is copied there as one contiguous block, else
/// -1. The planner may then place such an input right there, so its producer
/// writes it in place; the kernel must skip the copy of an input whose data
/// already sits at its offset.
/// `overwrites_input` >= 0 says output 0 may take that input's buffer (same
/// bytes): the kernel reads each element of it before writing the same
/// element of output 0 (a residual accumulated in place). The planner gives
/// output 0 that buffer when this node is the input's last reader; the
/// kernel must work either way, checking whether the two share data.
template <class P>
struct planned {
  P plan;
  std::size_t scratch_bytes = 0;
  std::vector<std::int64_t> inputs_in_output;
  int overwrites_input = -1;
};

/// Lays out typed arrays in one scratch block, each 64-byte aligned: `plan`
/// records the offsets `add` returns, `run` reads them with c.scratch_at<T>.
struct scratch_layout {
  std::size_t bytes = 0;
  template <class T>
  std::size_t add(std::int64_t count) {
    const std::size_t offset = (bytes + 63) / 64 * 64;
    bytes = offset + static_cast<std::size_t>(std::max<std::int64_t>(count, 0)) * sizeof(T);
    return offset;
  }
};

/// The type-erased result of a plan step.
struct kernel_plan {
  std::shared_ptr<const void> object;
  std::size_t scratch_bytes = 0;
  std::vector<std::int64_t> inputs_in_output;  // see planned
  int overwrites_input = -1;                    // see planned
};

}  // namespace onyx
