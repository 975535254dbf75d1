// runtime/profile.hpp through a session: the Chrome trace (session_options::
// profile_file) covers every node of every run and the creation stages, and
// is well-formed; profile_summary() is the per-op table.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;

std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("profile_file: a Chrome trace with one event per node per run and the creation stages") {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {2, 3, 6, 6});
  auto w = b.initializer("w", tensor::zeros(dtype::float32, {4, 3, 3, 3}));
  auto y = b.node("Conv", {x, w});
  auto r = b.node("Sigmoid", {y});
  b.output(b.node("Transpose", {r}, {{"perm", std::vector<std::int64_t>{0, 2, 3, 1}}}));
  const auto model = onyx::test::temp_path("profile.onnx");
  REQUIRE(b.save(model).ok());
  const auto trace = onyx::test::temp_path("profile.json");

  session s(model, {.threads = 1, .profile_file = trace, .profile_summary = true});
  const auto nodes = s.nodes();
  REQUIRE(nodes.size() == 3);
  std::vector<value> outs;
  const std::vector<named_value> in{{"x", tensor::zeros(dtype::float32, {2, 3, 6, 6})}};
  for (int i = 0; i < 4; ++i) REQUIRE(s.run(std::span<const named_value>(in), outs).ok());
  CHECK(!std::filesystem::exists(trace));
  REQUIRE(s.end_profiling().ok());
  CHECK(s.profile_file() == trace);

  const std::string text = read_text(trace);
  CHECK(text.starts_with("{\"displayTimeUnit\":\"ms\""));
  CHECK(text.ends_with("]}\n"));
  CHECK(count(text, "\"cat\":\"node\"") == 4 * nodes.size());
  for (const auto& n : nodes) CHECK(count(text, "{\"name\":\"" + n.name + "\",\"cat\":\"node\"") == 4);
  CHECK(count(text, "\"op_name\":\"Conv\",\"kernel\":\"cpu(float32,float32)\"") == 4);
  CHECK(count(text, "\"input_shapes\":\"[2,3,6,6],[4,3,3,3]\"") == 4);
  CHECK(count(text, "\"op_name\":\"Transpose\"") == 4);
  for (const char* stage : {"load", "normalize", "infer", "fold_constants", "fuse_conv", "prepare"})
    CHECK(count(text, std::string("{\"name\":\"") + stage + "\",\"cat\":\"session\"") == 1);
  CHECK(count(text, "\"ph\":\"X\"") == count(text, "\"dur\":"));

  // The table: one line per op type, four calls each.
  const std::string table = s.profile_summary();
  CHECK(table.starts_with("onyx profile: 4 runs"));
  CHECK(table.find("Sigmoid") != std::string::npos);

  // Written once: later runs are not recorded.
  REQUIRE(s.run(std::span<const named_value>(in), outs).ok());
  REQUIRE(s.end_profiling().ok());
  CHECK(read_text(trace) == text);

  // Restarted (as onyx-run does after its warm-up), the table counts only
  // the runs after it.
  s.restart_profile_summary();
  CHECK(s.profile_summary().starts_with("onyx profile: 0 runs"));
  CHECK(s.profile_summary().find("Sigmoid") == std::string::npos);
  for (int i = 0; i < 2; ++i) REQUIRE(s.run(std::span<const named_value>(in), outs).ok());
  CHECK(s.profile_summary().starts_with("onyx profile: 2 runs"));
  const std::string again = s.profile_summary();
  const auto at = again.find("  Sigmoid ");
  REQUIRE(at != std::string::npos);
  long long calls = 0;
  REQUIRE(std::sscanf(again.c_str() + at, " Sigmoid %lld", &calls) == 1);
  CHECK(calls == 2);
}

TEST_CASE("profile_file: an unwritable file is a clear error") {
  graph::model_builder b{17};
  b.output(b.node("Relu", {b.input("x", dtype::float32, {2})}));
  const auto model = onyx::test::temp_path("profile_bad.onnx");
  REQUIRE(b.save(model).ok());
  session s(model, {.threads = 1, .profile_file = "/nonexistent-dir/trace.json"});
  status st = s.end_profiling();
  CHECK(st.code() == errc::io);
  CHECK(st.message().find("/nonexistent-dir/trace.json") != std::string::npos);
}
