// onyx/cli/run.hpp: the command line of onyx-run, shared by the programs
// that run one model the same way (onyx-run; the trimmed executables of
// onyx_add_inference_executable).
//
//   PROGRAM [MODEL] [--input NAME=FILE.pb]... [--shape NAME=2x3x224x224]...
//           [--threads N] [--warmup W] [--runs R] [--output-dir DIR] [--dump-stages DIR]
//           [--keep-float16] [--dim SYMBOL=N]... [--optimization none|basic|extended|all]
//           [--save-optimized FILE.onnx] [--profile FILE.json] [--profile-summary]
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
// --profile-summary prints kernel time per op type after the timed runs.
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
#include <filesystem>
#include <map>
#include <random>

#include <unistd.h>

#include "onyx/runtime/session.hpp"

namespace onyx::cli {


struct options {
  std::string model;  // empty: the program's own
  std::map<std::string, std::string> input_files;
  std::map<std::string, onyx::extents> shapes;
  int threads = 0, warmup = 1, runs = 10;
  std::string output_dir;
  std::string dump_stages;
  bool keep_float16 = false;
  std::map<std::string, std::int64_t, std::less<>> dims;  // --dim
  graph::passes::optimization_level level = graph::passes::optimization_level::all;
  std::string save_optimized, profile;
  bool profile_summary = false;
  double timeout_s = 0;                  // --timeout: 0 = none
  std::size_t max_allocation_bytes = 0;  // --max-allocation (MiB): 0 = the default
};

/// Prints "PROGRAM: msg" to stderr; returns 1 (the exit status).
inline int fail(const std::string& program, const std::string& msg) {
  std::fprintf(stderr, "%s: %s\n", program.c_str(), msg.c_str());
  return 1;
}

inline onyx::result<onyx::extents> parse_extents(const std::string& s) {
  onyx::extents e;
  if (s == "scalar") return e;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    auto x = s.find('x', pos);
    std::string part = s.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
    char* end = nullptr;
    long long v = std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end || v < 0)
      return onyx::status(onyx::errc::invalid_argument, "bad shape '" + s + "' (expected e.g. 1x3x224x224 or scalar)");
    e.push_back(v);
    if (x == std::string::npos) break;
    pos = x + 1;
  }
  return e;
}

/// Parses the command line; `usage` is printed for --help and after an
/// unknown option. A model path is taken only when `takes_model`.
inline onyx::result<options> parse_args(int argc, char** argv, const char* usage, bool takes_model = true) {
  options o;
  bool model_given = false;
  auto bad = [](const std::string& m) { return onyx::status(onyx::errc::invalid_argument, m); };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> onyx::result<std::string> {
      if (i + 1 >= argc) return bad(a + " needs a value");
      return std::string(argv[++i]);
    };
    auto number = [&](int& out) -> onyx::status {
      ONYX_ASSIGN(auto v, next());
      char* end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 0) return bad(a + " expects a non-negative integer, got '" + v + "'");
      out = static_cast<int>(n);
      return onyx::ok();
    };
    auto name_value = [&](std::string& name, std::string& val) -> onyx::status {
      ONYX_ASSIGN(auto v, next());
      auto eq = v.find('=');
      if (eq == std::string::npos || eq == 0) return bad(a + " expects NAME=VALUE, got '" + v + "'");
      name = v.substr(0, eq);
      val = v.substr(eq + 1);
      return onyx::ok();
    };
    if (a == "--input") {
      std::string n, v;
      ONYX_TRY(name_value(n, v));
      o.input_files[n] = v;
    } else if (a == "--shape") {
      std::string n, v;
      ONYX_TRY(name_value(n, v));
      ONYX_ASSIGN(o.shapes[n], parse_extents(v));
    } else if (a == "--threads") {
      ONYX_TRY(number(o.threads));
    } else if (a == "--warmup") {
      ONYX_TRY(number(o.warmup));
    } else if (a == "--runs") {
      ONYX_TRY(number(o.runs));
      if (o.runs == 0) return bad("--runs must be at least 1");
    } else if (a == "--output-dir") {
      ONYX_ASSIGN(o.output_dir, next());
    } else if (a == "--dump-stages") {
      ONYX_ASSIGN(o.dump_stages, next());
    } else if (a == "--keep-float16") {
      o.keep_float16 = true;
    } else if (a == "--dim") {
      std::string n, v;
      ONYX_TRY(name_value(n, v));
      char* end = nullptr;
      long long d = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end || d < 0) return bad("--dim " + n + " expects a non-negative integer, got '" + v + "'");
      o.dims[n] = d;
    } else if (a == "--optimization") {
      ONYX_ASSIGN(auto v, next());
      using L = graph::passes::optimization_level;
      if (v == "none") o.level = L::none;
      else if (v == "basic") o.level = L::basic;
      else if (v == "extended") o.level = L::extended;
      else if (v == "all") o.level = L::all;
      else return bad("--optimization expects none, basic, extended or all, got '" + v + "'");
    } else if (a == "--save-optimized") {
      ONYX_ASSIGN(o.save_optimized, next());
    } else if (a == "--profile") {
      ONYX_ASSIGN(o.profile, next());
    } else if (a == "--profile-summary") {
      o.profile_summary = true;
    } else if (a == "--timeout") {
      ONYX_ASSIGN(auto v, next());
      char* end = nullptr;
      double t = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(t > 0) || t > 1e9) return bad("--timeout expects a positive number of seconds, got '" + v + "'");
      o.timeout_s = t;
    } else if (a == "--max-allocation") {
      ONYX_ASSIGN(auto v, next());
      char* end = nullptr;
      long long m = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end || m <= 0 || m > (1ll << 40))
        return bad("--max-allocation expects a positive number of MiB, got '" + v + "'");
      o.max_allocation_bytes = static_cast<std::size_t>(m) << 20;
    } else if (a == "-h" || a == "--help") {
      std::fputs(usage, stdout);
      std::exit(0);
    } else if (a.starts_with("-")) {
      return bad("unknown option " + a + "\n" + usage);
    } else if (!takes_model) {
      return bad("unexpected argument '" + a + "' (the model is built in)\n" + usage);
    } else if (model_given) {
      return bad("more than one model given ('" + o.model + "', '" + a + "')");
    } else {
      o.model = a;
      model_given = true;
    }
  }
  return o;
}

/// A generated input: floats uniform in [0,1) (fixed seed), other types zero.
/// A shape whose bytes overflow or exceed this machine's memory is an error,
/// not an allocation failure.
inline onyx::result<onyx::tensor> generate(const onyx::io_info& in, const options& o, std::mt19937& gen) {
  onyx::extents e;
  if (auto it = o.shapes.find(in.name); it != o.shapes.end())
    e = it->second;
  else
    for (const auto& d : in.type.shape.dims) e.push_back(d.known() ? d.value() : 1);
  std::int64_t n = 1;
  bool overflow = false;
  for (std::int64_t d : e) overflow = overflow || __builtin_mul_overflow(n, d, &n);
  const double bytes = overflow ? 1e300 : static_cast<double>(onyx::storage_bytes(in.type.type, n));
  const double memory = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  if (bytes > memory)
    return onyx::status(onyx::errc::invalid_argument, "input '" + in.name + "' of shape " + onyx::to_string(e) +
                                                          " would take more than this machine's " +
                                                          std::to_string(static_cast<long long>(memory / (1 << 20))) +
                                                          " MiB of memory");
  auto t = onyx::tensor::zeros(in.type.type, e);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  switch (in.type.type) {
    case onyx::dtype::float32:
      for (auto& v : t.values<float>()) v = static_cast<float>(u(gen));
      break;
    case onyx::dtype::float64:
      for (auto& v : t.values<double>()) v = u(gen);
      break;
    case onyx::dtype::float16:
      for (auto& v : t.values<onyx::float16_t>()) v = onyx::to_float16(static_cast<float>(u(gen)));
      break;
    case onyx::dtype::bfloat16:
      for (auto& v : t.values<onyx::bfloat16_t>()) v = onyx::to_bfloat16(static_cast<float>(u(gen)));
      break;
    default:
      break;  // integers 0, bools false, strings empty
  }
  return t;
}

inline std::string preview(const onyx::tensor& t) {
  std::string s;
  auto n = std::min<std::int64_t>(t.size(), 6);
  char buf[64];
  for (std::int64_t i = 0; i < n; ++i) {
    double v = 0;
    switch (t.type()) {
      case onyx::dtype::float32:
        v = t.data<float>()[i];
        break;
      case onyx::dtype::float64:
        v = t.data<double>()[i];
        break;
      case onyx::dtype::int64:
        v = static_cast<double>(t.data<std::int64_t>()[i]);
        break;
      case onyx::dtype::int32:
        v = t.data<std::int32_t>()[i];
        break;
      case onyx::dtype::boolean:
        v = t.data<bool>()[i];
        break;
      default:
        return "";
    }
    std::snprintf(buf, sizeof buf, "%s%.6g", i ? ", " : "", v);
    s += buf;
  }
  return "[" + s + (t.size() > n ? ", ...]" : "]");
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
using write_output_fn = onyx::status (*)(const onyx::tensor& t, const std::filesystem::path& path,
                                         const std::string& name);
/// How a program writes an output that is not a tensor (a sequence, a map);
/// null where it cannot.
using write_value_fn = onyx::status (*)(const onyx::value& v, const std::filesystem::path& path,
                                        const std::string& name);

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

  for (const auto& [name, file] : o.input_files)
    if (std::none_of(s.inputs().begin(), s.inputs().end(), [&](auto& i) { return i.name == name; }))
      return fail("--input " + name + ": the model has no input '" + name + "'");
  for (const auto& [name, shape] : o.shapes)
    if (std::none_of(s.inputs().begin(), s.inputs().end(), [&](auto& i) { return i.name == name; }))
      return fail("--shape " + name + ": the model has no input '" + name + "'");

  std::mt19937 gen(42);
  std::vector<onyx::named_value> inputs;
  for (const auto& in : s.inputs()) {
    if (auto it = o.input_files.find(in.name); it != o.input_files.end()) {
      auto v = read_input(in, it->second);
      if (!v.ok()) return fail("--input " + in.name + ": " + v.error().message());
      inputs.emplace_back(in.name, std::move(v).value());
    } else {
      if (in.type.kind != onyx::value_kind::tensor)
        return fail("input '" + in.name + "' is not a tensor; give it with --input");
      auto t = generate(in, o, gen);
      if (!t.ok()) return fail(t.error().message());
      inputs.emplace_back(in.name, std::move(t).value());
    }
  }

  std::vector<onyx::value> outs;
  for (int i = 0; i < o.warmup; ++i)
    if (auto st = s.run(inputs, outs, ro); !st.ok()) return fail(st.message());
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
    std::printf("%s: %s %s %s\n", name.c_str(), std::string(onyx::name(t.type())).c_str(),
                onyx::sym_shape(t.shape()).str().c_str(), preview(t).c_str());
  }
  if (!o.output_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.output_dir, ec);
    for (std::size_t i = 0; i < outs.size(); ++i) {
      auto path = std::filesystem::path(o.output_dir) / ("output_" + std::to_string(i) + ".pb");
      if (!outs[i].is_tensor()) {
        if (!write_value) return fail("output " + std::to_string(i) + " is not a tensor; cannot write it");
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
  std::sort(ms.begin(), ms.end());
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
