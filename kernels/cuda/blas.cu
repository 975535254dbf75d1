// kernels/cuda/blas.cu: matrix products through cuBLAS and the epilogue that
// adds bias, residual and activation in one pass (launch.hpp).
#include "kernels/cuda/common.cuh"

namespace onyx::kernels::cuda {

namespace {

template <class T>
__global__ void epilogue_kernel(epilogue_args e) {
  T* y = static_cast<T*>(e.y);
  const T* bias = static_cast<const T*>(e.bias);
  const T* res = static_cast<const T*>(e.residual);
  const std::int64_t n = e.rows * e.cols;
  ONYX_CUDA_FOR(i, n) {
    float v = load(y, i);
    if (bias) {
      const std::int64_t j = e.per_row ? i / e.cols : i % e.cols;
      v += load(bias, e.bias_period > 0 ? j % e.bias_period : j);
    }
    if (res) v += load(res, i);
    store(y, i, activate(e.act, v, e.lo, e.hi));
  }
}

}  // namespace

status gemm(const gemm_args& g) {
  if (g.m == 0 || g.n == 0 || g.batch == 0) return ok();
  cublasHandle_t h = nullptr;
  const cublas_api* api = nullptr;
  ONYX_TRY(blas(h, api));
  const cudaDataType_t type = g.t == dtype::float16 ? CUDA_R_16F : CUDA_R_32F;
  if (g.t != dtype::float32 && g.t != dtype::float16)
    return status(errc::unsupported, "MatMul: no CUDA kernel for " + std::string(name(g.t)));
  for (auto v : {g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.batch})
    if (v > 0x7fffffff) return status(errc::unsupported, "a matrix product too large for cuBLAS's 32-bit sizes");
  // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: B and A
  // swap places and keep their transposition flags.
  const float alpha = g.alpha, beta = g.beta;
  if (g.batch == 1)  // the plain call: cuBLAS's batched path may choose other kernels
    return check_blas(api->gemm_ex(h, g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N,
                                   static_cast<int>(g.n), static_cast<int>(g.m), static_cast<int>(g.k), &alpha, g.b,
                                   type, static_cast<int>(g.ldb), g.a, type, static_cast<int>(g.lda), &beta, g.c, type,
                                   static_cast<int>(g.ldc), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                      "matrix product");
  return check_blas(
      api->gemm_strided_batched_ex(h, g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N,
                                   static_cast<int>(g.n), static_cast<int>(g.m), static_cast<int>(g.k), &alpha, g.b,
                                   type, static_cast<int>(g.ldb), g.stride_b, g.a, type, static_cast<int>(g.lda),
                                   g.stride_a, &beta, g.c, type, static_cast<int>(g.ldc), g.stride_c,
                                   static_cast<int>(g.batch), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
      "matrix product");
}

status epilogue(const epilogue_args& e) {
  const std::int64_t n = e.rows * e.cols;
  if (n == 0 || (!e.bias && !e.residual && e.act == activation::none)) return ok();
  return dispatch_float(e.t, "epilogue", [&]<class T>() {
    epilogue_kernel<T><<<grid_for(n), block_threads, 0, stream()>>>(e);
    return launched("bias and activation");
  });
}

}  // namespace onyx::kernels::cuda
