// kernels/cuda/elementwise.cu: elementwise math, broadcasting, strided copies,
// casts and gathers (launch.hpp).
#include <cmath>

#include "kernels/cuda/common.cuh"

namespace onyx::kernels::cuda {

namespace {

__global__ void probe_kernel(int* flag) { *flag = 1; }

__device__ __forceinline__ float apply(unary_fn f, float x, float alpha, float beta) {
  switch (f) {
    case unary_fn::identity: return x;
    case unary_fn::relu: return x < 0.0f ? 0.0f : x;
    case unary_fn::sigmoid: return 1.0f / (1.0f + expf(-x));
    case unary_fn::tanh: return tanhf(x);
    case unary_fn::erf: return erff(x);
    case unary_fn::exp: return expf(x);
    case unary_fn::log: return logf(x);
    case unary_fn::sqrt: return sqrtf(x);
    case unary_fn::neg: return -x;
    case unary_fn::abs: return fabsf(x);
    case unary_fn::reciprocal: return 1.0f / x;
    case unary_fn::floor: return floorf(x);
    case unary_fn::ceil: return ceilf(x);
    case unary_fn::round: return rintf(x);  // half to even, as ONNX Round
    case unary_fn::sin: return sinf(x);
    case unary_fn::cos: return cosf(x);
    case unary_fn::gelu: return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
    case unary_fn::gelu_tanh: {
      const float u = 0.7978845608028654f * (x + 0.044715f * x * x * x);
      return 0.5f * x * (1.0f + tanhf(u));
    }
    case unary_fn::leaky_relu: return x < 0.0f ? alpha * x : x;
    case unary_fn::elu: return x < 0.0f ? alpha * (expf(x) - 1.0f) : x;
    case unary_fn::clip: return fminf(fmaxf(x, alpha), beta);
    case unary_fn::hard_sigmoid: return fmaxf(0.0f, fminf(1.0f, alpha * x + beta));
    case unary_fn::hard_swish: return x * fmaxf(0.0f, fminf(1.0f, x / 6.0f + 0.5f));
    case unary_fn::softplus: return x > 20.0f ? x : log1pf(expf(x));
    case unary_fn::silu: return x / (1.0f + expf(-x));
    case unary_fn::sign: return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x;
    case unary_fn::not_: return x == 0.0f ? 1.0f : 0.0f;
  }
  return x;
}

template <class T>
__global__ void unary_kernel(unary_fn f, const T* x, T* y, std::int64_t n, float alpha, float beta) {
  ONYX_CUDA_FOR(i, n) store(y, i, apply(f, load(x, i), alpha, beta));
}

__device__ __forceinline__ float apply(binary_fn f, float a, float b) {
  switch (f) {
    case binary_fn::add: return a + b;
    case binary_fn::sub: return a - b;
    case binary_fn::mul: return a * b;
    case binary_fn::div: return a / b;
    case binary_fn::pow: return powf(a, b);
    case binary_fn::max: return fmaxf(a, b);
    case binary_fn::min: return fminf(a, b);
    case binary_fn::prelu: return a < 0.0f ? a * b : a;
  }
  return a;
}

/// Offsets into a and b of flat output index i.
__device__ __forceinline__ void offsets(const broadcast_shape& s, std::int64_t i, std::int64_t& oa, std::int64_t& ob) {
  oa = 0, ob = 0;
  for (int d = s.rank - 1; d >= 0; --d) {
    const std::int64_t q = i / s.dims[d], r = i - q * s.dims[d];
    oa += r * s.a[d];
    ob += r * s.b[d];
    i = q;
  }
}

template <class T>
__global__ void binary_kernel(binary_fn f, const T* a, const T* b, T* y, broadcast_shape s, std::int64_t n) {
  ONYX_CUDA_FOR(i, n) {
    std::int64_t oa, ob;
    offsets(s, i, oa, ob);
    store(y, i, apply(f, load(a, oa), load(b, ob)));
  }
}

/// Same shapes, or b one value: no index arithmetic.
template <class T>
__global__ void binary_flat(binary_fn f, const T* a, const T* b, T* y, std::int64_t n, bool b_scalar) {
  ONYX_CUDA_FOR(i, n) store(y, i, apply(f, load(a, i), load(b, b_scalar ? 0 : i)));
}

/// a is [outer, inner], b is [inner] (a bias row): the common broadcast.
template <class T>
__global__ void binary_row(binary_fn f, const T* a, const T* b, T* y, std::int64_t n, std::int64_t inner) {
  ONYX_CUDA_FOR(i, n) store(y, i, apply(f, load(a, i), load(b, i % inner)));
}

template <class W>
__global__ void strided_kernel(const W* x, W* y, strided_view s, std::int64_t n) {
  ONYX_CUDA_FOR(i, n) {
    std::int64_t at = s.offset, rest = i;
    for (int d = s.rank - 1; d >= 0; --d) {
      const std::int64_t q = rest / s.dims[d];
      at += (rest - q * s.dims[d]) * s.strides[d];
      rest = q;
    }
    y[i] = x[at];
  }
}

template <class F, class T>
__global__ void cast_kernel(const F* x, T* y, std::int64_t n) {
  ONYX_CUDA_FOR(i, n) {
    if constexpr (std::is_same_v<T, __half>)
      y[i] = __float2half_rn(static_cast<float>(x[i]));
    else if constexpr (std::is_same_v<F, __half>)
      y[i] = static_cast<T>(__half2float(x[i]));
    else
      y[i] = static_cast<T>(x[i]);
  }
}

template <class W>
__global__ void gather_kernel(const W* x, const std::int64_t* idx, W* y, std::int64_t outer, std::int64_t axis,
                              std::int64_t n, std::int64_t inner) {
  const std::int64_t total = outer * n * inner;
  ONYX_CUDA_FOR(i, total) {
    const std::int64_t in = i % inner, j = (i / inner) % n, o = i / (inner * n);
    y[i] = x[(o * axis + idx[j]) * inner + in];
  }
}

std::int64_t count(const std::int64_t* dims, int rank) {
  std::int64_t n = 1;
  for (int d = 0; d < rank; ++d) n *= dims[d];
  return n;
}

template <class W>
status strided_as(const void* x, void* y, const strided_view& s) {
  const std::int64_t n = count(s.dims, s.rank);
  if (n == 0) return ok();
  strided_kernel<W><<<grid_for(n), block_threads, 0, stream()>>>(static_cast<const W*>(x), static_cast<W*>(y), s, n);
  return launched("strided copy");
}

template <class W>
status gather_as(const void* x, const std::int64_t* idx, void* y, std::int64_t outer, std::int64_t axis,
                 std::int64_t n, std::int64_t inner) {
  const std::int64_t total = outer * n * inner;
  if (total == 0) return ok();
  gather_kernel<W><<<grid_for(total), block_threads, 0, stream()>>>(static_cast<const W*>(x), idx,
                                                                    static_cast<W*>(y), outer, axis, n, inner);
  return launched("Gather");
}

template <class F, class T>
status cast_as(const void* x, void* y, std::int64_t n) {
  cast_kernel<F, T><<<grid_for(n), block_threads, 0, stream()>>>(static_cast<const F*>(x), static_cast<T*>(y), n);
  return launched("Cast");
}

template <class F>
status cast_from(dtype to, const void* x, void* y, std::int64_t n) {
  switch (to) {
    case dtype::float32: return cast_as<F, float>(x, y, n);
    case dtype::float16: return cast_as<F, __half>(x, y, n);
    default: return status(errc::unsupported, "Cast: no CUDA kernel to " + std::string(name(to)));
  }
}

}  // namespace

status probe() {
  int* flag = nullptr;
  ONYX_TRY(check(cudaMalloc(&flag, sizeof(int)), "allocating"));
  probe_kernel<<<1, 1, 0, stream()>>>(flag);
  status s = launched("a first kernel");
  if (s.ok()) s = check(cudaStreamSynchronize(stream()), "running a first kernel");
  cudaFree(flag);
  return s;
}

status unary(unary_fn f, dtype t, const void* x, void* y, std::int64_t n, float alpha, float beta) {
  if (n == 0) return ok();
  return dispatch_float(t, "elementwise", [&]<class T>() {
    unary_kernel<T><<<grid_for(n), block_threads, 0, stream()>>>(f, static_cast<const T*>(x), static_cast<T*>(y), n,
                                                                 alpha, beta);
    return launched("elementwise");
  });
}

status binary(binary_fn f, dtype t, const void* a, const void* b, void* y, const broadcast_shape& s) {
  const std::int64_t n = count(s.dims, s.rank);
  if (n == 0) return ok();
  // Contiguous a with b the same shape, one value, or the innermost dims.
  bool a_dense = true, b_same = true, b_scalar = true;
  std::int64_t stride = 1;
  for (int d = s.rank - 1; d >= 0; --d) {
    if (s.dims[d] != 1 && s.a[d] != stride) a_dense = false;
    if (s.dims[d] != 1 && s.b[d] != stride) b_same = false;
    if (s.dims[d] != 1 && s.b[d] != 0) b_scalar = false;
    stride *= s.dims[d];
  }
  // b covers the innermost dims densely and is broadcast over the rest.
  std::int64_t inner = 1;
  bool b_row = a_dense;
  {
    int d = s.rank - 1;
    std::int64_t st = 1;
    for (; d >= 0 && (s.dims[d] == 1 || s.b[d] == st); --d) st *= s.dims[d], inner *= s.dims[d];
    for (; d >= 0; --d)
      if (s.dims[d] != 1 && s.b[d] != 0) b_row = false;
  }
  return dispatch_float(t, "elementwise", [&]<class T>() {
    auto A = static_cast<const T*>(a);
    auto B = static_cast<const T*>(b);
    auto Y = static_cast<T*>(y);
    if (a_dense && (b_same || b_scalar))
      binary_flat<T><<<grid_for(n), block_threads, 0, stream()>>>(f, A, B, Y, n, b_scalar && !b_same);
    else if (b_row && inner > 0)
      binary_row<T><<<grid_for(n), block_threads, 0, stream()>>>(f, A, B, Y, n, inner);
    else
      binary_kernel<T><<<grid_for(n), block_threads, 0, stream()>>>(f, A, B, Y, s, n);
    return launched("elementwise");
  });
}

status copy_strided(int width, const void* x, void* y, const strided_view& s) {
  switch (width) {
    case 1: return strided_as<std::uint8_t>(x, y, s);
    case 2: return strided_as<std::uint16_t>(x, y, s);
    case 4: return strided_as<std::uint32_t>(x, y, s);
    case 8: return strided_as<std::uint64_t>(x, y, s);
    default: return status(errc::unsupported, "strided copy: elements of " + std::to_string(width) + " bytes");
  }
}

status copy(const void* x, void* y, std::size_t bytes) {
  if (bytes == 0 || x == y) return ok();
  return check(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, stream()), "copying on the GPU");
}

status copy_2d(const void* x, std::size_t x_pitch, void* y, std::size_t y_pitch, std::size_t row_bytes,
               std::size_t rows) {
  if (rows == 0 || row_bytes == 0) return ok();
  return check(cudaMemcpy2DAsync(y, y_pitch, x, x_pitch, row_bytes, rows, cudaMemcpyDeviceToDevice, stream()),
               "copying on the GPU");
}

status upload(const void* host, void* y, std::size_t bytes) {
  if (bytes == 0) return ok();
  return check(cudaMemcpyAsync(y, host, bytes, cudaMemcpyHostToDevice, stream()), "copying to the GPU");
}

status zero(void* y, std::size_t bytes) {
  if (bytes == 0) return ok();
  return check(cudaMemsetAsync(y, 0, bytes, stream()), "clearing GPU memory");
}

status cast(dtype from, dtype to, const void* x, void* y, std::int64_t n) {
  if (n == 0) return ok();
  switch (from) {
    case dtype::float32: return cast_from<float>(to, x, y, n);
    case dtype::float16: return cast_from<__half>(to, x, y, n);
    case dtype::int32: return cast_from<std::int32_t>(to, x, y, n);
    case dtype::int64: return cast_from<std::int64_t>(to, x, y, n);
    case dtype::boolean: return cast_from<bool>(to, x, y, n);
    default: return status(errc::unsupported, "Cast: no CUDA kernel from " + std::string(name(from)));
  }
}

status gather(int width, const void* x, const std::int64_t* idx, void* y, std::int64_t outer, std::int64_t axis,
              std::int64_t n, std::int64_t inner) {
  switch (width) {
    case 1: return gather_as<std::uint8_t>(x, idx, y, outer, axis, n, inner);
    case 2: return gather_as<std::uint16_t>(x, idx, y, outer, axis, n, inner);
    case 4: return gather_as<std::uint32_t>(x, idx, y, outer, axis, n, inner);
    case 8: return gather_as<std::uint64_t>(x, idx, y, outer, axis, n, inner);
    default: return status(errc::unsupported, "Gather: elements of " + std::to_string(width) + " bytes");
  }
}

}  // namespace onyx::kernels::cuda
