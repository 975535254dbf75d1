// onyx/cli/run.hpp: the command line of onyx-run, shared by the programs
// that run one model the same way (onyx-run; the trimmed executables of
// onyx_add_inference_executable).
//
//   PROGRAM [MODEL] [--input NAME=FILE.pb]... [--shape NAME=2x3x224x224]...
//           [--threads N] [--warmup W] [--runs R] [--output-dir DIR] [--dump-stages DIR]
//           [--keep-float16] [--dim SYMBOL=N]... [--optimization none|basic|extended|all]
//           [--save-optimized FILE.onnx] [--profile FILE.json] [--profile-summary] [--list-nodes]
//           [--timeout SECONDS] [--max-allocation MIB]
//
// --timeout ends each run that takes longer (run_options::timeout: checked
// before each node and each subgraph call) with an error; --max-allocation
// caps a single tensor (session_options::max_allocation_bytes; default the
// physical memory). A model that asks for more memory than it can have ends
// with an error naming the node and the size, exit status 1.
//
// --dim fixes a symbolic input dim by name (session_options::free_dimensions);
// --optimization picks the passes by ONNX Runtime's levels; --save-optimized
// writes the optimized model as .onnx; --profile writes a Chrome trace of the
// session's creation and of every kernel call (runtime/profile.hpp), and
// --profile-summary prints kernel time per op type of the timed runs (the
// warm-up runs left out).
//
// Inputs not given are generated: floats uniform in [0,1) from a fixed seed,
// integers 0, bools false; symbolic dims are 1 unless --shape sets them
// (`--shape NAME=scalar` for rank 0). With --output-dir, output i is written
// to DIR/output_i.pb. Prints `session: created in X ms, peak RSS so far Y
// MiB`, one line per output, then `latency: median ...` over the timed runs.
// How files are read and written is the program's (protobuf, or
// graph/tensor_file.hpp for a program that links none).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "onyx/runtime/session.hpp"

namespace onyx::cli {


struct options {
  std::string model;  // empty: the program's own
  /// --input NAME=FILE and --shape NAME=SHAPE, in the order given; a name
  /// given twice keeps its last value. (Lists, not maps: a program holds one
  /// red-black tree less per option.)
  std::vector<std::pair<std::string, std::string>> input_files;
  std::vector<std::pair<std::string, onyx::extents>> shapes;
  int threads = 0, warmup = 1, runs = 10;
  std::string output_dir;
  std::string dump_stages;
  bool keep_float16 = false;
  std::map<std::string, std::int64_t, std::less<>> dims;  // --dim
  graph::passes::optimization_level level = graph::passes::optimization_level::all;
  std::string save_optimized, profile;
  bool profile_summary = false;
  bool list_nodes = false;               // --list-nodes: each node's op and backend
  double timeout_s = 0;                  // --timeout: 0 = none
  std::size_t max_allocation_bytes = 0;  // --max-allocation (MiB): 0 = the default
};

/// Prints "PROGRAM: msg" to stderr; returns 1 (the exit status).
inline int fail(const std::string& program, const std::string& msg) {
  std::fprintf(stderr, "%s: %s\n", program.c_str(), msg.c_str());
  return 1;
}

namespace detail {
/// The entry named `name` of an option list, or null.
template <class T> const T* find_named(const std::vector<std::pair<std::string, T>>& list, std::string_view name) {
  for (const auto& [n, v] : list)
    if (n == name) return &v;
  return nullptr;
}
/// Sets `name`'s entry (adding it at the end when new).
template <class T> T& set_named(std::vector<std::pair<std::string, T>>& list, std::string name) {
  for (auto& [n, v] : list)
    if (n == name) return v;
  return list.emplace_back(std::move(name), T{}).second;
}
/// Creates folder `path` and the folders above it that are missing, as
/// `mkdir -p` (std::filesystem::create_directories without linking it).
inline void make_directories(const std::string& path) {
  for (std::size_t end = path.find('/', 1);; end = path.find('/', end + 1)) {
    ::mkdir(path.substr(0, end).c_str(), 0777);
    if (end == std::string::npos) return;
  }
}
/// `s` as a whole decimal number (strtoll's syntax), or false.
inline bool to_integer(const char* s, long long& v) {
  char* end = nullptr;
  v = std::strtoll(s, &end, 10);
  return *s && !*end;
}
}  // namespace detail

inline onyx::result<onyx::extents> parse_extents(const std::string& s) {
  onyx::extents e;
  if (s == "scalar") return e;
  for (const char* p = s.c_str();; ++p) {  // parts between 'x's
    const char* x = std::strchr(p, 'x');
    char* end = nullptr;
    const long long v = std::strtoll(p, &end, 10);
    if (end == p || end != (x ? x : p + std::strlen(p)) || v < 0)
      return onyx::failure(onyx::errc::invalid_argument, "bad shape '", s, "' (expected e.g. 1x3x224x224 or scalar)");
    e.push_back(v);
    if (!x) return e;
    p = x;
  }
}

namespace detail {
/// The options, those before `keep_float16` taking a value.
enum class option : unsigned char {
  input, shape, dim, threads, warmup, runs, output_dir, dump_stages, optimization, save_optimized, profile, timeout,
  max_allocation, keep_float16, profile_summary, list_nodes, help
};
struct option_name {
  const char* name;
  option id;
};
inline constexpr option_name option_names[] = {
    {"--input", option::input},           {"--shape", option::shape},
    {"--dim", option::dim},               {"--threads", option::threads},
    {"--warmup", option::warmup},         {"--runs", option::runs},
    {"--output-dir", option::output_dir}, {"--dump-stages", option::dump_stages},
    {"--optimization", option::optimization}, {"--save-optimized", option::save_optimized},
    {"--profile", option::profile},       {"--timeout", option::timeout},
    {"--max-allocation", option::max_allocation}, {"--keep-float16", option::keep_float16},
    {"--profile-summary", option::profile_summary}, {"--list-nodes", option::list_nodes}, {"-h", option::help},
    {"--help", option::help}};
}  // namespace detail

/// Parses the command line; `usage` is printed for --help and after an
/// unknown option. A model path is taken only when `takes_model`.
inline onyx::result<options> parse_args(int argc, char** argv, const char* usage, bool takes_model = true) {
  using onyx::errc;
  using detail::option;
  options o;
  bool model_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const detail::option_name* spec = nullptr;
    for (const auto& n : detail::option_names)
      if (std::strcmp(n.name, argv[i]) == 0) spec = &n;
    if (!spec) {
      if (a.starts_with("-")) return onyx::failure(errc::invalid_argument, "unknown option ", a, "\n", usage);
      if (!takes_model)
        return onyx::failure(errc::invalid_argument, "unexpected argument '", a, "' (the model is built in)\n", usage);
      if (model_given)
        return onyx::failure(errc::invalid_argument, "more than one model given ('", o.model, "', '", a, "')");
      o.model = a;
      model_given = true;
      continue;
    }
    const option id = spec->id;
    const char* v = "";  // the option's value
    if (id < option::keep_float16) {
      if (i + 1 >= argc) return onyx::failure(errc::invalid_argument, a, " needs a value");
      v = argv[++i];
    }
    long long n = 0;
    const bool integer = detail::to_integer(v, n);
    // NAME=VALUE: the name before the first '=', which must not be empty.
    const char* eq = std::strchr(v, '=');
    if (id <= option::dim && (!eq || eq == v))
      return onyx::failure(errc::invalid_argument, a, " expects NAME=VALUE, got '", v, "'");
    const std::string name = id <= option::dim ? std::string(v, eq) : std::string();
    const char* value = id <= option::dim ? eq + 1 : "";
    if (id >= option::threads && id <= option::runs && (!integer || n < 0))
      return onyx::failure(errc::invalid_argument, a, " expects a non-negative integer, got '", v, "'");
    switch (id) {
      case option::input:
        detail::set_named(o.input_files, name) = value;
        break;
      case option::shape: {
        ONYX_ASSIGN(detail::set_named(o.shapes, name), parse_extents(value));
        break;
      }
      case option::dim: {
        long long d = 0;
        if (!detail::to_integer(value, d) || d < 0)
          return onyx::failure(errc::invalid_argument, "--dim ", name, " expects a non-negative integer, got '", value,
                               "'");
        o.dims[name] = d;
        break;
      }
      case option::threads: o.threads = static_cast<int>(n); break;
      case option::warmup: o.warmup = static_cast<int>(n); break;
      case option::runs:
        o.runs = static_cast<int>(n);
        if (o.runs == 0) return onyx::failure(errc::invalid_argument, "--runs must be at least 1");
        break;
      case option::output_dir: o.output_dir = v; break;
      case option::dump_stages: o.dump_stages = v; break;
      case option::optimization: {
        using L = graph::passes::optimization_level;
        static constexpr std::string_view levels[] = {"none", "basic", "extended", "all"};
        static constexpr L level_of[] = {L::none, L::basic, L::extended, L::all};
        std::size_t k = 0;
        while (k < 4 && levels[k] != v) ++k;
        if (k == 4)
          return onyx::failure(errc::invalid_argument, "--optimization expects none, basic, extended or all, got '", v,
                               "'");
        o.level = level_of[k];
        break;
      }
      case option::save_optimized: o.save_optimized = v; break;
      case option::profile: o.profile = v; break;
      case option::timeout: {
        char* end = nullptr;
        double t = std::strtod(v, &end);
        if (!*v || *end || !(t > 0) || t > 1e9)
          return onyx::failure(errc::invalid_argument, "--timeout expects a positive number of seconds, got '", v, "'");
        o.timeout_s = t;
        break;
      }
      case option::max_allocation:
        if (!integer || n <= 0 || n > (1ll << 40))
          return onyx::failure(errc::invalid_argument, "--max-allocation expects a positive number of MiB, got '", v,
                               "'");
        o.max_allocation_bytes = static_cast<std::size_t>(n) << 20;
        break;
      case option::keep_float16: o.keep_float16 = true; break;
      case option::list_nodes: o.list_nodes = true; break;
      case option::profile_summary: o.profile_summary = true; break;
      case option::help:
        std::fputs(usage, stdout);
        std::exit(0);
    }
  }
  return o;
}

/// A generated input: floats uniform in [0,1) (fixed seed), other types zero.
/// A shape whose bytes overflow or exceed this machine's memory is an error,
/// not an allocation failure.
inline onyx::result<onyx::tensor> generate(const onyx::io_info& in, const options& o, std::mt19937& gen) {
  onyx::extents e;
  if (const auto* given = detail::find_named(o.shapes, in.name))
    e = *given;
  else
    for (const auto& d : in.type.shape.dims) e.push_back(d.known() ? d.value() : 1);
  std::int64_t n = 1;
  bool overflow = false;
  for (std::int64_t d : e) overflow = overflow || __builtin_mul_overflow(n, d, &n);
  const double bytes = overflow ? 1e300 : static_cast<double>(onyx::storage_bytes(in.type.type, n));
  const double memory = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  if (bytes > memory)
    return onyx::failure(onyx::errc::invalid_argument, "input '", in.name, "' of shape ", onyx::to_string(e),
                         " would take more than this machine's ", static_cast<long long>(memory / (1 << 20)),
                         " MiB of memory");
  auto t = onyx::tensor::zeros(in.type.type, e);
  // One draw per element, in order, for the floating-point types only.
  using onyx::dtype;
  const dtype type = in.type.type;
  if (type != dtype::float32 && type != dtype::float64 && type != dtype::float16 && type != dtype::bfloat16)
    return t;  // integers 0, bools false, strings empty
  std::uniform_real_distribution<double> u(0.0, 1.0);
  void* p = t.raw();
  for (std::int64_t i = 0, count = t.size(); i < count; ++i) {
    const double v = u(gen);
    if (type == dtype::float32) static_cast<float*>(p)[i] = static_cast<float>(v);
    else if (type == dtype::float64) static_cast<double*>(p)[i] = v;
    else if (type == dtype::float16) static_cast<onyx::float16_t*>(p)[i] = onyx::to_float16(static_cast<float>(v));
    else static_cast<onyx::bfloat16_t*>(p)[i] = onyx::to_bfloat16(static_cast<float>(v));
  }
  return t;
}

/// The first elements of `t` (up to 6; float, double, int64, int32 and bool
/// tensors), "" for other types.
inline std::string preview(const onyx::tensor& t) {
  using onyx::dtype;
  const dtype type = t.type();
  const auto n = std::min<std::int64_t>(t.size(), 6);
  if (n > 0 && type != dtype::float32 && type != dtype::float64 && type != dtype::int64 && type != dtype::int32 &&
      type != dtype::boolean)
    return "";
  std::string s = "[";
  const void* p = t.raw();
  char buf[64];
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = type == dtype::float32   ? static_cast<const float*>(p)[i]
                     : type == dtype::float64 ? static_cast<const double*>(p)[i]
                     : type == dtype::int64   ? static_cast<double>(static_cast<const std::int64_t*>(p)[i])
                     : type == dtype::int32   ? static_cast<const std::int32_t*>(p)[i]
                                              : static_cast<const bool*>(p)[i];
    std::snprintf(buf, sizeof buf, "%s%.6g", i ? ", " : "", v);
    s += buf;
  }
  s += t.size() > n ? ", ...]" : "]";
  return s;
}

/// The process's peak resident set so far (VmHWM), in KiB; 0 where
/// /proc/self/status is not there.
inline double peak_rss_kib() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  double kib = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmHWM: %lf kB", &kib) == 1) break;
  std::fclose(f);
  return kib;
}

/// How a program reads an input file for input `in`, and writes output `t`.
using read_input_fn = onyx::result<onyx::value> (*)(const onyx::io_info& in, const std::string& file);
using write_output_fn = onyx::status (*)(const onyx::tensor& t, const std::string& path, const std::string& name);
/// How a program writes an output that is not a tensor (a sequence, a map);
/// null where it cannot.
using write_value_fn = onyx::status (*)(const onyx::value& v, const std::string& path, const std::string& name);

/// run() without its guard against allocation failures.
template <class Open>
int run_unguarded(const std::string& program, const options& o, Open open, read_input_fn read_input,
                  write_output_fn write_output, write_value_fn write_value) {
  auto fail = [&](const std::string& msg) { return cli::fail(program, msg); };
  onyx::session_options so;
  so.threads = o.threads;
  so.dump_stages = o.dump_stages;
  so.compute_float16_in_float32 = !o.keep_float16;
  so.free_dimensions = o.dims;
  so.optimization_level = o.level;
  so.optimized_model_filepath = o.save_optimized;
  so.profile_file = o.profile;
  so.profile_summary = o.profile_summary;
  so.max_allocation_bytes = o.max_allocation_bytes;
  onyx::run_options ro;
  ro.timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(o.timeout_s));
  const auto c0 = std::chrono::steady_clock::now();
  auto opened = open(so);
  const auto c1 = std::chrono::steady_clock::now();
  if (!opened.ok()) return fail(opened.error().message());
  const auto& s = **opened;
  std::printf("session: created in %.3f ms, peak RSS so far %.1f MiB\n",
              std::chrono::duration<double, std::milli>(c1 - c0).count(), peak_rss_kib() / 1024.0);
  // Where the nodes run, when some run elsewhere than the CPU (--backend cuda).
  {
    std::map<std::string, int> on;
    int copies = 0;
    for (const auto& n : s.nodes()) n.op == "onyx.Copy" ? ++copies : ++on[n.backend];
    if (copies || on.size() > 1 || (on.size() == 1 && on.begin()->first != "cpu")) {
      std::string line;
      for (const auto& [backend, count] : on) line += message(line.empty() ? "" : ", ", count, " on ", backend);
      std::printf("nodes: %s, %d copies\n", line.c_str(), copies);
    }
    if (o.list_nodes)
      for (const auto& n : s.nodes()) std::printf("node %s %s %s\n", n.backend.c_str(), n.op.c_str(), n.name.c_str());
  }

  auto has_input = [&](const std::string& name) {
    for (const auto& i : s.inputs())
      if (i.name == name) return true;
    return false;
  };
  for (const auto& f : o.input_files)
    if (!has_input(f.first)) return fail(message("--input ", f.first, ": the model has no input '", f.first, "'"));
  for (const auto& f : o.shapes)
    if (!has_input(f.first)) return fail(message("--shape ", f.first, ": the model has no input '", f.first, "'"));

  std::mt19937 gen(42);
  std::vector<onyx::named_value> inputs;
  for (const auto& in : s.inputs()) {
    if (const std::string* file = detail::find_named(o.input_files, in.name)) {
      auto v = read_input(in, *file);
      if (!v.ok()) return fail(message("--input ", in.name, ": ", v.error().message()));
      inputs.emplace_back(in.name, std::move(v).value());
    } else {
      if (in.type.kind != onyx::value_kind::tensor)
        return fail(message("input '", in.name, "' is not a tensor; give it with --input"));
      auto t = generate(in, o, gen);
      if (!t.ok()) return fail(t.error().message());
      inputs.emplace_back(in.name, std::move(t).value());
    }
  }

  std::vector<onyx::value> outs;
  for (int i = 0; i < o.warmup; ++i)
    if (auto st = s.run(inputs, outs, ro); !st.ok()) return fail(st.message());
  if (o.warmup > 0) s.restart_profile_summary();  // the table covers the timed runs
  std::vector<double> ms;
  for (int i = 0; i < o.runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    auto st = s.run(inputs, outs, ro);
    auto t1 = std::chrono::steady_clock::now();
    if (!st.ok()) return fail(st.message());
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }

  for (std::size_t i = 0; i < outs.size(); ++i) {
    const auto& name = s.outputs()[i].name;
    if (!outs[i].is_tensor()) {
      std::printf("%s: %s", name.c_str(), outs[i].is_sequence() ? "sequence" : outs[i].is_none() ? "none" : "map");
      if (outs[i].is_sequence()) std::printf(" of %zu", outs[i].as_sequence().items.size());
      if (outs[i].is_map()) std::printf(" of %lld", static_cast<long long>(outs[i].as_map().keys.size()));
      std::printf("\n");
      continue;
    }
    const auto& t = outs[i].as_tensor();
    const std::string_view type = onyx::name(t.type());
    std::printf("%s: %.*s [", name.c_str(), static_cast<int>(type.size()), type.data());
    for (std::size_t d = 0; d < t.rank(); ++d) std::printf(d ? ",%lld" : "%lld", static_cast<long long>(t.shape()[d]));
    std::printf("] %s\n", preview(t).c_str());
  }
  if (!o.output_dir.empty()) {
    detail::make_directories(o.output_dir);  // a failure shows when the first file cannot be created
    for (std::size_t i = 0; i < outs.size(); ++i) {
      const std::string path =
          message(o.output_dir, o.output_dir.ends_with('/') ? "" : "/", "output_", i, ".pb");
      if (!outs[i].is_tensor()) {
        if (!write_value) return fail(message("output ", i, " is not a tensor; cannot write it"));
        if (auto st = write_value(outs[i], path, s.outputs()[i].name); !st.ok()) return fail(st.message());
        continue;
      }
      if (auto st = write_output(outs[i].as_tensor(), path, s.outputs()[i].name); !st.ok())
        return fail(st.message());
    }
  }
  if (o.profile_summary) std::fputs(s.profile_summary().c_str(), stdout);
  if (!o.profile.empty()) {
    if (auto st = s.end_profiling(); !st.ok()) return fail(st.message());
    std::printf("profile: %s\n", o.profile.c_str());
  }
  // qsort: the program's only sort of doubles, one libc call rather than an
  // instantiation of std::sort.
  std::qsort(ms.data(), ms.size(), sizeof(double), [](const void* x, const void* y) {
    const double a = *static_cast<const double*>(x), b = *static_cast<const double*>(y);
    return (a > b) - (a < b);
  });
  double median = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  std::printf("latency: median %.3f ms, min %.3f ms, max %.3f ms over %d runs\n", median, ms.front(), ms.back(),
              o.runs);
  return 0;
}

/// Opens the session with `open(session_options)`, then generates or reads
/// the inputs, runs warmup + timed runs, prints each output and the latency
/// line, and writes the outputs when asked. Returns the exit status; memory
/// running out anywhere is an error message and exit status 1, not an abort.
template <class Open>
int run(const std::string& program, const options& o, Open open, read_input_fn read_input, write_output_fn write_output,
        write_value_fn write_value = nullptr) {
#if defined(__cpp_exceptions)
  try {
    return run_unguarded(program, o, open, read_input, write_output, write_value);
  } catch (const std::bad_alloc& e) {
    return cli::fail(program, std::string("out of memory (") + e.what() + ")");
  }
#else
  return run_unguarded(program, o, open, read_input, write_output, write_value);
#endif
}

}  // namespace onyx::cli
