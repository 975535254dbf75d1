// onyx-conformance: run ONNX backend test folders and compare with their data.
//
//   onyx-conformance [--pass-list FILE] [--write-pass-list FILE] [--timeout S] PATH...
//
// PATH is one test folder (model.onnx + test_data_set_K/), a suite folder of
// them, the `light` folder (light_X.onnx + light_X_output_0.pb), or a folder
// of suites (searched recursively). Each test runs in a child process, so a
// crash or a hang fails that test only. Tests are named `suite/test`.
// Outputs match when |actual - expected| <= atol + rtol * |expected| with
// ONNX's rtol = 1e-3, atol = 1e-7 (NaN matches NaN); dtypes and shapes must
// be equal. With --pass-list, a listed test that fails counts as failed and
// an unlisted one that fails as skipped ("not yet supported"); passing tests
// missing from the list are reported so the list can grow.
//
// A pass-list line `suite/test if OPTION` lists the test only in builds with
// that optional component (ONYX_IMAGE_DECODER); elsewhere it is skipped
// ("not in this build").
// --random-list FILE names tests of ops whose values come from a generator
// (Bernoulli, Dropout's mask, ...): their expected files hold one generator's
// draws, so such a test passes when every output has the expected dtype and
// shape, its values lie in the line's range (`range=LO,HI`, else the expected
// output's own [min, max]), and, for a line marked `seeded`, a second run
// gives the same values. They are counted apart ("random-op passes"); one
// that fails counts as failed.
// --excluded FILE names tests not run to pass, each with the reason in the
// file's comments (wrong expected data, out of scope): they run, are
// reported as EXCLUDED with what they gave, and are counted apart; one that
// passes is reported so it can leave the list.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>
#include <utility>

#include "onyx/graph/tensor_proto.hpp"
#include "onyx/session.hpp"
#if defined(ONYX_HAVE_CUDA)
#include "onyx/cuda_session.hpp"
#endif

namespace fs = std::filesystem;

// The optional components (CMake options, defined as macros of the same
// name where on) a pass-list line may depend on: `suite/test if OPTION`.
constexpr std::pair<std::string_view, bool> build_options[] = {
#if defined(ONYX_IMAGE_DECODER)
    {"ONYX_IMAGE_DECODER", true},
#else
    {"ONYX_IMAGE_DECODER", false},
#endif
};

namespace {

constexpr double rtol = 1e-3, atol = 1e-7;

struct test_case {
  std::string name;  // suite/test
  fs::path model;
  fs::path light_output;  // set for light/ models
};

void discover(const fs::path& p, std::vector<test_case>& out) {
  if (fs::is_regular_file(p / "model.onnx")) {
    out.push_back({p.parent_path().filename().string() + "/" + p.filename().string(), p / "model.onnx", {}});
    return;
  }
  std::vector<fs::path> entries;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(p, ec)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  for (const auto& e : entries) {
    auto f = e.filename().string();
    if (fs::is_regular_file(e) && f.starts_with("light_") && e.extension() == ".onnx") {
      auto stem = e.stem().string();
      out.push_back({p.filename().string() + "/" + stem, e, p / (stem + "_output_0.pb")});
    } else if (fs::is_directory(e)) {
      discover(e, out);
    }
  }
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

/// Element `i` as a double, for the types compared within tolerance.
onyx::result<double> element(const onyx::tensor& t, std::int64_t i) {
  return onyx::visit_numeric(
      t.type(), [&](auto zero) -> onyx::result<double> { return static_cast<double>(onyx::load(t.data<decltype(zero)>()[i])); },
      [&]() -> onyx::result<double> {
        return onyx::status(onyx::errc::unsupported, "cannot compare " + std::string(onyx::name(t.type())));
      });
}

/// Empty when equal within tolerance, else why not.
std::string compare(const onyx::tensor& a, const onyx::tensor& e) {
  if (a.type() != e.type())
    return "dtype " + std::string(onyx::name(a.type())) + ", expected " + std::string(onyx::name(e.type()));
  if (a.shape() != e.shape())
    return "shape " + onyx::sym_shape(a.shape()).str() + ", expected " + onyx::sym_shape(e.shape()).str();
  if (a.type() == onyx::dtype::string) {
    for (std::int64_t i = 0; i < a.size(); ++i)
      if (a.data<std::string>()[i] != e.data<std::string>()[i]) return "string " + std::to_string(i) + " differs";
    return {};
  }
  bool exact = !(a.type() == onyx::dtype::float32 || a.type() == onyx::dtype::float64 ||
                 a.type() == onyx::dtype::float16 || a.type() == onyx::dtype::bfloat16);
  if (!exact && a.type() != onyx::dtype::float32 && a.type() != onyx::dtype::float64) {
    // float16/bfloat16: compare the raw bits first (exact), then numerically
  }
  std::int64_t bad = 0, first = -1;
  double worst = 0;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    auto x = element(a, i), y = element(e, i);
    if (!x.ok()) {  // types compared bitwise
      if (std::memcmp(a.raw(), e.raw(), a.bytes()) != 0) return "data differs";
      return {};
    }
    if (std::isnan(*x) && std::isnan(*y)) continue;
    if (*x == *y) continue;
    double diff = std::abs(*x - *y);
    if (exact || !(diff <= atol + rtol * std::abs(*y))) {
      if (first < 0) first = i;
      ++bad;
      worst = std::max(worst, diff);
    }
  }
  if (!bad) return {};
  return std::to_string(bad) + " of " + std::to_string(a.size()) + " elements differ (first at " +
         std::to_string(first) + ": " + fmt(*element(a, first)) + " vs " + fmt(*element(e, first)) +
         ", max abs diff " + fmt(worst) + ")";
}

std::string compare(const onyx::value& a, const onyx::value& e) {
  if (e.is_none()) return a.is_none() ? "" : "expected an empty optional";
  if (e.is_tensor()) return a.is_tensor() ? compare(a.as_tensor(), e.as_tensor()) : "expected a tensor";
  if (e.is_sequence()) {
    if (!a.is_sequence()) return "expected a sequence";
    auto& x = a.as_sequence().items;
    auto& y = e.as_sequence().items;
    if (x.size() != y.size()) return "sequence of " + std::to_string(x.size()) + ", expected " + std::to_string(y.size());
    for (std::size_t i = 0; i < x.size(); ++i)
      if (auto w = compare(x[i], y[i]); !w.empty()) return "item " + std::to_string(i) + ": " + w;
    return {};
  }
  return "maps are not compared";
}

onyx::graph::proto_kind kind_of(const onyx::value_type& t) {
  if (t.optional) return onyx::graph::proto_kind::optional;
  if (t.kind == onyx::value_kind::sequence) return onyx::graph::proto_kind::sequence;
  if (t.kind == onyx::value_kind::map) return onyx::graph::proto_kind::map;
  return onyx::graph::proto_kind::tensor;
}

/// How a test on the random list is checked.
struct random_check {
  bool listed = false;
  std::optional<std::pair<double, double>> range;  // else the expected output's
  bool seeded = false;
  bool dropout = false;  // output 0 = input 0 scaled by 1 / (1 - ratio) or 0, as the mask says
};

/// Dropout in training mode: each element of `y` is 0 (dropped) or x / (1 -
/// ratio) within tolerance (kept), and the mask, when given, says which.
std::string check_dropout(const onyx::tensor& y, const onyx::tensor& x, double ratio, const onyx::tensor* mask) {
  if (y.type() != x.type() || y.shape() != x.shape()) return "output 0 is not shaped and typed as the data";
  if (mask && (mask->type() != onyx::dtype::boolean || mask->shape() != x.shape()))
    return "the mask is not bool shaped as the data";
  const double scale = 1.0 / (1.0 - ratio);
  for (std::int64_t i = 0; i < y.size(); ++i) {
    auto a = element(y, i), b = element(x, i);
    if (!a.ok() || !b.ok()) return "cannot compare " + std::string(onyx::name(y.type()));
    const double want = *b * scale;
    const bool kept = std::abs(*a - want) <= atol + rtol * std::abs(want);
    if (!kept && *a != 0) return "element " + std::to_string(i) + " = " + fmt(*a) + " is neither 0 nor " + fmt(want);
    if (mask && *b != 0 && mask->data<bool>()[i] != kept)
      return "mask element " + std::to_string(i) + " disagrees with the output";
  }
  return {};
}

/// Empty when `a` has `e`'s dtype and shape and its values lie in `range`
/// (else in [min, max] of `e`'s values), else why not.
std::string compare_random(const onyx::tensor& a, const onyx::tensor& e,
                           const std::optional<std::pair<double, double>>& range) {
  if (a.type() != e.type())
    return "dtype " + std::string(onyx::name(a.type())) + ", expected " + std::string(onyx::name(e.type()));
  if (a.shape() != e.shape())
    return "shape " + onyx::sym_shape(a.shape()).str() + ", expected " + onyx::sym_shape(e.shape()).str();
  double lo = 0, hi = 0;
  if (range) {
    std::tie(lo, hi) = *range;
  } else if (e.size() > 0) {
    lo = hi = *element(e, 0);
    for (std::int64_t i = 1; i < e.size(); ++i) {
      auto y = element(e, i);
      if (!y.ok()) return y.error().message();
      lo = std::min(lo, *y), hi = std::max(hi, *y);
    }
  }
  for (std::int64_t i = 0; i < a.size(); ++i) {
    auto x = element(a, i);
    if (!x.ok()) return x.error().message();
    const double slack = atol + rtol * std::max(std::abs(lo), std::abs(hi));
    if (!(*x >= lo - slack && *x <= hi + slack))
      return "element " + std::to_string(i) + " = " + fmt(*x) + " is outside [" + fmt(lo) + ", " + fmt(hi) + "]";
  }
  return {};
}

/// Bitwise equality of two runs' outputs (a seeded random op repeats).
bool same_values(const onyx::value& a, const onyx::value& b) {
  if (!a.is_tensor() || !b.is_tensor()) return false;
  const auto& x = a.as_tensor();
  const auto& y = b.as_tensor();
  return x.type() == y.type() && x.shape() == y.shape() && std::memcmp(x.raw(), y.raw(), x.bytes()) == 0;
}

/// Whether tests run through onyx::cuda_session (--backend cuda).
bool on_gpu = false;
/// What run_test returns for a test that ran no node on the GPU (--backend cuda).
constexpr std::string_view no_gpu_node = "no node runs on the GPU";

/// Runs one test in this process; empty on success, else why it failed.
std::string run_test(const test_case& tc, const random_check& rnd) {
#if defined(ONYX_HAVE_CUDA)
  auto opened = on_gpu ? onyx::cuda_session::open(tc.model) : onyx::session::open(tc.model);
#else
  auto opened = onyx::session::open(tc.model);
#endif
  if (!opened.ok()) return opened.error().message();
  const auto& s = **opened;
  if (on_gpu) {
    const auto nodes = s.nodes();
    if (std::none_of(nodes.begin(), nodes.end(), [](const onyx::node_info& n) { return n.backend == "cuda"; }))
      return std::string(no_gpu_node);
  }

  std::vector<fs::path> sets;
  if (tc.light_output.empty()) {
    for (const auto& e : fs::directory_iterator(tc.model.parent_path()))
      if (e.is_directory() && e.path().filename().string().starts_with("test_data_set_")) sets.push_back(e.path());
    std::sort(sets.begin(), sets.end());
    if (sets.empty()) return "no test_data_set_* folder";
  } else {
    sets.push_back({});
  }
  for (const auto& set : sets) {
    std::vector<onyx::named_value> inputs;
    std::vector<onyx::value> expected;
    if (tc.light_output.empty()) {
      for (std::size_t i = 0; i < s.inputs().size(); ++i) {
        auto file = set / ("input_" + std::to_string(i) + ".pb");
        if (!fs::exists(file)) break;  // trailing optional inputs may be omitted
        auto v = onyx::graph::read_value_file(file, kind_of(s.inputs()[i].type));
        if (!v.ok()) return v.error().message();
        inputs.emplace_back(s.inputs()[i].name, std::move(v).value());
      }
      for (std::size_t i = 0; i < s.outputs().size(); ++i) {
        auto file = set / ("output_" + std::to_string(i) + ".pb");
        if (!fs::exists(file)) break;
        auto v = onyx::graph::read_value_file(file, kind_of(s.outputs()[i].type));
        if (!v.ok()) return v.error().message();
        expected.push_back(std::move(v).value());
      }
    } else {
      // light/: input is arange(n).reshape(shape) / n, symbolic dims 1.
      for (const auto& in : s.inputs()) {
        onyx::extents e;
        for (const auto& d : in.type.shape.dims) e.push_back(d.known() ? d.value() : 1);
        auto t = onyx::tensor::zeros(onyx::dtype::float32, e);
        auto n = t.size();
        for (std::int64_t i = 0; i < n; ++i) t.data<float>()[i] = static_cast<float>(i) / static_cast<float>(n);
        inputs.emplace_back(in.name, t);
      }
      auto v = onyx::graph::read_value_file(tc.light_output, onyx::graph::proto_kind::tensor);
      if (!v.ok()) return v.error().message();
      expected.push_back(std::move(v).value());
    }
    std::vector<onyx::value> outs;
    if (auto st = s.run(inputs, outs); !st.ok()) return st.message();
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (i >= outs.size()) return "missing output " + std::to_string(i);
      std::string why;
      if (rnd.dropout && i == 0 && outs[0].is_tensor() && !inputs.empty() && inputs[0].second.is_tensor()) {
        double ratio = 0.5;  // the default when the input is omitted
        if (inputs.size() > 1 && inputs[1].second.is_tensor() && inputs[1].second.as_tensor().size() == 1)
          ratio = *element(inputs[1].second.as_tensor(), 0);
        const onyx::tensor* mask = outs.size() > 1 && outs[1].is_tensor() ? &outs[1].as_tensor() : nullptr;
        const onyx::tensor& e = expected[0].is_tensor() ? expected[0].as_tensor() : onyx::tensor();
        if (e.type() != outs[0].as_tensor().type() || e.shape() != outs[0].as_tensor().shape())
          why = "dtype or shape differs from the expected output's";
        else
          why = check_dropout(outs[0].as_tensor(), inputs[0].second.as_tensor(), ratio, mask);
      } else if (rnd.listed && outs[i].is_tensor() && expected[i].is_tensor())
        why = compare_random(outs[i].as_tensor(), expected[i].as_tensor(), rnd.range);
      else
        why = compare(outs[i], expected[i]);
      if (!why.empty()) return "output " + std::to_string(i) + " ('" + s.outputs()[i].name + "'): " + why;
    }
    if (rnd.seeded) {
      std::vector<onyx::value> again;
      if (auto st = s.run(inputs, again); !st.ok()) return st.message();
      for (std::size_t i = 0; i < outs.size() && i < again.size(); ++i)
        if (!same_values(outs[i], again[i]))
          return "output " + std::to_string(i) + " ('" + s.outputs()[i].name + "') differs between two seeded runs";
    }
  }
  return {};
}

enum class outcome { pass, fail };

/// Runs `tc` in a child process with a time limit; returns the failure text.
std::pair<outcome, std::string> run_isolated(const test_case& tc, const random_check& rnd, int timeout_s) {
  if (on_gpu) {  // in this process: see the header
    std::string why = run_test(tc, rnd);
    return {why.empty() ? outcome::pass : outcome::fail, why};
  }
  int fds[2];
  if (pipe(fds) != 0) return {outcome::fail, "pipe failed"};
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string why = run_test(tc, rnd);
    ssize_t w = write(fds[1], why.data(), why.size());
    (void)w;
    close(fds[1]);
    _exit(why.empty() ? 0 : 1);
  }
  close(fds[1]);
  std::string msg;
  char buf[4096];
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  bool timed_out = false;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    ssize_t r = read(fds[0], buf, sizeof buf);
    if (r <= 0) break;
    msg.append(buf, static_cast<std::size_t>(r));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  if (timed_out) return {outcome::fail, "timed out after " + std::to_string(timeout_s) + " s"};
  if (WIFSIGNALED(wstatus)) return {outcome::fail, "crashed with signal " + std::to_string(WTERMSIG(wstatus))};
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) return {outcome::pass, {}};
  return {outcome::fail, msg.empty() ? "failed without a message" : msg};
}

}  // namespace

constexpr const char* usage =
    "usage: onyx-conformance [--pass-list FILE] [--random-list FILE] [--excluded FILE] [--write-pass-list FILE]\n"
    "                        [--timeout S] [--backend cpu|cuda] PATH...\n";

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each result as it comes, also into a pipe
  std::vector<std::string> paths;
  std::string pass_list_file, write_list_file, random_list_file, excluded_file;
  int timeout_s = 120;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc) {
      std::string b = argv[++i];
      if (b == "cuda") {
#if defined(ONYX_HAVE_CUDA)
        if (!onyx::cuda_session::available()) {
          std::printf("onyx-conformance: --backend cuda: %s: skipped\n", onyx::cuda_session::device().c_str());
          return 77;  // ctest's SKIP_RETURN_CODE: no GPU here
        }
        on_gpu = true;
        std::printf("backend: cuda on %s, CPU fallback\n", onyx::cuda_session::device().c_str());
        continue;
#else
        std::fprintf(stderr, "onyx-conformance: this build has no CUDA backend (configure with -DONYX_CUDA=ON)\n");
        return 2;
#endif
      }
      if (b != "cpu") {
        std::fprintf(stderr, "onyx-conformance: --backend is cpu or cuda, not '%s'\n", b.c_str());
        return 2;
      }
      continue;
    }
    if ((a == "--pass-list" || a == "--write-pass-list" || a == "--timeout" || a == "--random-list" ||
         a == "--excluded") &&
        i + 1 < argc) {
      std::string v = argv[++i];
      if (a == "--pass-list") pass_list_file = v;
      else if (a == "--random-list") random_list_file = v;
      else if (a == "--excluded") excluded_file = v;
      else if (a == "--write-pass-list") write_list_file = v;
      else timeout_s = std::max(1, std::atoi(v.c_str()));
    } else if (a.starts_with("-")) {
      std::fputs(usage, stderr);
      return 2;
    } else {
      paths.push_back(a);
    }
  }
  if (paths.empty()) {
    std::fputs(usage, stderr);
    return 2;
  }
  std::set<std::string> listed;
  std::map<std::string, std::string> not_built;  // listed tests of an optional component this build lacks
  bool have_list = !pass_list_file.empty();
  if (have_list) {
    std::ifstream in(pass_list_file);
    if (!in) {
      std::fprintf(stderr, "onyx-conformance: cannot read pass list '%s'\n", pass_list_file.c_str());
      return 2;
    }
    for (std::string line; std::getline(in, line);) {
      line.erase(line.find_last_not_of(" \t\r") + 1);
      if (line.empty() || line[0] == '#') continue;
      // `suite/test if OPTION`: listed only where this build has the optional component.
      if (const auto at = line.find(" if "); at != std::string::npos) {
        const std::string option = line.substr(at + 4);
        line.erase(at);
        const auto* o = std::find_if(std::begin(build_options), std::end(build_options),
                                     [&](const auto& b) { return b.first == option; });
        if (o == std::end(build_options)) {
          std::fprintf(stderr, "onyx-conformance: pass list line '%s': unknown option '%s'\n", line.c_str(),
                       option.c_str());
          return 2;
        }
        if (!o->second) {
          not_built[line] = option;
          continue;
        }
      }
      listed.insert(line);
    }
  }
  // A list file: one `suite/test [words...]` a line; `#` starts a comment.
  auto read_list = [](const std::string& file, std::map<std::string, std::vector<std::string>>& out) {
    std::ifstream in(file);
    if (!in) return false;
    for (std::string line; std::getline(in, line);) {
      if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
      std::istringstream words(line);
      std::string name, w;
      if (!(words >> name)) continue;
      auto& v = out[name];
      while (words >> w) v.push_back(w);
    }
    return true;
  };
  std::map<std::string, std::vector<std::string>> random_list, excluded;
  if (!random_list_file.empty() && !read_list(random_list_file, random_list)) {
    std::fprintf(stderr, "onyx-conformance: cannot read random list '%s'\n", random_list_file.c_str());
    return 2;
  }
  if (!excluded_file.empty() && !read_list(excluded_file, excluded)) {
    std::fprintf(stderr, "onyx-conformance: cannot read excluded list '%s'\n", excluded_file.c_str());
    return 2;
  }
  auto check_of = [&](const std::string& name) -> onyx::result<random_check> {
    random_check r;
    auto it = random_list.find(name);
    if (it == random_list.end()) return r;
    r.listed = true;
    for (const auto& w : it->second) {
      double lo = 0, hi = 0;
      if (w == "seeded") r.seeded = true;
      else if (w == "dropout") r.dropout = true;
      else if (std::sscanf(w.c_str(), "range=%lf,%lf", &lo, &hi) == 2) r.range = std::pair(lo, hi);
      else return onyx::status(onyx::errc::invalid_argument, "random list: '" + w + "' for " + name);
    }
    return r;
  };
  std::vector<test_case> tests;
  for (const auto& p : paths) {
    if (!fs::exists(p)) {
      std::fprintf(stderr, "onyx-conformance: '%s' does not exist\n", p.c_str());
      return 2;
    }
    discover(fs::absolute(p).lexically_normal(), tests);
  }
  int passed = 0, random_passed = 0, excluded_count = 0, failed = 0, skipped = 0;
  std::vector<std::string> new_passes, all_passes, excluded_passing;
  for (const auto& tc : tests) {
    auto rnd = check_of(tc.name);
    if (!rnd.ok()) {
      std::fprintf(stderr, "onyx-conformance: %s\n", rnd.error().message().c_str());
      return 2;
    }
    auto [res, why] = run_isolated(tc, *rnd, timeout_s);
    std::replace(why.begin(), why.end(), '\n', ' ');
    if (on_gpu && why == no_gpu_node) {
      ++skipped;
      std::printf("SKIP %s: %s\n", tc.name.c_str(), why.c_str());
    } else if (excluded.count(tc.name)) {
      ++excluded_count;
      if (res == outcome::pass) excluded_passing.push_back(tc.name);
      std::printf("EXCLUDED %s: %s\n", tc.name.c_str(), res == outcome::pass ? "passes now" : why.c_str());
    } else if (rnd->listed) {
      if (res == outcome::pass) {
        ++random_passed;
        std::printf("PASS-RANDOM %s\n", tc.name.c_str());
      } else {
        ++failed;
        std::printf("FAIL %s: %s\n", tc.name.c_str(), why.c_str());
      }
    } else if (res == outcome::pass) {
      ++passed;
      all_passes.push_back(tc.name);
      if (have_list && !listed.count(tc.name) && !not_built.count(tc.name)) new_passes.push_back(tc.name);
      std::printf("PASS %s\n", tc.name.c_str());
    } else if (!have_list || listed.count(tc.name)) {
      ++failed;
      std::printf("FAIL %s: %s\n", tc.name.c_str(), why.c_str());
    } else if (auto nb = not_built.find(tc.name); nb != not_built.end()) {
      ++skipped;
      std::printf("SKIP %s: not in this build (%s is off)\n", tc.name.c_str(), nb->second.c_str());
    } else {
      ++skipped;
      std::printf("SKIP %s: not yet supported (%s)\n", tc.name.c_str(), why.c_str());
    }
  }
  if (!new_passes.empty()) {
    std::printf("%zu passing tests are not on the pass list; add them:\n", new_passes.size());
    for (const auto& n : new_passes) std::printf("  %s\n", n.c_str());
  }
  if (!write_list_file.empty()) {
    std::ofstream out(write_list_file);
    out << "# ONNX backend tests onyx must pass (suite/test). A listed test that fails fails CI;\n"
           "# onyx-conformance reports passing tests missing from this list so it can grow.\n";
    for (const auto& n : all_passes) out << n << "\n";
  }
  if (!excluded_passing.empty()) {
    std::printf("%zu excluded tests pass now; take them off the excluded list:\n", excluded_passing.size());
    for (const auto& n : excluded_passing) std::printf("  %s\n", n.c_str());
  }
  if (!random_list.empty()) std::printf("%d random-op tests passed (shape, dtype, range, seeded repeats)\n", random_passed);
  if (!excluded.empty()) std::printf("%d excluded (listed with their reasons in %s)\n", excluded_count, excluded_file.c_str());
  std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? 1 : 0;
}
