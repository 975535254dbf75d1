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
//
// What a program may leave out, defined for the whole program (the trimmed
// programs of onyx_add_inference_executable define the first three, the
// fourth with THREADS serial, and the last two as their op list says):
//   ONYX_NO_OPTIMIZER    runs optimized models only (compact ones): no
//                        normalization, passes, stage dumps or .onnx writing,
//                        nor op resolution (such a model comes bound)
//   ONYX_NO_PROFILE      no profiler: profile_file and profile_summary are
//                        refused, ONYX_PROFILE and ONYX_PROFILE_FILE ignored
//   ONYX_HOST_ONLY       every backend runs on the host: no device copies
//   ONYX_THREADS_SERIAL  no thread pool: every run on the caller's thread
//   ONYX_NO_SUBGRAPHS    runs models without subgraphs (If, Loop, Scan,
//                        SequenceMap bodies) only: no subgraph inference,
//                        compilation or running; onyx-ops' op list defines it
//                        when its models hold none
//   ONYX_NO_PROPAGATION  inference runs no kernel to propagate values (with
//                        ONYX_NO_OPTIMIZER): values computed from shapes are
//                        computed when the model runs, and tensors whose
//                        shapes depend on them are allocated then; onyx-ops'
//                        op list defines it when every input has a static
//                        shape (its folding then left nothing to propagate)
#pragma once

#include <atomic>
#include <chrono>
#include <list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <filesystem>

#include "onyx/core/host_memory.hpp"
#include "onyx/core/message.hpp"
#include "onyx/graph/dump.hpp"
#include "onyx/graph/free_dimensions.hpp"
#include "onyx/graph/normalize.hpp"
#include "onyx/graph/resolve.hpp"
#include "onyx/registry/registry.hpp"
#include "onyx/runtime/executor.hpp"
#include "onyx/runtime/optimize.hpp"

namespace onyx {

namespace graph {
struct onnx_loader;  // onyx/graph/loader.hpp: .onnx files, through protobuf
}

struct session_options {
  /// Threads a run may use, the caller included; 0 = the hardware's count.
  int threads = 0;
  /// Run the optimization passes (constant folding, dead nodes, fusions).
  /// false is the same as `optimization_level::none`.
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
  std::string dump_stages{};
  /// Which passes run, as ONNX Runtime's levels (graph/passes/passes.hpp):
  /// none, basic (folding, eliminations, rewrites into standard ops),
  /// extended (fusions into onyx.fused.* ops), all (layout too).
  graph::passes::optimization_level optimization_level = graph::passes::optimization_level::all;
  /// Values for symbolic dims of the graph inputs, by the symbol's name
  /// (`{"batch", 4}`): fixed before inference, so planning and passes see
  /// them. A name that no input dim carries is an error.
  std::map<std::string, std::int64_t, std::less<>> free_dimensions{};
  /// When set, the model after the optimization passes is written here as an
  /// .onnx file (onyx's fused ops in their own domain, `onyx.fused`), which
  /// onyx loads again. Needs the .onnx writer: onyx::session, or a Loader
  /// with `save` (graph/loader.hpp's onnx_loader; graph/onnx_writer.hpp).
  std::string optimized_model_filepath{};
  /// When set, a Chrome trace of every kernel call and of the session's
  /// creation is written here (runtime/profile.hpp) by end_profiling() or
  /// when the session is destroyed. Unset: ONYX_PROFILE_FILE, if given.
  std::string profile_file{};
  /// Keep kernel time per op type (profile_summary()).
  bool profile_summary = false;
  /// The largest single tensor a run or constant folding may allocate, in
  /// bytes; 0: the machine's physical memory. A node asking for more fails
  /// with errc::resource_exhausted naming the node and the size.
  std::size_t max_allocation_bytes = 0;
  /// The largest arena (planned intermediate tensors and kernel scratch) of
  /// one run, in bytes; 0: the machine's physical memory.
  std::size_t max_arena_bytes = 0;
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

/// Per-run settings.
struct run_options {
  /// When this becomes true (from any thread), the run stops before its next
  /// node and returns errc::cancelled; the session stays usable.
  const std::atomic<bool>* terminate = nullptr;
  /// When positive, the run stops before the first node (or subgraph call,
  /// such as a Loop iteration) that starts later than this after the run
  /// began, and returns errc::cancelled. A kernel already running finishes.
  std::chrono::nanoseconds timeout{0};
};

/// What the model file says about itself (ModelProto's description fields).
struct model_metadata {
  std::string producer, producer_version, domain, graph_name, description, graph_description;
  std::int64_t version = 0;
  std::map<std::string, std::string> custom;  // metadata_props
};

namespace session_detail {
template <class T, class = void> inline constexpr bool complete = false;
template <class T> inline constexpr bool complete<T, std::void_t<decltype(sizeof(T))>> = true;
}  // namespace session_detail

// onyx::error, what the throwing API throws, is in core/status.hpp.

/// A session over any op table. `basic_session<Registry>` and `session` are
/// the typed ways to make one.
class session_core {
 public:
  /// Prepares `m` (its nodes are bound to `ops` here when no loader bound
  /// them). Status-returning form for -fno-exceptions builds.
  static result<std::unique_ptr<session_core>> open(graph::model m, const op_table& ops,
                                                    const session_options& opt = {}) {
    const host_memory_scope creating;
    std::unique_ptr<session_core> s(new session_core(ops, opt));
    ONYX_TRY(catch_allocation_failure([&] { return s->init(std::move(m)); },
                                      [] { return std::string("creating the session"); }));
    return s;
  }
  /// Loads `path` with `Loader` (an .onnx file: include onyx/graph/loader.hpp)
  /// and prepares it.
  template <class Loader = graph::onnx_loader>
  static result<std::unique_ptr<session_core>> open(const std::string& path, const op_table& ops,
                                                    const session_options& opt = {}) {
    const host_memory_scope creating;
    std::unique_ptr<session_core> s(new session_core(ops, opt));
    ONYX_TRY(catch_allocation_failure([&] { return s->template init_from<Loader>(path); },
                                      [&] { return file_name(path); }));
    return s;
  }

  const std::vector<io_info>& inputs() const { return inputs_; }
  const std::vector<io_info>& outputs() const { return outputs_; }
  int threads() const { return pool() ? pool()->size() : 1; }

  /// The main graph's nodes after optimization, in run order, each with the
  /// backend it was bound to (copies between devices included).
  std::vector<node_info> nodes() const {
    std::vector<node_info> out;
    for (const auto& b : main_->nodes)
      out.push_back({b.node->name, b.node->op->qualified_name(), std::string(b.backend->name)});
    return out;
  }

  /// The model's description (producer, version, graph name, doc strings,
  /// custom metadata).
  model_metadata metadata() const {
    return {model_.producer,    model_.producer_version, model_.domain,       model_.main ? model_.main->name : "",
            model_.doc_string, model_.graph_doc_string, model_.model_version, model_.metadata_props};
  }

  /// Kernel time per op type so far (a table), when the session keeps it
  /// (session_options::profile_summary, ONYX_PROFILE); else "".
  std::string profile_summary() const { return profile() ? profile()->report() : std::string(); }
  /// Starts the table of profile_summary() afresh (onyx-run does after its
  /// warm-up runs); the Chrome trace keeps every call.
  void restart_profile_summary() const {
    if (profile()) profile()->restart_summary();
  }
  /// The Chrome trace's path ("" when the session does not trace).
  std::filesystem::path profile_file() const {
    return profile() ? profile()->trace_file() : std::filesystem::path();
  }
  /// Writes the Chrome trace (when tracing) and stops recording it.
  status end_profiling() const { return profile() ? profile()->end_tracing() : ok(); }
  /// The level of the CPU micro-kernels the trace names for each node
  /// (onyx::session sets it).
  void set_profile_isa(std::string isa) {
    if (profile()) profile()->set_isa(std::move(isa));
  }

  /// Runs the model. `inputs` are matched by name; every graph input must be
  /// given. Fills `outputs` in graph-output order. Never throws.
  status run(std::span<const named_value> inputs, std::vector<value>& outputs) const {
    return run(inputs, outputs, run_options{});
  }

  /// The same, with per-run settings (terminate, timeout). Thread-safe.
  /// Memory running out anywhere in the run is errc::resource_exhausted.
  status run(std::span<const named_value> inputs, std::vector<value>& outputs, const run_options& ro) const {
    return catch_allocation_failure([&] { return run_unguarded(inputs, outputs, ro); },
                                    [] { return std::string("run"); });
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

 private:
  status run_unguarded(std::span<const named_value> inputs, std::vector<value>& outputs, const run_options& ro) const {
    const auto& g = *main_->g;
    std::vector<const value*> given(g.inputs.size(), nullptr);
    for (const auto& [name, v] : inputs) {
      auto it = std::find_if(inputs_.begin(), inputs_.end(), [&](const io_info& i) { return i.name == name; });
      if (it == inputs_.end())
        return failure(errc::invalid_argument, "the model has no input '", name, "'; its inputs are ", input_list());
      given[it - inputs_.begin()] = &v;
    }
    std::vector<value_type> types(g.inputs.size());
    std::vector<extents> key(g.inputs.size());
    for (std::size_t i = 0; i < g.inputs.size(); ++i) {
      if (!given[i])
        return failure(errc::invalid_argument, "input '", inputs_[i].name, "' is missing; the model's inputs are ",
                       input_list());
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
    rc->profile = profile();
    rc->terminate = ro.terminate;
    rc->deadline = ro.timeout.count() > 0 ? std::chrono::steady_clock::now() + ro.timeout
                                          : std::chrono::steady_clock::time_point::max();
    if (profile()) profile()->count_run();
    ONYX_TRY(runtime::bind_plan(*main_, plan.get(), *rc));
    for (std::size_t i = 0; i < g.inputs.size(); ++i) rc->slots[g.inputs[i]] = *given[i];
    status st = runtime::execute(*main_, plan.get(), *rc, pool());
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
    rc->terminate = nullptr;
    release(std::move(rc));
    return st;
  }

 public:
  virtual ~session_core() {
    runtime::op_profile* p = profile();
    if (!p) return;
    if (p->print_at_exit()) std::fputs(p->report().c_str(), stderr);
    if (status s = p->end_tracing(); !s.ok()) std::fprintf(stderr, "onyx: %s\n", s.message().c_str());
  }

 protected:
  session_core(const op_table& ops, const session_options& opt) : ops_(ops), opt_(opt) {
#if !defined(ONYX_THREADS_SERIAL)  // the serial thread policy: no pool, every run on the caller's thread
    int threads = opt.threads > 0 ? opt.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (threads > 1) pool_ = std::make_unique<thread_pool>(threads);
#endif
#if !defined(ONYX_NO_PROFILE)
    profile_ = runtime::op_profile::from_environment();
    if (!profile_ && (opt.profile_summary || !opt.profile_file.empty()))
      profile_ = std::make_unique<runtime::op_profile>();
    if (profile_ && !opt.profile_file.empty()) profile_->set_trace_file(opt.profile_file);
#endif
  }

#if defined(__cpp_exceptions)
  static void throw_if(status s) {
    if (!s.ok()) throw error(s);
  }
#endif

  template <class Loader> status init_from(const std::string& path) {
    static_assert(session_detail::complete<Loader>,
                  "reading a model file needs its loader: include onyx/graph/loader.hpp for .onnx files");
    const auto t0 = runtime::op_profile::clock::now();
    ONYX_ASSIGN(model_, Loader::load(path, ops_));
    if (profile()) profile()->add_stage("load", t0);
    status st = prepare<Loader>();
    if (!st.ok()) return std::move(st).with_context(file_name(path));
    return ok();
  }

  status init(graph::model m) {
    model_ = std::move(m);
    return prepare<graph::onnx_loader>();
  }

  /// Whether `W::save(model, path)` exists (the .onnx loader's, when included).
  template <class W> static constexpr bool can_save() {
    if constexpr (session_detail::complete<W>)
      return requires(const graph::model& m, const std::string& p) { W::save(m, p); };
    else
      return false;
  }

  /// `Writer::save` writes optimized_model_filepath (the .onnx loader has it).
  template <class Writer> status prepare() {
#if defined(ONYX_NO_PROFILE)
    if (opt_.profile_summary || !opt_.profile_file.empty())
      return status(errc::unsupported, "this program was built without profiling (ONYX_NO_PROFILE)");
#endif
#if defined(ONYX_NO_OPTIMIZER)
    // A program that runs only optimized models (compact ones) holds neither
    // the passes nor the stage dumps (runtime/compiled_graph.hpp), nor
    // normalization: onyx-ops normalized the model before optimizing it.
    if (!model_.optimized)
      return status(errc::unsupported, "this program runs only optimized models (onyx-ops writes them)");
    auto dump = [](std::string_view, const graph::graph&) { return ok(); };
#else
    graph::stage_dumper dump(opt_.dump_stages);
#endif
    using clock = runtime::op_profile::clock;
    auto stage_start = clock::now();
    auto stage_done = [&](std::string_view stage) {
      if (profile()) profile()->add_stage(std::string(stage), stage_start);
      stage_start = clock::now();
    };
#if defined(ONYX_NO_SUBGRAPHS)
    if (model_.main)
      for (const auto& n : model_.main->nodes)
        if (!n.subgraphs.empty())
          return failure(errc::unsupported, n.label(), ": holds a subgraph, and this program runs none (ONYX_NO_SUBGRAPHS)");
#endif
#if defined(ONYX_NO_OPTIMIZER)
    // An optimized model comes bound to its ops: the compact reader binds
    // each node and names every op the table lacks, optimize_model resolves.
    if (!model_.main) return status(errc::invalid_model, "the model has no graph");
    auto unbound = [](const graph::graph& g, auto& self) -> const graph::node* {
      for (const auto& n : g.nodes) {
        if (!n.op) return &n;
        if (graph::subgraphs_enabled)
          for (const auto& sg : n.subgraphs)
            if (const graph::node* u = self(*sg, self)) return u;
      }
      return nullptr;
    };
    if (const graph::node* n = unbound(*model_.main, unbound))
      return failure(errc::invalid_model, n->label(), ": not bound to an op (an optimized model's nodes are bound when it is read)");
#else
    ONYX_TRY(graph::resolve_ops(model_, ops_));
#endif
    ONYX_TRY(graph::fix_free_dimensions(*model_.main, opt_.free_dimensions));
    ONYX_TRY(dump("load", *model_.main));
#if !defined(ONYX_NO_OPTIMIZER)
    ONYX_TRY(graph::normalize(*model_.main, ops_));
    ONYX_TRY(dump("normalize", *model_.main));
    stage_done("normalize");
#endif
    const bool optimize = opt_.optimize && opt_.optimization_level != graph::passes::optimization_level::none;
    graph::passes::pass_options passes{opt_.compute_float16_in_float32, opt_.optimization_level};
#if !defined(ONYX_NO_OPTIMIZER)
    if (!opt_.optimized_model_filepath.empty()) {
      if constexpr (can_save<Writer>()) {
        if (!model_.optimized) {
          ONYX_ASSIGN(auto done, runtime::optimize_model(std::move(model_), ops_, passes, optimize));
          model_ = std::move(done.model);
          stage_done("optimize");
        }
        ONYX_TRY(Writer::save(model_, opt_.optimized_model_filepath));
        stage_done("save_optimized_model");
      } else {
        return status(errc::unsupported, "writing the optimized model needs the .onnx writer (use onyx::session)");
      }
    }
#endif
    runtime::compile_options co{optimize && !model_.optimized, pool(), ops_, {}, passes,
                                memory_limits::with_defaults(opt_.max_allocation_bytes, opt_.max_arena_bytes)};
#if !defined(ONYX_NO_OPTIMIZER)
    if (dump.enabled() || profile())
      co.after_stage = [&](std::string_view stage, const graph::graph& g, const graph::inferred& st) {
        stage_done(stage);
        return dump(stage, g, &st);
      };
#endif
    ONYX_ASSIGN(main_, runtime::compile(model_.main, co));
    stage_done("prepare");
    const auto& g = *main_->g;
    for (int id : g.inputs) inputs_.push_back({g.values[id].name, g.values[id].type});
    for (int id : g.outputs) outputs_.push_back({g.values[id].name, main_->types.types[id]});
    return ok();
  }

 private:
  std::string input_list() const {
    std::string s;
    for (const auto& i : inputs_)
      s += message(s.empty() ? "" : ", ", i.name, " (", name(i.type.type), " ", i.type.shape.str(), ")");
    return s.empty() ? "none" : s;
  }

  static status check_input(const io_info& want, const value& v) {
    if (v.is_none() && want.type.optional) return ok();
    if (want.type.kind == value_kind::tensor && !v.is_tensor())
      return failure(errc::invalid_argument, "input '", want.name, "' must be a tensor");
    if (!v.is_tensor()) return ok();
    const tensor& t = v.as_tensor();
    if (t.type() != want.type.type)
      return failure(errc::invalid_argument, "input '", want.name, "' has dtype ", name(t.type()), ", expected ",
                     name(want.type.type));
    const auto& s = want.type.shape;
    if (!s.rank_known) return ok();
    bool match = s.rank() == t.rank();
    for (std::size_t d = 0; match && d < s.rank(); ++d)
      if (s[d].known() && s[d].value() != t.dim(d)) match = false;
    if (!match)
      return failure(errc::invalid_argument, "input '", want.name, "' has shape ", sym_shape(t.shape()).str(),
                     ", expected ", s.str());
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
    ONYX_ASSIGN(auto plan, runtime::make_shaped_plan(*main_, std::move(types), std::move(key), pool()));
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
#if defined(ONYX_THREADS_SERIAL)
  // The serial thread policy: no pool member, so neither the pool's
  // destructor nor its threads and condition variables are linked.
  static const thread_pool* pool() { return nullptr; }
#else
  const thread_pool* pool() const { return pool_.get(); }
  std::unique_ptr<thread_pool> pool_;
#endif
#if defined(ONYX_NO_PROFILE)
  // Built without profiling (onyx_add_inference_executable's programs): every
  // `if (profile())` tests a constant, so no profile code is linked.
  static runtime::op_profile* profile() { return nullptr; }
#else
  runtime::op_profile* profile() const { return profile_.get(); }
  std::unique_ptr<runtime::op_profile> profile_;  // ONYX_PROFILE
#endif
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
  explicit basic_session(const std::string& path, const session_options& opt = {})
      : session_core(Registry::table(), opt) {
    throw_if(catch_allocation_failure([&] { return this->template init_from<Loader>(path); },
                                      [&] { return file_name(path); }));
  }
  /// Prepares a model already in graph form (no file, no protobuf).
  explicit basic_session(graph::model m, const session_options& opt = {}) : session_core(Registry::table(), opt) {
    throw_if(catch_allocation_failure([&] { return init(std::move(m)); },
                                      [] { return std::string("creating the session"); }));
  }
#endif
  template <class Loader = graph::onnx_loader>
  static result<std::unique_ptr<session_core>> open(const std::string& path, const session_options& opt = {}) {
    return session_core::open<Loader>(path, Registry::table(), opt);
  }
  static result<std::unique_ptr<session_core>> open(graph::model m, const session_options& opt = {}) {
    return session_core::open(std::move(m), Registry::table(), opt);
  }
};

}  // namespace onyx
