// test/unit/op_harness.hpp: runs one op's kernel outside any graph.
//
// `run_op<ops::Add>({a, b})` parses attributes, runs the op's inference on the
// actual inputs, finds the kernel for the inputs' type signature on the
// backend and runs it as constant folding does (runtime::invoke). Op unit
// tests compare its outputs against a plain reference.
//
// In onyx_tests (ONYX_TEST_PREBUILT, it links onyx_runtime) a CPU op's kernels
// and load-time functions are the ones onyx_runtime compiled
// (prebuilt_registry): a test TU parses the kernel headers it includes but
// instantiates none of their code, which halves its compile time. Other
// backends (test devices), and the cross builds' kernel tests, which have no
// onyx_runtime, instantiate theirs here.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <type_traits>

#include "onyx/graph/ir.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/registry/registry.hpp"
#include "onyx/runtime/invoke.hpp"

namespace onyx::test {

struct harness_infer final : ops::infer_context {
  std::vector<value_type> in_types;
  std::vector<const tensor*> in_values;
  std::vector<value_type> out_types;
  std::vector<std::optional<tensor>> out_values;
  std::string node = "test_node";

  int input_count() const override { return static_cast<int>(in_types.size()); }
  int output_count() const override { return static_cast<int>(out_types.size()); }
  bool has_input(int i) const override { return i < input_count() && in_values[i] != nullptr; }
  const value_type& input(int i) const override { return in_types[i]; }
  const tensor* input_value(int i) const override { return in_values[i]; }
  void set_output(int i, value_type t) override { out_types[i] = std::move(t); }
  void set_output_value(int i, tensor v) override { out_values[i] = std::move(v); }
  const std::string& node_name() const override { return node; }
  ops::body_interface interface_of(const graph::graph& body) const override { return graph::interface_of(body); }
};

/// Runs `Op` on `inputs` (an empty tensor stands for an omitted optional input).
template <class Op, class Backend = cpu>
result<std::vector<tensor>> run_op(const std::vector<tensor>& inputs, const std::vector<attribute>& attrs = {},
                                   int outputs = 1, const thread_pool* pool = nullptr) {
#if ONYX_TEST_PREBUILT
  using reg = std::conditional_t<std::is_same_v<Backend, cpu>, prebuilt_registry<op_list<Op>, backend_list<cpu>>,
                                 registry<op_list<Op>, backend_list<Backend>>>;
#else
  using reg = registry<op_list<Op>, backend_list<Backend>>;
#endif
  const op_info& op = reg::ops[0];
  ONYX_ASSIGN(auto parsed, op.parse(attrs));

  harness_infer inf;
  for (auto& t : inputs) {
    inf.in_types.push_back(value_type{value_kind::tensor, t.type(), sym_shape(t.shape())});
    inf.in_values.push_back(t.empty() ? nullptr : &t);
  }
  inf.out_types.resize(outputs);
  inf.out_values.resize(outputs);
  ONYX_TRY(op.infer(parsed.get(), inf));

  ops::signature sig;
  sig.n = static_cast<int>(op.signature.size());
  for (int i = 0; i < sig.n; ++i) {
    auto s = op.signature[i];
    sig.t[i] = s.output ? inf.out_types[s.index].type : inputs[s.index].type();
  }
  const kernel_entry* k = op.kernels[0].find(sig.key());
  if (!k) return status(errc::unsupported, std::string(op.name) + " has no kernel for " + ops::to_string(sig));

  std::vector<const value_type*> wanted;
  for (auto& t : inf.out_types) wanted.push_back(&t);
  return runtime::invoke(*k, parsed.get(), inf.in_values, wanted, pool);
}

/// Deterministic values uniform in [lo, hi).
template <class T> std::vector<T> random_values(std::size_t n, double lo = -1, double hi = 1, unsigned seed = 42) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(gen));
  return v;
}

/// |a - b| <= atol + rtol * |b| element-wise (ONNX's own test rule), NaN == NaN.
template <class T>
void require_close(const tensor& actual, const std::vector<T>& expected, double rtol = 1e-5, double atol = 1e-6) {
  REQUIRE(actual.size() == static_cast<std::int64_t>(expected.size()));
  auto a = actual.values<T>();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    double x = static_cast<double>(a[i]), y = static_cast<double>(expected[i]);
    if ((std::isnan(x) && std::isnan(y)) || x == y) continue;  // NaN matches NaN; equal infinities match
    INFO("element " << i << ": actual " << x << ", expected " << y);
    REQUIRE(std::abs(x - y) <= atol + rtol * std::abs(y));
  }
}

inline attribute attr(std::string name, std::int64_t v) { return {std::move(name), v}; }
inline attribute attr(std::string name, int v) { return {std::move(name), std::int64_t{v}}; }
inline attribute attr(std::string name, float v) { return {std::move(name), v}; }
inline attribute attr(std::string name, std::string v) { return {std::move(name), std::move(v)}; }
inline attribute attr(std::string name, std::vector<std::int64_t> v) { return {std::move(name), std::move(v)}; }
inline attribute attr(std::string name, std::vector<float> v) { return {std::move(name), std::move(v)}; }
/// Doubles narrowed to float (references are computed in double).
inline std::vector<float> f32(const std::vector<double>& v) { return {v.begin(), v.end()}; }
/// A 1-D int64 tensor of `v`.
inline tensor i64(std::vector<std::int64_t> v) { return tensor::from(v, {static_cast<std::int64_t>(v.size())}); }
/// A bool tensor's values.
inline std::vector<bool> bools(const tensor& t) {
  auto v = t.values<bool>();
  return std::vector<bool>(v.begin(), v.end());
}
/// A strings attribute (attr's braced lists would read as one string).
inline attribute sattr(std::string name, std::vector<std::string> v) { return {std::move(name), std::move(v)}; }

}  // namespace onyx::test
