// kernels/cpu/isa/aligned.hpp: the 64-byte aligned blocks the GEMM drivers
// pack into (gemm.cpp, qgemm.cpp), freed with std::free. The micro-kernel
// layer does not reach onyx/core/tensor.hpp, whose allocator this mirrors.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

namespace onyx::kernels::cpu {

/// At least `bytes` (one cache line for 0), 64-byte aligned; std::bad_alloc
/// (abort without exceptions) when the memory cannot be had.
inline void* aligned_bytes(std::size_t bytes) {
  void* p = std::aligned_alloc(64, (bytes > 0 ? bytes + 63 : 64) / 64 * 64);
  if (!p) {
#if defined(__cpp_exceptions)
    throw std::bad_alloc();
#else
    std::abort();  // as tensor.hpp's allocate_aligned without exceptions
#endif
  }
  return p;
}

}  // namespace onyx::kernels::cpu
