// The hot path allocates nothing: a counting operator new/delete replaces the
// global one, and after a warm-up run every kernel call of Conv, MatMul, Gemm,
// the pools and the elementwise ops must make no allocation. Their plans and
// scratch come from the shaped plan (kernel.hpp's `plan` step), so `run` has
// nothing left to allocate.
//
// Models: ResNet-50 (argv[1]) and a BERT-style encoder built here (2 layers,
// hidden 64, 4 heads, FFN 256, sequence 16), exported as PyTorch does:
// MatMul + Add, LayerNormalization in layer 1 and the ReduceMean / Sub / Pow /
// Sqrt / Div chain in layer 2, Softmax, Transpose / Reshape, Gelu in layer 1
// and its Erf form in layer 2. Each runs with 1 and 2 threads.
//
// Counted three ways, and printed: inside each kernel call (the executor's
// step observer), over the executor's whole walk (runtime::execute, which
// also allocates the graph outputs), and over session.run (which adds its
// argument checks and the output vector). Only the first is asserted: the
// other two still allocate, outside the kernels, and the test says how much.
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <random>
#include <string_view>

#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"

// --- counting allocator --------------------------------------------------------

namespace {
std::atomic<long> allocations{0};
std::atomic<bool> armed{false};

void* counted(std::size_t n, std::size_t align = 0) {
  if (armed.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (n == 0) n = 1;
  void* p =
      align > alignof(std::max_align_t) ? std::aligned_alloc(align, (n + align - 1) / align * align) : std::malloc(n);
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return counted(n); }
void* operator new[](std::size_t n) { return counted(n); }
void* operator new(std::size_t n, std::align_val_t a) { return counted(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

using namespace onyx;

int failures = 0;

#define CHECK_OK(expr)                                                                          \
  do {                                                                                          \
    ::onyx::status s_ = (expr);                                                                 \
    if (!s_.ok()) {                                                                             \
      std::printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, std::string(s_.message()).c_str()); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

/// The ops whose kernels must not allocate (fused forms included).
bool watched(std::string_view op) {
  for (std::string_view w :
       {"Conv", "MatMul", "Gemm", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "Add", "Sub", "Mul",
        "Div",  "Pow",    "Sqrt", "Erf",     "Relu",        "Sigmoid",           "Tanh",          "Exp", "Neg", "Abs",
        "Sum",  "Max",    "Min",  "Mean"})
    if (op == w) return true;
  return false;
}

/// Counts the allocations inside each kernel call (the counter is armed for
/// the whole run); the tally lives in fixed arrays, so it allocates nothing.
class kernel_counter final : public runtime::step_observer {
 public:
  static constexpr int max_ops = 64;
  void before(const graph::node&) override { start_ = allocations.load(); }
  void after(const graph::node& n) override {
    const long made = allocations.load() - start_;
    if (made == 0) return;
    const std::string_view op = n.op->name;
    int i = 0;
    while (i < used_ && names_[i] != op) ++i;
    if (i == used_ && used_ < max_ops) names_[used_++] = op;
    if (i < max_ops) counts_[i] += made;
  }
  /// Prints the ops that allocated; returns the count over watched ops.
  long report(const char* what) const {
    long bad = 0;
    for (int i = 0; i < used_; ++i) {
      std::printf("  %s: %ld allocations inside %.*s kernels%s\n", what, counts_[i], static_cast<int>(names_[i].size()),
                  names_[i].data(), watched(names_[i]) ? " (must be 0)" : "");
      if (watched(names_[i])) bad += counts_[i];
    }
    return bad;
  }

 private:
  long start_ = 0;
  int used_ = 0;
  std::string_view names_[max_ops];
  long counts_[max_ops] = {};
};

/// Runs `m` through the pipeline as the session does, then the executor
/// directly: a warm-up run, then a counted one.
template <class MakeModel>
void check_model(MakeModel make_model, const std::vector<named_value>& inputs, int threads, const char* name) {
  const op_table ops = session::all_ops();
  graph::model m = make_model();
  CHECK_OK(graph::resolve_ops(m, ops));
  CHECK_OK(graph::normalize(*m.main, ops));
  std::unique_ptr<thread_pool> pool = threads > 1 ? std::make_unique<thread_pool>(threads) : nullptr;
  runtime::compile_options co{true, pool.get(), ops};
  auto cg = runtime::compile(m.main, co);
  CHECK_OK(cg.ok() ? ok() : cg.error());
  const runtime::compiled_graph& g = **cg;

  std::vector<value_type> types;
  std::vector<extents> key;
  for (const auto& [n, v] : inputs) {
    key.push_back(v.as_tensor().shape());
    types.push_back({value_kind::tensor, v.as_tensor().type(), sym_shape(key.back())});
  }
  auto plan = runtime::make_shaped_plan(g, types, key, pool.get());
  CHECK_OK(plan.ok() ? ok() : plan.error());

  runtime::run_context rc;
  kernel_counter kernels;
  long executor_total = 0;
  for (int run = 0; run < 2; ++run) {
    CHECK_OK(runtime::bind_plan(g, plan->get(), rc));
    for (std::size_t i = 0; i < inputs.size(); ++i) rc.slots[g.g->inputs[i]] = inputs[i].second;
    const bool counted_run = run == 1;
    rc.observer = counted_run ? &kernels : nullptr;
    const long before = allocations.load();
    if (counted_run) armed = true;
    status st = runtime::execute(g, plan->get(), rc, pool.get());
    armed = false;
    if (counted_run) executor_total = allocations.load() - before;
    CHECK_OK(st);
    runtime::finish_run(rc);
  }
  std::printf("%s, %d thread(s):\n", name, threads);
  const long bad = kernels.report(name);
  std::printf("  %s: %ld allocations in the executor's whole walk (graph outputs: %zu)\n", name, executor_total,
              g.g->outputs.size());

  // The same model through session.run, for the record.
  session s(make_model(), {.threads = threads});
  std::vector<value> outs;
  CHECK_OK(s.run(inputs, outs));
  outs.clear();
  const long before = allocations.load();
  armed = true;
  status st = s.run(inputs, outs);
  armed = false;
  CHECK_OK(st);
  std::printf("  %s: %ld allocations in session.run (outputs, argument checks and bookkeeping included)\n", name,
              allocations.load() - before);
  if (bad != 0) {
    std::printf("FAILED: %s: %ld allocations inside Conv, MatMul, Gemm, pool or elementwise kernels\n", name, bad);
    ++failures;
  }
}

tensor random_tensor(const extents& shape, float scale, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d(0.0f, scale);
  std::vector<float> v(static_cast<std::size_t>(element_count(shape)));
  for (auto& x : v) x = d(gen);
  return tensor::from<float>(v, shape);
}

tensor int64s(std::vector<std::int64_t> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return tensor::from<std::int64_t>(v, {n});
}

/// A 2-layer BERT-style encoder as PyTorch exports it (opset 20).
graph::model encoder() {
  constexpr std::int64_t S = 16, H = 64, heads = 4, D = H / heads, F = 256;
  graph::model_builder b{20};
  unsigned seed = 1;
  auto weight = [&](const std::string& name, extents shape) {
    return b.initializer(name, random_tensor(shape, 0.1f, seed++));
  };
  auto linear = [&](const std::string& x, const std::string& name, std::int64_t in, std::int64_t out) {
    return b.node("Add", {b.node("MatMul", {x, weight(name + ".weight", {in, out})}), weight(name + ".bias", {out})});
  };
  const auto split_shape = b.initializer("split_shape", int64s({1, S, heads, D}));
  const auto merge_shape = b.initializer("merge_shape", int64s({1, S, H}));
  const auto axes = b.initializer("last_axis", int64s({-1}));
  const auto scale = b.initializer("scale", tensor::from<float>({std::sqrt(float(D))}, {}));
  const auto eps = b.initializer("eps", tensor::from<float>({1e-5f}, {}));
  const auto two = b.initializer("two", tensor::from<float>({2.0f}, {}));
  const auto one = b.initializer("one", tensor::from<float>({1.0f}, {}));
  const auto half = b.initializer("half", tensor::from<float>({0.5f}, {}));
  const auto sqrt2 = b.initializer("sqrt2", tensor::from<float>({std::sqrt(2.0f)}, {}));

  auto layer_norm = [&](const std::string& x, const std::string& name, bool as_op) {
    const auto gamma = weight(name + ".gamma", {H}), beta = weight(name + ".beta", {H});
    if (as_op) return b.node("LayerNormalization", {x, gamma, beta}, {{"axis", std::int64_t{-1}}, {"epsilon", 1e-5f}});
    const auto mean = b.node("ReduceMean", {x, axes}, {{"keepdims", std::int64_t{1}}});
    const auto centered = b.node("Sub", {x, mean});
    const auto var = b.node("ReduceMean", {b.node("Pow", {centered, two}), axes}, {{"keepdims", std::int64_t{1}}});
    const auto normed = b.node("Div", {centered, b.node("Sqrt", {b.node("Add", {var, eps})})});
    return b.node("Add", {b.node("Mul", {normed, gamma}), beta});
  };

  std::string x = b.input("x", dtype::float32, {1, S, H});
  for (int layer = 0; layer < 2; ++layer) {
    const std::string p = "layer" + std::to_string(layer);
    auto heads_of = [&](const std::string& t, std::vector<std::int64_t> perm) {
      return b.node("Transpose", {b.node("Reshape", {t, split_shape})}, {{"perm", perm}});
    };
    const auto q = heads_of(linear(x, p + ".q", H, H), {0, 2, 1, 3});
    const auto k = heads_of(linear(x, p + ".k", H, H), {0, 2, 3, 1});
    const auto v = heads_of(linear(x, p + ".v", H, H), {0, 2, 1, 3});
    const auto scores = b.node("Div", {b.node("MatMul", {q, k}), scale});
    const auto probs = b.node("Softmax", {scores}, {{"axis", std::int64_t{-1}}});
    const auto ctx =
        b.node("Transpose", {b.node("MatMul", {probs, v})}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}});
    const auto attn = linear(b.node("Reshape", {ctx, merge_shape}), p + ".o", H, H);
    x = layer_norm(b.node("Add", {x, attn}), p + ".ln1", layer == 0);
    const auto up = linear(x, p + ".ffn1", H, F);
    const auto act = layer == 0 ? b.node("Gelu", {up})
                                : b.node("Mul", {b.node("Mul", {up, half}),
                                                 b.node("Add", {one, b.node("Erf", {b.node("Div", {up, sqrt2})})})});
    x = layer_norm(b.node("Add", {x, linear(act, p + ".ffn2", F, H)}), p + ".ln2", layer == 0);
  }
  b.output(x);
  auto m = graph::load_model_from_bytes(b.serialize(), session::all_ops());
  CHECK_OK(m.ok() ? ok() : m.error());
  return std::move(m).value();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::printf("usage: %s resnet50.onnx\n", argv[0]);
    return 2;
  }
  auto resnet = [&] {
    auto m = graph::onnx_loader::load(argv[1], session::all_ops());
    CHECK_OK(m.ok() ? ok() : m.error());
    return std::move(m).value();
  };
  const std::string input = [&] {
    auto m = resnet();
    return m.main->values[m.main->inputs[0]].name;
  }();
  for (int threads : {1, 2}) {
    check_model(resnet, {{input, random_tensor({1, 3, 224, 224}, 1.0f, 7)}}, threads, "resnet50");
    check_model(encoder, {{"x", random_tensor({1, 16, 64}, 1.0f, 11)}}, threads, "encoder");
  }
  if (failures) return 1;
  std::printf("no allocation inside the watched kernels\n");
  return 0;
}
