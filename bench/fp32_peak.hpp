// bench/fp32_peak.hpp: the machine's FP32 FMA peak, measured in the running
// benchmark, so kernel rows can say what fraction of it they reach.
//
// The loop keeps 12 zmm accumulators in flight (more than FMA latency x
// throughput on any x86-64 core: Zen 4 needs 4 x 1, Skylake-X 4 x 2) and
// issues only vfmadd...ps on registers: no loads, no stores inside the loop
// (check: `objdump -d -C build/bench/gemm_bench | awk '/<onyx::bench::fma_loop/,/ret/'`:
// the loop is 12 vfmadd132ps zmm, an add, a cmp and a jne). One call of fma_loop(n) does n * 12 FMAs of 16 lanes,
// n * 384 flops. Without AVX-512 but with AVX2 + FMA the same loop on ymm
// registers (fma_loop_avx2, n * 192 flops); with neither it reports 0 (no
// peak row, no peak_%).
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <thread>
#include <vector>

#include "kernels/cpu/isa/isa.hpp"

namespace onyx::bench {

inline constexpr double flops_per_fma_iteration = 12.0 * 16 * 2;

/// n iterations of 12 independent zmm FMAs; returns a sum so nothing is dead.
__attribute__((target("avx512f"), noinline)) inline float fma_loop(std::int64_t n, float seed) {
  __m512 acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = _mm512_set1_ps(seed + static_cast<float>(i));
  const __m512 x = _mm512_set1_ps(0.999999f), y = _mm512_set1_ps(1e-7f);
  for (std::int64_t k = 0; k < n; ++k)
    for (int i = 0; i < 12; ++i) acc[i] = _mm512_fmadd_ps(acc[i], x, y);  // unrolled by GCC at -O2
  __m512 s = acc[0];
  for (int i = 1; i < 12; ++i) s = _mm512_add_ps(s, acc[i]);
  alignas(64) float lanes[16];  // not _mm512_reduce_add_ps: GCC 12 warns inside it
  _mm512_store_ps(lanes, s);
  float sum = 0;
  for (float v : lanes) sum += v;
  return sum;
}

/// The same on ymm registers, for AVX2 machines (n * 12 FMAs of 8 lanes).
__attribute__((target("avx2,fma"), noinline)) inline float fma_loop_avx2(std::int64_t n, float seed) {
  __m256 acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_ps(seed + static_cast<float>(i));
  const __m256 x = _mm256_set1_ps(0.999999f), y = _mm256_set1_ps(1e-7f);
  for (std::int64_t k = 0; k < n; ++k)
#pragma GCC unroll 12
    for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_ps(acc[i], x, y);
  __m256 s = acc[0];
  for (int i = 1; i < 12; ++i) s = _mm256_add_ps(s, acc[i]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, s);
  float sum = 0;
  for (float v : lanes) sum += v;
  return sum;
}

inline bool has_avx512() { return kernels::cpu::isa::detected() == kernels::cpu::isa::level::avx512; }
inline bool has_avx2() { return kernels::cpu::isa::detected() >= kernels::cpu::isa::level::avx2; }

/// GFLOP/s of `threads` threads each running fma_loop(n) (fma_loop_avx2
/// without AVX-512) at once (the caller is one of them); the slowest thread
/// sets the time.
inline double fma_gflops(int threads, std::int64_t n) {
  std::vector<float> sink(static_cast<std::size_t>(threads));
  std::vector<std::thread> workers;
  const bool wide = has_avx512();
  const auto loop = [wide](std::int64_t count, float seed) {
    return wide ? fma_loop(count, seed) : fma_loop_avx2(count, seed);
  };
  const auto t0 = std::chrono::steady_clock::now();
  for (int t = 1; t < threads; ++t) workers.emplace_back([&, t] { sink[t] = loop(n, float(t)); });
  sink[0] = loop(n, 0.0f);
  for (auto& w : workers) w.join();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  volatile float keep = sink[0];
  (void)keep;
  return threads * double(n) * flops_per_fma_iteration / (wide ? 1 : 2) / s / 1e9;
}

/// The best of 10 runs of about 15 ms each (2^22 iterations), measured once per thread count
/// per process (the first row that asks pays about 0.2 s).
inline double fp32_peak_gflops(int threads) {
  static std::map<int, double> cache;
  if (!has_avx512() && !has_avx2()) return 0.0;
  if (auto it = cache.find(threads); it != cache.end()) return it->second;
  double best = 0;
  for (int r = 0; r < 10; ++r) best = std::max(best, fma_gflops(threads, 1 << 22));
  return cache[threads] = best;
}

}  // namespace onyx::bench
