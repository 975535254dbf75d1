// kernels/cpu/isa/aligned.hpp: the 64-byte aligned blocks the GEMM drivers
// pack into (gemm.cpp, qgemm.cpp), released with free_host, from the allocator
// tensors use (onyx/core/host_memory.hpp: huge pages for large blocks).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

#include "onyx/core/host_memory.hpp"

namespace onyx::kernels::cpu {

/// At least `bytes` (one cache line for 0), 64-byte aligned; std::bad_alloc
/// (abort without exceptions) when the memory cannot be had.
inline void* aligned_bytes(std::size_t bytes) {
  void* p = try_allocate_host(bytes, 64);
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
