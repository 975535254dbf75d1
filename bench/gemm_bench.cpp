// sgemm throughput, in GFLOP/s (2*M*N*K per call), per ISA level and thread
// count. Square problems, row-major, no transpose, beta = 0.
//
//   gemm_bench --benchmark_filter='sgemm/avx512/512/1'
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/sgemm.hpp"

namespace {

using namespace onyx::kernels::cpu;

std::vector<float> random_floats(std::int64_t n) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

void set_rate(benchmark::State& state, std::int64_t m, std::int64_t n, std::int64_t k) {
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * double(m) * double(n) * double(k) / 1e9,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

// args: size, threads
void sgemm_square(benchmark::State& state, const isa::table* kernels) {
  const std::int64_t n = state.range(0);
  const onyx::thread_pool pool(static_cast<int>(state.range(1)));
  const auto A = random_floats(n * n), B = random_floats(n * n);
  std::vector<float> C(static_cast<std::size_t>(n * n));
  for (auto _ : state) {
    sgemm(false, false, n, n, n, 1.0f, A.data(), n, B.data(), n, 0.0f, C.data(), n, &pool, {}, *kernels);
    benchmark::DoNotOptimize(C.data());
  }
  set_rate(state, n, n, n);
}

// The same with B packed once beforehand (a MatMul with constant weights).
void sgemm_packed_b(benchmark::State& state, const isa::table* kernels) {
  const std::int64_t n = state.range(0);
  const onyx::thread_pool pool(static_cast<int>(state.range(1)));
  const auto A = random_floats(n * n), B = random_floats(n * n);
  std::vector<float> C(static_cast<std::size_t>(n * n));
  const packed_b pb = pack_b(false, n, n, B.data(), n, *kernels);
  for (auto _ : state) {
    sgemm_packed(false, n, n, n, 1.0f, A.data(), n, pb, 0.0f, C.data(), n, &pool, {}, *kernels);
    benchmark::DoNotOptimize(C.data());
  }
  set_rate(state, n, n, n);
}

const bool registered = [] {
  for (auto l : {isa::level::scalar, isa::level::sse, isa::level::avx2, isa::level::avx512}) {
    const isa::table* t = isa::find(l);
    if (!t) continue;
    const std::string level = isa::name(l);
    benchmark::RegisterBenchmark(("sgemm/" + level).c_str(), sgemm_square, t)
        ->ArgsProduct({{64, 128, 256, 512, 1024}, {1, 2}})
        ->ArgNames({"", ""})
        ->UseRealTime();
    benchmark::RegisterBenchmark(("sgemm_packed_b/" + level).c_str(), sgemm_packed_b, t)
        ->ArgsProduct({{256, 512}, {1, 2}})
        ->ArgNames({"", ""})
        ->UseRealTime();
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
