// bench/cuda/gemm_bench.cpp: the CUDA backend's matrix product and its
// host <-> device copies, timed on the GPU.
//
//   cuda_gemm_bench [--runs N]
//
// gemm: onyx's `gemm` launcher (kernels/cuda/launch.hpp), the one MatMul,
// Gemm and Conv call, on row-major operands already on the device, timed with
// CUDA events over N calls after 3 warm-ups; prints one line per shape and
// type: "gemm M N K dtype ms TFLOP/s". bench/cuda/gemm_compare.py times
// PyTorch's torch.matmul (cuBLAS's own choice of kernel) on the same shapes
// and puts the two side by side.
// copy: onyx::cuda::from_host / to_host, as a run copies its inputs in and
// its outputs back, host wall time; prints "copy bytes direction GB/s".
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/cuda/backend.hpp"
#include "kernels/cuda/launch.hpp"
#include "onyx/core/tensor.hpp"

namespace {

using namespace onyx;
namespace kcu = onyx::kernels::cuda;

struct shape {
  std::int64_t m, n, k;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Milliseconds of one call of `f` on the GPU: the median of `runs` calls,
/// each between two events.
template <class F> double time_gpu(int runs, F&& f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    cudaEventRecord(a, cudaStreamPerThread);
    f();
    cudaEventRecord(b, cudaStreamPerThread);
    cudaEventSynchronize(b);
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return median(ms);
}

/// Host wall milliseconds of `f` (copies end on the host).
template <class F> double time_host(int runs, F&& f) {
  for (int i = 0; i < 2; ++i) f();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(ms);
}

bool fill(void* p, std::size_t bytes) {
  return cudaMemset(p, 0x3c, bytes) == cudaSuccess;  // 0x3c3c: 1.06 in float16, 0.0115 in float32
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 20;
  for (int i = 1; i < argc; ++i) {
    char* end = nullptr;
    const long v = std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc ? std::strtol(argv[++i], &end, 10) : 0;
    if (!end || *end || v < 1 || v > 100000) {
      std::fprintf(stderr, "usage: cuda_gemm_bench [--runs N], N from 1 to 100000\n");
      return 2;
    }
    runs = static_cast<int>(v);
  }
  if (!cuda::available()) {
    std::printf("skipped: %s\n", cuda::describe().c_str());
    return 77;
  }
  std::printf("device: %s\n", cuda::describe().c_str());
  const std::vector<shape> shapes = {
      {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192},
      // BERT-base at batch 1 and 8 (M = batch x 128 tokens): QKV/out, FFN up, FFN down
      {128, 768, 768}, {128, 3072, 768}, {128, 768, 3072}, {1024, 768, 768}, {1024, 3072, 768}, {1024, 768, 3072},
      // ResNet-50's convolutions as im2col GEMMs (M = out channels, N = pixels, K = in x 3 x 3)
      {64, 3136, 576}, {256, 196, 2304}, {512, 49, 4608}, {512, 392, 4608}};
  for (dtype t : {dtype::float32, dtype::float16}) {
    const std::size_t width = t == dtype::float16 ? 2 : 4;
    for (const auto& s : shapes) {
      auto a = cuda::allocate(s.m * s.k * width), b = cuda::allocate(s.k * s.n * width),
           c = cuda::allocate(s.m * s.n * width);
      if (!a || !b || !c || !fill(a.get(), s.m * s.k * width) || !fill(b.get(), s.k * s.n * width)) {
        std::printf("gemm %lld %lld %lld %s: no device memory\n", (long long)s.m, (long long)s.n, (long long)s.k,
                    name(t).data());
        continue;
      }
      kcu::gemm_args g;
      g.t = t, g.m = s.m, g.n = s.n, g.k = s.k;
      g.a = a.get(), g.lda = s.k, g.b = b.get(), g.ldb = s.n, g.c = c.get(), g.ldc = s.n;
      status st = ok();
      const double ms = time_gpu(runs, [&] {
        if (st.ok()) st = kcu::gemm(g);
      });
      if (!st.ok() || cudaDeviceSynchronize() != cudaSuccess) {
        std::printf("gemm %lld %lld %lld %s: %s\n", (long long)s.m, (long long)s.n, (long long)s.k, name(t).data(),
                    st.message().c_str());
        return 1;
      }
      std::printf("gemm %lld %lld %lld %s %.4f %.1f\n", (long long)s.m, (long long)s.n, (long long)s.k,
                  name(t).data(), ms, 2.0 * s.m * s.n * s.k / (ms * 1e9));
    }
  }
  // Copies: a ResNet-50 input at batch 1 and 8, BERT-base's output at batch 8, and 64 MiB.
  for (std::size_t bytes : {std::size_t{602112}, std::size_t{4816896}, std::size_t{3145728}, std::size_t{64} << 20}) {
    const auto n = static_cast<std::int64_t>(bytes / 4);
    auto host = tensor::zeros(dtype::float32, {n});
    auto dev_mem = cuda::allocate(bytes);
    auto dev = tensor::view(dev_mem.get(), dtype::float32, {n}, device{device_kind::cuda});
    for (std::int64_t i = 0; i < n; ++i) host.data<float>()[i] = static_cast<float>(i % 1000);
    status st = ok();
    const double up = time_host(runs, [&] { st = st.ok() ? cuda::from_host(host, dev) : st; });
    const double down = time_host(runs, [&] { st = st.ok() ? cuda::to_host(dev, host) : st; });
    bool same = st.ok();
    for (std::int64_t i = 0; i < n && same; ++i) same = host.data<float>()[i] == static_cast<float>(i % 1000);
    if (!same) {
      std::printf("copy %zu: %s\n", bytes, st.ok() ? "the data came back changed" : st.message().c_str());
      return 1;
    }
    std::printf("copy %zu to_device %.2f\n", bytes, bytes / (up * 1e6));
    std::printf("copy %zu to_host %.2f\n", bytes, bytes / (down * 1e6));
  }
  return 0;
}
