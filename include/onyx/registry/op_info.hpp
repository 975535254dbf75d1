// onyx/registry/op_info.hpp: what the runtime knows about a registered op.
//
// The registry template turns each op struct and its kernels into one
// `op_info` in a constant table. Everything after it (loader, passes, planner,
// executor) is ordinary non-template code over `op_table`, compiled once.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/registry/kernel.hpp"

namespace onyx {

using run_fn = status (*)(const kernel_call&);
using prepare_fn = result<std::shared_ptr<const void>> (*)(const prepare_info_base&);
using plan_fn = result<kernel_plan> (*)(const plan_info_base&);
using accept_fn = bool (*)(const prepare_info_base&);
using parse_fn = result<std::shared_ptr<const void>> (*)(const std::vector<attribute>&);
using infer_fn = status (*)(const void* attrs, ops::infer_context&);
using expand_fn = status (*)(const void* attrs, ops::expand_context&);

/// An op's load-time functions, type-erased over its `attributes`.
struct op_semantics {
  parse_fn parse;
  infer_fn infer;
  expand_fn expand;  // null: no decomposition
};

struct kernel_entry {
  std::uint32_t key;  // ops::signature::key()
  ops::signature sig;
  run_fn run;
  prepare_fn prepare;  // null when the kernel needs no preparation
  plan_fn plan = nullptr;  // null when the kernel has no per-shape step
  /// Bit i: input i stays on the host when the kernel runs on a device (a
  /// shape, axes or sizes it reads on the host, or does not read at all):
  /// no copy is inserted for it. The kernel's `host_inputs`.
  std::uint32_t host_inputs = 0;
  /// Null: every node of the signature; else whether this node (kernel.hpp's `accepts`).
  accept_fn accepts = nullptr;
};

/// Host <-> device copies a non-host backend provides.
using copy_fn = status (*)(const tensor& from, tensor& to);
/// A block of a device's memory, freed with the last copy; null when it
/// cannot be had.
using allocate_fn = std::shared_ptr<void> (*)(std::size_t bytes);
/// Waits for the calling thread's queued work on an asynchronous device.
using synchronize_fn = status (*)();

struct backend_info {
  std::string_view name;
  device_kind device;
  copy_fn to_host;    // null for host devices that share memory
  copy_fn from_host;
  allocate_fn allocate = nullptr;  // null: the device's memory is host memory
  /// Null where kernels finish before they return (the CPU); a profiled run
  /// calls it after each of the backend's kernels, so the node's time is
  /// the device's, not the launch's (runtime/profile.hpp).
  synchronize_fn synchronize = nullptr;
};

/// One op's kernels on one backend.
struct backend_kernels {
  const backend_info* backend;
  std::span<const kernel_entry> entries;

  const kernel_entry* find(std::uint32_t key) const {
    for (auto& e : entries)
      if (e.key == key) return &e;
    return nullptr;
  }
};

struct op_info {
  std::string_view domain;
  std::string_view name;
  int since;
  int until;
  ops::arity inputs;
  ops::arity outputs;
  std::span<const ops::slot> signature;
  parse_fn parse;
  infer_fn infer;
  expand_fn expand;                        // null: no decomposition
  std::span<const backend_kernels> kernels;                   // in backend preference order
  bool deterministic = true;  // false: outputs are random (the op struct says so), never folded

  bool has_kernels() const {
    for (auto& k : kernels)
      if (!k.entries.empty()) return true;
    return false;
  }
  std::string qualified_name() const {
    return domain.empty() ? std::string(name) : std::string(domain) + "." + std::string(name);
  }
};

/// The ops and backends a registry holds, as plain data.
struct op_table {
  std::span<const op_info> ops;
  std::span<const backend_info* const> backends;

  /// The op whose opset range holds `opset`, or nullptr.
  const op_info* find(std::string_view domain, std::string_view name, int opset) const {
    for (auto& op : ops)
      if (op.name == name && op.domain == domain && op.since <= opset && opset <= op.until) return &op;
    return nullptr;
  }
  /// Any version of the op, for error messages that tell "wrong opset" from "unknown op".
  const op_info* find_any(std::string_view domain, std::string_view name) const {
    for (auto& op : ops)
      if (op.name == name && op.domain == domain) return &op;
    return nullptr;
  }
  /// The op at its latest semantics.
  const op_info* latest(std::string_view domain, std::string_view name) const {
    const op_info* best = nullptr;
    for (auto& op : ops)
      if (op.name == name && op.domain == domain && (!best || op.since > best->since)) best = &op;
    return best;
  }
};

}  // namespace onyx
