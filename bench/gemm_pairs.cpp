// onyx's SGEMM against oneDNN's, alternated call by call on one thread.
//
//   gemm_pairs [CALLS] [NAME-FILTER]     # e.g. gemm_pairs 200 bert_
//
// gemm_bench times each row for a while, then the next, so on a machine
// whose speed comes in phases (a VM whose core is shared with another guest:
// the same binary ran a 128 x 768 x 768 product at 45 GFLOP/s for seconds,
// then at 80) two rows can be measured in different phases. Here each call
// of onyx's `sgemm_packed` (the weights packed once, as a session does) is
// followed by one of `dnnl_sgemm` on the same operands, and the ratio is
// taken per pair, so both sides of a ratio ran in the same phase. Printed per
// shape: each side's median and best GFLOP/s over CALLS pairs, and the
// quartiles of the per-pair speed ratio onyx / oneDNN (above 1: onyx is
// faster). Pin it (taskset -c 0) and keep the machine otherwise idle.
#include <oneapi/dnnl/dnnl.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "bench/gemm_shapes.hpp"
#include "kernels/cpu/sgemm.hpp"

namespace {

using namespace onyx::kernels::cpu;
using onyx::bench::shape;

double seconds_of(auto&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

void run(const shape& s, int calls) {
  const std::vector<float> A = onyx::bench::random_floats(s.M * s.K), B = onyx::bench::random_floats(s.K * s.N);
  std::vector<float> C(static_cast<std::size_t>(s.M * s.N));
  const std::int64_t ldb = s.trans_b ? s.K : s.N;
  std::vector<double> ours, theirs, ratio;
  // The weights packed once, outside the timing, as a session does at prepare.
  std::optional<packed_a> pa;
  std::optional<packed_b> pb;
  if (s.weights_are_a)
    pa.emplace(pack_a(false, s.M, s.K, A.data(), s.K));
  else
    pb.emplace(pack_b(s.trans_b, s.K, s.N, B.data(), ldb));
  const auto onyx_call = [&] {
    if (pa)
      sgemm_packed(s.trans_b, s.M, s.N, s.K, 1.0f, *pa, B.data(), ldb, 0.0f, C.data(), s.N, nullptr);
    else
      sgemm_packed(false, s.M, s.N, s.K, 1.0f, A.data(), s.K, *pb, 0.0f, C.data(), s.N, nullptr);
  };
  const auto dnnl_call = [&] {
    dnnl_sgemm('N', s.trans_b ? 'T' : 'N', s.M, s.N, s.K, 1.0f, A.data(), s.K, B.data(), ldb, 0.0f, C.data(), s.N);
  };
  onyx_call();  // first touches and warm caches
  dnnl_call();
  const double f = onyx::bench::flops(s) / 1e9;
  for (int i = 0; i < calls; ++i) {
    const double a = seconds_of(onyx_call), b = seconds_of(dnnl_call);
    ours.push_back(f / a);
    theirs.push_back(f / b);
    ratio.push_back(b / a);
  }
  std::printf("%-22s %8.1f %8.1f %8.1f %8.1f    %5.2f %5.2f %5.2f\n", s.name.c_str(), quantile(ours, 0.5),
              quantile(ours, 1.0), quantile(theirs, 0.5), quantile(theirs, 1.0), quantile(ratio, 0.25),
              quantile(ratio, 0.5), quantile(ratio, 0.75));
}

}  // namespace

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::max(1, std::atoi(argv[1])) : 100;
  const std::string filter = argc > 2 ? argv[2] : "";
  omp_set_num_threads(1);
  std::printf("%d pairs per shape, 1 thread; GFLOP/s median and best; onyx/oneDNN speed per pair: quartiles\n", calls);
  std::printf("%-22s %8s %8s %8s %8s    %5s %5s %5s\n", "shape", "onyx", "best", "oneDNN", "best", "q1", "median",
              "q3");
  for (const shape& s : onyx::bench::shapes())
    if (s.name.find(filter) != std::string::npos) run(s, calls);
}
