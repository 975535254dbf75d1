// One session, many threads (issue 15, item 3): 8 threads call run at once
// with different inputs and shapes; each result must equal, bit for bit, the
// serial run of the same input. Under ThreadSanitizer (tools/sanitize.sh
// thread) this is the data-race check of session::run. A registry of the
// five ops it runs, not all of onyx's, so a TSan build of it takes minutes.
#include <catch2/catch.hpp>

#include <cstring>
#include <thread>

#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/flatten.hpp"
#include "kernels/cpu/mat_mul.hpp"
#include "kernels/cpu/relu.hpp"
#include "kernels/cpu/softmax.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/flatten.hpp"
#include "onyx/ops/mat_mul.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/softmax.hpp"
#include "onyx/runtime/session.hpp"
#include "unit/temp_path.hpp"

namespace {

using namespace onyx;
using session = basic_session<
    registry<op_list<ops::Conv, ops::Relu, ops::Flatten, ops::MatMul, ops::Softmax>, backend_list<cpu>>>;

/// x:[N,3,8,8] -> Conv 3x3 (4 filters) -> Relu -> Flatten -> MatMul [256,5]
/// -> Softmax: a conv (packed weights, scratch), shape-dependent plans and a
/// reduction, over a symbolic batch.
std::filesystem::path model() {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {"N", 3, 8, 8});
  std::vector<float> w(4 * 3 * 3 * 3), m(256 * 5);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 7) % 11) / 11.0f - 0.5f;
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<float>((i * 5) % 13) / 13.0f - 0.5f;
  auto y = b.node("Conv", {x, b.initializer("w", tensor::from<float>(w, {4, 3, 3, 3}))},
                  {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
  y = b.node("Flatten", {b.node("Relu", {y})});
  y = b.node("MatMul", {y, b.initializer("m", tensor::from<float>(m, {256, 5}))});
  b.output(b.node("Softmax", {y}));
  auto p = test::temp_path("concurrent.onnx");
  REQUIRE(b.save(p).ok());
  return p;
}

tensor input(int k) {
  const std::int64_t n = 1 + k % 4;  // batch 1..4: four plans
  std::vector<float> v(static_cast<std::size_t>(n * 3 * 8 * 8));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 31 + k * 17) % 97) / 97.0f;
  return tensor::from<float>(v, {n, 3, 8, 8});
}

bool same_bits(const tensor& a, const tensor& b) {
  return a.type() == b.type() && a.shape() == b.shape() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

}  // namespace

TEST_CASE("8 threads running one session at once match serial runs bit for bit", "[concurrency]") {
  const int threads = GENERATE(1, 2);  // intra-op threads of the session
  session s(model(), {.threads = threads});
  constexpr int inputs = 16, per_thread = 12;
  std::vector<tensor> serial(inputs);
  for (int k = 0; k < inputs; ++k) serial[k] = s.run({{"x", input(k)}})[0].as_tensor();

  std::vector<int> mismatches(8, 0), failures(8, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&, t] {
      for (int r = 0; r < per_thread; ++r) {
        const int k = (t * 5 + r * 3) % inputs;
        std::vector<named_value> in{{"x", input(k)}};
        std::vector<value> outs;
        if (!s.run(std::span<const named_value>(in), outs).ok()) {
          ++failures[t];
          continue;
        }
        if (!same_bits(outs[0].as_tensor(), serial[k])) ++mismatches[t];
      }
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < 8; ++t) {
    CHECK(failures[t] == 0);
    CHECK(mismatches[t] == 0);
  }
}
