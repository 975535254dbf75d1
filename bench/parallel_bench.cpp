// What a split costs on onyx::thread_pool against the work it splits: the
// measurement behind `parallel_grain_work` in onyx/core/parallel.hpp.
//
//   parallel_bench --benchmark_min_time=0.2
//
// Each call is timed on its own; besides the mean, `p10_ns` and `p50_ns`
// give the 10th and 50th percentile of single calls. On a shared 2-core
// machine the mean and the median at 2 threads mostly time the scheduler
// (the second thread waits for a core), so the grain is read from p10: what
// a split costs when both threads run.
//
// fork_join/T    parallel_for over T items with min_chunk 1 and an empty body:
//                the cost of one fork-join on T threads (workers spinning, as
//                within a run).
// stream/N/T     y = a * s + b over N floats, split into T chunks: one work
//                unit per element. Where T = 2 beats T = 1 by enough says how
//                many units a chunk needs.
// exp/N/T        the ISA exp over N floats: a transcendental element's cost
//                in units (its time per element over stream's).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "kernels/cpu/isa/isa.hpp"
#include "onyx/core/parallel.hpp"

namespace {

/// Runs `body` once per iteration, timing each call (manual time), and adds
/// the p10 and p50 of the single calls as counters.
template <class F>
void time_calls(benchmark::State& state, F&& body) {
  std::vector<double> ns;
  ns.reserve(1 << 18);
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    body();
    const std::chrono::duration<double> d = std::chrono::steady_clock::now() - t0;
    state.SetIterationTime(d.count());
    if (ns.size() < ns.capacity()) ns.push_back(d.count() * 1e9);
  }
  std::sort(ns.begin(), ns.end());
  state.counters["p10_ns"] = ns[ns.size() / 10];
  state.counters["p50_ns"] = ns[ns.size() / 2];
}

void fork_join(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const onyx::thread_pool pool(threads);
  time_calls(state, [&] {
    onyx::parallel_for(&pool, threads, 1, [](std::int64_t b, std::int64_t e) { benchmark::DoNotOptimize(b + e); });
  });
}
BENCHMARK(fork_join)->Arg(1)->Arg(2)->UseManualTime();

// args: elements, threads
void stream(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const onyx::thread_pool pool(static_cast<int>(state.range(1)));
  std::vector<float> a(static_cast<std::size_t>(n), 1.5f), b(a), y(a);
  const float s = 0.75f;
  time_calls(state, [&] {
    onyx::parallel_for(&pool, n, 1, [&](std::int64_t lo, std::int64_t hi) {
      for (std::int64_t i = lo; i < hi; ++i) y[i] = a[i] * s + b[i];
    });
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  });
  state.SetItemsProcessed(state.iterations() * n);
}

void exp(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const onyx::thread_pool pool(static_cast<int>(state.range(1)));
  std::vector<float> x(static_cast<std::size_t>(n), 0.375f), y(x);
  const auto f32_exp = onyx::kernels::cpu::isa::active().f32_exp;
  time_calls(state, [&] {
    onyx::parallel_for(&pool, n, 1,
                       [&](std::int64_t lo, std::int64_t hi) { f32_exp(x.data() + lo, y.data() + lo, hi - lo); });
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  });
  state.SetItemsProcessed(state.iterations() * n);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n = 1 << 8; n <= 1 << 20; n *= 2)
    for (int t : {1, 2}) b->Args({n, t});
  b->UseManualTime();
}
BENCHMARK(stream)->Apply(sizes);
BENCHMARK(exp)->Apply(sizes);

}  // namespace

BENCHMARK_MAIN();
