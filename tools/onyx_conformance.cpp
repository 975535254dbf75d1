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
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

#include "onyx/graph/tensor_proto.hpp"
#include "onyx/session.hpp"

namespace fs = std::filesystem;

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

/// Runs one test in this process; empty on success, else why it failed.
std::string run_test(const test_case& tc) {
  auto opened = onyx::session::open(tc.model);
  if (!opened.ok()) return opened.error().message();
  const auto& s = **opened;

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
      if (auto why = compare(outs[i], expected[i]); !why.empty())
        return "output " + std::to_string(i) + " ('" + s.outputs()[i].name + "'): " + why;
    }
  }
  return {};
}

enum class outcome { pass, fail };

/// Runs `tc` in a child process with a time limit; returns the failure text.
std::pair<outcome, std::string> run_isolated(const test_case& tc, int timeout_s) {
  int fds[2];
  if (pipe(fds) != 0) return {outcome::fail, "pipe failed"};
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string why = run_test(tc);
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

int main(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string pass_list_file, write_list_file;
  int timeout_s = 120;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--pass-list" || a == "--write-pass-list" || a == "--timeout") && i + 1 < argc) {
      std::string v = argv[++i];
      if (a == "--pass-list") pass_list_file = v;
      else if (a == "--write-pass-list") write_list_file = v;
      else timeout_s = std::max(1, std::atoi(v.c_str()));
    } else if (a.starts_with("-")) {
      std::fprintf(stderr, "usage: onyx-conformance [--pass-list FILE] [--write-pass-list FILE] [--timeout S] PATH...\n");
      return 2;
    } else {
      paths.push_back(a);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr, "usage: onyx-conformance [--pass-list FILE] [--write-pass-list FILE] [--timeout S] PATH...\n");
    return 2;
  }
  std::set<std::string> listed;
  bool have_list = !pass_list_file.empty();
  if (have_list) {
    std::ifstream in(pass_list_file);
    if (!in) {
      std::fprintf(stderr, "onyx-conformance: cannot read pass list '%s'\n", pass_list_file.c_str());
      return 2;
    }
    for (std::string line; std::getline(in, line);) {
      line.erase(line.find_last_not_of(" \t\r") + 1);
      if (!line.empty() && line[0] != '#') listed.insert(line);
    }
  }
  std::vector<test_case> tests;
  for (const auto& p : paths) {
    if (!fs::exists(p)) {
      std::fprintf(stderr, "onyx-conformance: '%s' does not exist\n", p.c_str());
      return 2;
    }
    discover(fs::absolute(p).lexically_normal(), tests);
  }
  int passed = 0, failed = 0, skipped = 0;
  std::vector<std::string> new_passes, all_passes;
  for (const auto& tc : tests) {
    auto [res, why] = run_isolated(tc, timeout_s);
    std::replace(why.begin(), why.end(), '\n', ' ');
    if (res == outcome::pass) {
      ++passed;
      all_passes.push_back(tc.name);
      if (have_list && !listed.count(tc.name)) new_passes.push_back(tc.name);
      std::printf("PASS %s\n", tc.name.c_str());
    } else if (!have_list || listed.count(tc.name)) {
      ++failed;
      std::printf("FAIL %s: %s\n", tc.name.c_str(), why.c_str());
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
  std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? 1 : 0;
}
