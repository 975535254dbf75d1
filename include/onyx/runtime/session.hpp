// onyx/runtime/session.hpp: the public entry point.
//
//   onyx::basic_session<my_registry> s{"model.onnx", {.threads = 2}};
//   auto outs = s.run({{"input", onyx::tensor::from(data, {1, 3, 224, 224})}});
//
// A session is immutable once created: `run` is const and may be called from
// several threads at once (each call takes its own run context). Creation runs
// the whole pipeline: load, normalize, infer, optimize, bind and prepare.
// Plans for concrete input shapes are made on first use and cached (LRU).
//
// This header never reaches protobuf. A session is made from a graph::model
// (built in C++, or by any loader); the path-taking forms read an .onnx file
// through graph::onnx_loader, so a program that uses them includes
// onyx/graph/loader.hpp (onyx::session, compiled into onyx_runtime, does).
#pragma once

#include <list>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <filesystem>

#include "onyx/graph/dump.hpp"
#include "onyx/graph/normalize.hpp"
#include "onyx/graph/resolve.hpp"
#include "onyx/registry/registry.hpp"
#include "onyx/runtime/executor.hpp"

namespace onyx {

namespace graph {
struct onnx_loader;  // onyx/graph/loader.hpp: .onnx files, through protobuf
}

struct session_options {
  /// Threads a run may use, the caller included; 0 = the hardware's count.
  int threads = 0;
  /// Run the optimization passes (constant folding, dead nodes, fusions).
  bool optimize = true;
  /// With `optimize`: run float16 and bfloat16 computation in float32, with
  /// Casts where a value enters or leaves such a region
  /// (graph/passes/compute_float16_in_float32.hpp). Outputs then differ from
  /// op-by-op float16 rounding by about float16's precision.
  bool compute_float16_in_float32 = true;
  /// Input-shape signatures whose plans are kept.
  std::size_t plan_cache_size = 8;
  /// When set, the main graph is written to this directory as text after
  /// each stage: 00_load.txt, 01_normalize.txt, 02_infer.txt, then one
  /// NN_<pass>.txt per optimization pass (graph/dump.hpp's format).
  std::filesystem::path dump_stages{};
};

/// One node of the prepared graph, as it will run.
struct node_info {
  std::string name;
  std::string op;       // qualified op type: "Conv", "onyx.fused.Conv", "onyx.Copy"
  std::string backend;  // where it runs: "cpu", ...
};

/// A graph input or output as the model declares it (shapes may be symbolic).
struct io_info {
  std::string name;
  value_type type;
};

using named_value = std::pair<std::string, value>;

namespace session_detail {
template <class T, class = void> inline constexpr bool complete = false;
template <class T> inline constexpr bool complete<T, std::void_t<decltype(sizeof(T))>> = true;
}  // namespace session_detail

#if defined(__cpp_exceptions)
/// What the throwing API throws: the status's code and message.
class error : public std::runtime_error {
 public:
  explicit error(const status& s) : std::runtime_error(s.message()), code_(s.code()) {}
  errc code() const { return code_; }

 private:
  errc code_;
};
#endif

/// A session over any op table. `basic_session<Registry>` and `session` are
/// the typed ways to make one.
class session_core {
 public:
  /// Prepares `m` (its nodes are bound to `ops` here when no loader bound
  /// them). Status-returning form for -fno-exceptions builds.
  static result<std::unique_ptr<session_core>> open(graph::model m, const op_table& ops,
                                                    const session_options& opt = {}) {
    std::unique_ptr<session_core> s(new session_core(ops, opt));
    ONYX_TRY(s->init(std::move(m)));
    return s;
  }
  /// Loads `path` with `Loader` (an .onnx file: include onyx/graph/loader.hpp)
  /// and prepares it.
  template <class Loader = graph::onnx_loader>
  static result<std::unique_ptr<session_core>> open(const std::filesystem::path& path, const op_table& ops,
                                                    const session_options& opt = {}) {
    std::unique_ptr<session_core> s(new session_core(ops, opt));
    ONYX_TRY(s->template init_from<Loader>(path));
    return s;
  }

  const std::vector<io_info>& inputs() const { return inputs_; }
  const std::vector<io_info>& outputs() const { return outputs_; }
  int threads() const { return pool_ ? pool_->size() : 1; }

  /// The main graph's nodes after optimization, in run order, each with the
  /// backend it was bound to (copies between devices included).
  std::vector<node_info> nodes() const {
    std::vector<node_info> out;
    for (const auto& b : main_->nodes)
      out.push_back({b.node->name, b.node->op->qualified_name(), std::string(b.backend->name)});
    return out;
  }

  /// Runs the model. `inputs` are matched by name; every graph input must be
  /// given. Fills `outputs` in graph-output order. Never throws.
  status run(std::span<const named_value> inputs, std::vector<value>& outputs) const {
    const auto& g = *main_->g;
    std::vector<const value*> given(g.inputs.size(), nullptr);
    for (const auto& [name, v] : inputs) {
      auto it = std::find_if(inputs_.begin(), inputs_.end(), [&](const io_info& i) { return i.name == name; });
      if (it == inputs_.end()) return status(errc::invalid_argument, "the model has no input '" + name + "'; its inputs are " + input_list());
      given[it - inputs_.begin()] = &v;
    }
    std::vector<value_type> types(g.inputs.size());
    std::vector<extents> key(g.inputs.size());
    for (std::size_t i = 0; i < g.inputs.size(); ++i) {
      if (!given[i]) return status(errc::invalid_argument, "input '" + inputs_[i].name + "' is missing; the model's inputs are " + input_list());
      ONYX_TRY(check_input(inputs_[i], *given[i]));
      if (given[i]->is_tensor()) {
        key[i] = given[i]->as_tensor().shape();
        types[i] = {value_kind::tensor, given[i]->as_tensor().type(), sym_shape(key[i]), inputs_[i].type.optional};
      } else {
        types[i] = inputs_[i].type;
      }
    }
    ONYX_ASSIGN(auto plan, plan_for(std::move(types), std::move(key)));

    auto rc = acquire();
    rc->profile = profile_.get();
    if (profile_) profile_->count_run();
    ONYX_TRY(runtime::bind_plan(*main_, plan.get(), *rc));
    for (std::size_t i = 0; i < g.inputs.size(); ++i) rc->slots[g.inputs[i]] = *given[i];
    status st = runtime::execute(*main_, plan.get(), *rc, pool_.get());
    outputs.clear();
    if (st.ok())
      for (int id : g.outputs) {
        value v = rc->slots[id];
        // Constants and inputs handed straight through are copied, so the
        // caller never aliases the session's memory.
        if (!rc->reset_after_run[id] && v.is_tensor()) v = v.as_tensor().clone();
        outputs.push_back(std::move(v));
      }
    runtime::finish_run(*rc);
    release(std::move(rc));
    return st;
  }

#if defined(__cpp_exceptions)
  /// Runs the model and returns its outputs in graph-output order; throws
  /// onyx::error on bad inputs or a failing kernel.
  std::vector<value> run(const std::vector<named_value>& inputs) const {
    std::vector<value> outs;
    if (status s = run(std::span<const named_value>(inputs), outs); !s.ok()) throw error(s);
    return outs;
  }
#endif

  virtual ~session_core() {
    if (profile_) std::fputs(profile_->report().c_str(), stderr);
  }

 protected:
  session_core(const op_table& ops, const session_options& opt) : ops_(ops), opt_(opt) {
    int threads = opt.threads > 0 ? opt.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#if !defined(ONYX_THREADS_SERIAL)
    if (threads > 1) pool_ = std::make_unique<thread_pool>(threads);
#else
    (void)threads;  // the serial thread policy: no pool, every run on the caller's thread
#endif
    profile_ = runtime::op_profile::from_environment();
  }

#if defined(__cpp_exceptions)
  static void throw_if(status s) {
    if (!s.ok()) throw error(s);
  }
#endif

  template <class Loader> status init_from(const std::filesystem::path& path) {
    static_assert(session_detail::complete<Loader>,
                  "reading a model file needs its loader: include onyx/graph/loader.hpp for .onnx files");
    ONYX_ASSIGN(model_, Loader::load(path, ops_));
    status st = prepare();
    if (!st.ok()) return std::move(st).with_context(path.filename().string());
    return ok();
  }

  status init(graph::model m) {
    model_ = std::move(m);
    return prepare();
  }

  status prepare() {
#if defined(ONYX_NO_OPTIMIZER)
    // A program that runs only optimized models (compact ones) holds neither
    // the passes nor the stage dumps (runtime/compiled_graph.hpp).
    if (!model_.optimized)
      return status(errc::unsupported, "this program runs only optimized models (onyx-ops writes them)");
    auto dump = [](std::string_view, const graph::graph&) { return ok(); };
#else
    graph::stage_dumper dump(opt_.dump_stages);
#endif
    ONYX_TRY(graph::resolve_ops(model_, ops_));
    ONYX_TRY(dump("load", *model_.main));
    ONYX_TRY(graph::normalize(*model_.main, ops_));
    ONYX_TRY(dump("normalize", *model_.main));
    runtime::compile_options co{opt_.optimize && !model_.optimized, pool_.get(), ops_, {}, {opt_.compute_float16_in_float32}};
#if !defined(ONYX_NO_OPTIMIZER)
    if (dump.enabled())
      co.after_stage = [&dump](std::string_view stage, const graph::graph& g, const graph::inferred& st) {
        return dump(stage, g, &st);
      };
#endif
    ONYX_ASSIGN(main_, runtime::compile(model_.main, co));
    const auto& g = *main_->g;
    for (int id : g.inputs) inputs_.push_back({g.values[id].name, g.values[id].type});
    for (int id : g.outputs) outputs_.push_back({g.values[id].name, main_->types.types[id]});
    return ok();
  }

 private:
  std::string input_list() const {
    std::string s;
    for (const auto& i : inputs_)
      s += (s.empty() ? "" : ", ") + i.name + " (" + std::string(name(i.type.type)) + " " + i.type.shape.str() + ")";
    return s.empty() ? "none" : s;
  }

  static status check_input(const io_info& want, const value& v) {
    if (v.is_none() && want.type.optional) return ok();
    if (want.type.kind == value_kind::tensor && !v.is_tensor())
      return status(errc::invalid_argument, "input '" + want.name + "' must be a tensor");
    if (!v.is_tensor()) return ok();
    const tensor& t = v.as_tensor();
    if (t.type() != want.type.type)
      return status(errc::invalid_argument, "input '" + want.name + "' has dtype " + std::string(name(t.type())) +
                                                ", expected " + std::string(name(want.type.type)));
    const auto& s = want.type.shape;
    if (!s.rank_known) return ok();
    bool match = s.rank() == t.rank();
    for (std::size_t d = 0; match && d < s.rank(); ++d)
      if (s[d].known() && s[d].value() != t.dim(d)) match = false;
    if (!match)
      return status(errc::invalid_argument, "input '" + want.name + "' has shape " + sym_shape(t.shape()).str() +
                                                ", expected " + s.str());
    return ok();
  }

  result<std::shared_ptr<const runtime::shaped_plan>> plan_for(std::vector<value_type> types,
                                                               std::vector<extents> key) const {
    std::lock_guard lock(plan_mutex_);
    for (auto it = plans_.begin(); it != plans_.end(); ++it)
      if ((*it)->key == key) {
        plans_.splice(plans_.begin(), plans_, it);  // most recently used first
        return plans_.front();
      }
    ONYX_ASSIGN(auto plan, runtime::make_shaped_plan(*main_, std::move(types), std::move(key), pool_.get()));
    plans_.push_front(plan);
    if (plans_.size() > opt_.plan_cache_size) plans_.pop_back();
    return plan;
  }

  std::unique_ptr<runtime::run_context> acquire() const {
    std::lock_guard lock(context_mutex_);
    if (contexts_.empty()) return std::make_unique<runtime::run_context>();
    auto rc = std::move(contexts_.back());
    contexts_.pop_back();
    return rc;
  }
  void release(std::unique_ptr<runtime::run_context> rc) const {
    std::lock_guard lock(context_mutex_);
    contexts_.push_back(std::move(rc));
  }

  op_table ops_;
  session_options opt_;
  std::unique_ptr<thread_pool> pool_;
  std::unique_ptr<runtime::op_profile> profile_;  // ONYX_PROFILE
  graph::model model_;
  std::shared_ptr<const runtime::compiled_graph> main_;
  std::vector<io_info> inputs_, outputs_;

  mutable std::mutex plan_mutex_;
  mutable std::list<std::shared_ptr<const runtime::shaped_plan>> plans_;
  mutable std::mutex context_mutex_;
  mutable std::vector<std::unique_ptr<runtime::run_context>> contexts_;
};

/// A session over the ops and backends of `Registry`, compiled into the
/// caller's program (header-only use).
template <class Registry> class basic_session : public session_core {
 public:
#if defined(__cpp_exceptions)
  /// Loads and prepares `path` with `Loader` (include onyx/graph/loader.hpp
  /// for .onnx files); throws onyx::error naming what is wrong.
  template <class Loader = graph::onnx_loader>
  explicit basic_session(const std::filesystem::path& path, const session_options& opt = {})
      : session_core(Registry::table(), opt) {
    throw_if(this->template init_from<Loader>(path));
  }
  /// Prepares a model already in graph form (no file, no protobuf).
  explicit basic_session(graph::model m, const session_options& opt = {}) : session_core(Registry::table(), opt) {
    throw_if(init(std::move(m)));
  }
#endif
  template <class Loader = graph::onnx_loader>
  static result<std::unique_ptr<session_core>> open(const std::filesystem::path& path,
                                                    const session_options& opt = {}) {
    return session_core::open<Loader>(path, Registry::table(), opt);
  }
  static result<std::unique_ptr<session_core>> open(graph::model m, const session_options& opt = {}) {
    return session_core::open(std::move(m), Registry::table(), opt);
  }
};

}  // namespace onyx
