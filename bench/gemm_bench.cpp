// SGEMM throughput of kernels/cpu/sgemm.hpp on the shapes the models make,
// beside the machine's FP32 peak and oneDNN's dnnl_sgemm, measured in the
// same process.
//
//   gemm_bench                                        # everything (a few minutes)
//   gemm_bench --benchmark_filter='/bert_'            # one family
//   gemm_bench --benchmark_filter='threads:1$'
//
// Rows, per shape and thread count, one after the other:
//   sgemm/<shape>/threads:T          C = A B, nothing packed beforehand
//   sgemm_packed/<shape>/threads:T   the constant operand packed once: A (the
//                                    weights) for conv shapes, B for the others,
//                                    as Conv and Gemm/MatMul do at prepare time
//   sgemm_streamed/<shape>/threads:T sgemm_packed with B cycled through packed
//                                    copies worth 256 MB, as a transformer's
//                                    weights come from memory, not cache, in a
//                                    run (bert_ shapes only)
//   dnnl_sgemm/<shape>/threads:T     oneDNN (when found at configure time), its
//                                    OpenMP team set to T threads
//   q8gemm_packed/<shape>/threads:T  the int8 GEMM of kernels/cpu/qgemm.hpp
//                                    (uint8 activations x int8 weights, int32
//                                    out), weights packed once, with the kernel
//                                    isa::q8_active() picks; its peak_% is of
//                                    the FP32 peak, so 400% is where int8 pays
//                                    (4 products per fp32 lane on VNNI)
//   q8gemm_weights/<shape>/threads:T the same with B as a quantized layer's
//                                    int8 weights (a rounded normal, sd 28:
//                                    per-tensor weights whose largest value
//                                    maps to 127), packed by q8_pack_weights,
//                                    so with its kernel for constant weights
//                                    (MatMulInteger's path; not conv shapes)
// and fp32_peak/threads:T, the FMA loop of bench/fp32_peak.hpp. Counters:
// GFLOP/s (2 M N K per call; GOP/s for int8) and peak_% (of fp32_peak at the same T).
//
// Shapes (row-major, no transpose, beta = 0):
//   cube_<n>                 M = N = K = n
//   r50_<hw>_<k>x<k>_<ci>_<co>  ResNet-50 conv as im2col GEMM: M = Cout,
//                            N = Hout*Wout, K = Cin*k*k
//   bert_<k>_<n>             a BERT-base linear layer at sequence 128: M = 128
//   fc_<k>_<n>               a fully connected layer at batch 1 (M = 1), B
//                            stored transposed (Gemm transB = 1)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bench/fp32_peak.hpp"
#include "bench/gemm_shapes.hpp"
#include "kernels/cpu/qgemm.hpp"
#include "kernels/cpu/sgemm.hpp"

#if defined(ONYX_BENCH_DNNL)
#include <oneapi/dnnl/dnnl.h>
#include <omp.h>
#endif

namespace {

using namespace onyx::kernels::cpu;
using onyx::bench::flops;
using onyx::bench::random_floats;
using onyx::bench::shape;
using onyx::bench::shapes;

/// Times the benchmark loop itself (wall clock, as UseRealTime reports) and
/// sets the rate counters as plain numbers (a kIsRate counter prints "/s").
class rate_timer {
 public:
  explicit rate_timer(double flops_per_call) : flops_(flops_per_call) {}
  void report(benchmark::State& state, int threads) const {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    const double gflops = flops_ * double(state.iterations()) / s / 1e9;
    state.counters["GFLOP/s"] = gflops;
    if (double peak = onyx::bench::fp32_peak_gflops(threads); peak > 0) state.counters["peak_%"] = 100.0 * gflops / peak;
  }

 private:
  double flops_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

struct operands {
  std::vector<float> A, B, C;
  explicit operands(const shape& s) : A(random_floats(s.M * s.K)), B(random_floats(s.K * s.N)), C(s.M * s.N) {}
};

void run_sgemm(benchmark::State& state, shape s, int threads) {
  const onyx::thread_pool pool(threads);
  operands o(s);
  onyx::bench::fp32_peak_gflops(threads);  // measured before the timer starts
  const rate_timer timer(flops(s));
  for (auto _ : state) {
    sgemm(false, s.trans_b, s.M, s.N, s.K, 1.0f, o.A.data(), s.K, o.B.data(), s.trans_b ? s.K : s.N, 0.0f,
          o.C.data(), s.N, &pool);
    benchmark::DoNotOptimize(o.C.data());
  }
  timer.report(state, threads);
}

// sgemm_packed; `streamed`: B cycled through enough packed copies to fill
// 256 MB, so each call reads its weights from DRAM as a model's layers do
// (one B stays in the last-level cache).
void run_sgemm_packed(benchmark::State& state, shape s, int threads, bool streamed) {
  const onyx::thread_pool pool(threads);
  operands o(s);
  onyx::bench::fp32_peak_gflops(threads);
  std::optional<rate_timer> timer;
  if (s.weights_are_a) {
    const packed_a pa = pack_a(false, s.M, s.K, o.A.data(), s.K);
    timer.emplace(flops(s));
    for (auto _ : state) {
      sgemm_packed(false, s.M, s.N, s.K, 1.0f, pa, o.B.data(), s.N, 0.0f, o.C.data(), s.N, &pool);
      benchmark::DoNotOptimize(o.C.data());
    }
  } else {
    const std::int64_t copies = streamed ? std::max<std::int64_t>(2, (std::int64_t{256} << 20) / (s.K * s.N * 4)) : 1;
    std::vector<packed_b> pb;
    for (std::int64_t i = 0; i < copies; ++i) pb.push_back(pack_b(s.trans_b, s.K, s.N, o.B.data(), s.trans_b ? s.K : s.N));
    std::size_t next = 0;
    timer.emplace(flops(s));
    for (auto _ : state) {
      sgemm_packed(false, s.M, s.N, s.K, 1.0f, o.A.data(), s.K, pb[next], 0.0f, o.C.data(), s.N, &pool);
      next = next + 1 == pb.size() ? 0 : next + 1;
      benchmark::DoNotOptimize(o.C.data());
    }
  }
  timer->report(state, threads);
}

// Times q8_gemm of the prepared operands (int32 C copied out by the sink).
void time_q8gemm(benchmark::State& state, const shape& s, int threads, const onyx::thread_pool& pool,
                 const q8_operand& a, const q8_operand& b, const char* kernel) {
  std::vector<std::int32_t> C(static_cast<std::size_t>(s.M * s.N));
  onyx::bench::fp32_peak_gflops(threads);
  auto sink = [&](const q8_block& blk) {
    for (std::int64_t r = 0; r < blk.rows; ++r)
      std::copy_n(blk.acc + r * blk.ld, blk.cols, C.data() + (blk.i0 + r) * s.N + blk.j0);
  };
  const rate_timer timer(flops(s));
  for (auto _ : state) {
    q8_gemm(s.M, s.N, s.K, a, b, q8_sink::of(sink), &pool);
    benchmark::DoNotOptimize(C.data());
  }
  state.SetLabel(kernel);
  timer.report(state, threads);
}

void run_q8gemm_packed(benchmark::State& state, shape s, int threads) {
  const onyx::thread_pool pool(threads);
  std::mt19937 rng(7);
  std::vector<std::uint8_t> A(static_cast<std::size_t>(s.M * s.K)), B(static_cast<std::size_t>(s.K * s.N));
  for (auto& v : A) v = static_cast<std::uint8_t>(rng());
  for (auto& v : B) v = static_cast<std::uint8_t>(rng());
  const std::int32_t za = 128, zb = 3;
  q8_operand a, b;
  // the weights are A for conv shapes (W x im2col), B for the others
  a.matrix = {A.data(), s.weights_are_a, s.K, false};
  b.matrix = {B.data(), !s.weights_are_a, s.N, true};
  a.zero_point = &za;
  b.zero_point = &zb;
  q8_panels packed = s.weights_are_a ? q8_pack_a(s.M, s.K, a.matrix) : q8_pack_b(s.K, s.N, b.matrix);
  (s.weights_are_a ? a : b).packed = &packed;
  time_q8gemm(state, s, threads, pool, a, b, onyx::kernels::cpu::isa::q8_active().name);
}

void run_q8gemm_weights(benchmark::State& state, shape s, int threads) {
  const onyx::thread_pool pool(threads);
  std::mt19937 rng(7);
  std::normal_distribution<float> weight(0.0f, 28.0f);
  std::vector<std::uint8_t> A(static_cast<std::size_t>(s.M * s.K)), B(static_cast<std::size_t>(s.K * s.N));
  for (auto& v : A) v = static_cast<std::uint8_t>(rng());
  for (auto& v : B)
    v = static_cast<std::uint8_t>(static_cast<std::int8_t>(std::clamp(std::nearbyint(weight(rng)), -127.0f, 127.0f)));
  const std::int32_t za = 128;
  q8_operand a, b;
  a.matrix = {A.data(), false, s.K, false};
  b.matrix = {B.data(), true, s.N, true};
  a.zero_point = &za;
  const q8_panels packed = onyx::kernels::cpu::q8_pack_weights(s.K, s.N, b.matrix);
  b.packed = &packed;
  time_q8gemm(state, s, threads, pool, a, b, packed.kernel()->name);
}

#if defined(ONYX_BENCH_DNNL)
void run_dnnl_sgemm(benchmark::State& state, shape s, int threads) {
  omp_set_num_threads(threads);
  operands o(s);
  onyx::bench::fp32_peak_gflops(threads);
  const rate_timer timer(flops(s));
  for (auto _ : state) {
    if (dnnl_sgemm('N', s.trans_b ? 'T' : 'N', s.M, s.N, s.K, 1.0f, o.A.data(), s.K, o.B.data(),
                   s.trans_b ? s.K : s.N, 0.0f, o.C.data(), s.N) != dnnl_success) {
      state.SkipWithError("dnnl_sgemm failed");
      break;
    }
    benchmark::DoNotOptimize(o.C.data());
  }
  timer.report(state, threads);
}
#endif

void run_fp32_peak(benchmark::State& state, int threads) {
  double gflops = 0;
  for (auto _ : state) gflops = std::max(gflops, onyx::bench::fma_gflops(threads, 1 << 22));
  state.counters["GFLOP/s"] = gflops;  // the best call: what the core can do
  state.counters["peak_%"] = 100.0 * gflops / onyx::bench::fp32_peak_gflops(threads);
}

const bool registered = [] {
  for (int t : {1, 2}) {
    const std::string suffix = "/threads:" + std::to_string(t);
    if (onyx::bench::has_avx512() || onyx::bench::has_avx2())
      benchmark::RegisterBenchmark(("fp32_peak" + suffix).c_str(), run_fp32_peak, t)->UseRealTime();
  }
  for (const shape& s : shapes())
    for (int t : {1, 2}) {
      const std::string suffix = "/" + s.name + "/threads:" + std::to_string(t);
      benchmark::RegisterBenchmark(("sgemm" + suffix).c_str(), run_sgemm, s, t)->UseRealTime();
      benchmark::RegisterBenchmark(("sgemm_packed" + suffix).c_str(), run_sgemm_packed, s, t, false)->UseRealTime();
      if (s.name.starts_with("bert_"))  // weights_are_a shapes are convolutions: their weights stay in cache
        benchmark::RegisterBenchmark(("sgemm_streamed" + suffix).c_str(), run_sgemm_packed, s, t, true)->UseRealTime();
      if (!s.trans_b)
        benchmark::RegisterBenchmark(("q8gemm_packed" + suffix).c_str(), run_q8gemm_packed, s, t)->UseRealTime();
      if (!s.trans_b && !s.weights_are_a)
        benchmark::RegisterBenchmark(("q8gemm_weights" + suffix).c_str(), run_q8gemm_weights, s, t)->UseRealTime();
#if defined(ONYX_BENCH_DNNL)
      benchmark::RegisterBenchmark(("dnnl_sgemm" + suffix).c_str(), run_dnnl_sgemm, s, t)->UseRealTime();
#endif
    }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
