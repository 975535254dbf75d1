// onyx/core/host_memory.hpp: the one place host blocks come from: tensors
// (tensor.hpp) and the GEMM drivers' packed panels (kernels/cpu/isa/
// aligned.hpp, qgemm.cpp). Every block is released with free_host.
//
// Blocks of 2 MiB and more (packed weights, large activations, the arena)
// are mapped on their own (mmap), aligned to 2 MiB, and on Linux their whole
// 2 MiB pages are marked for transparent huge pages (madvise MADV_HUGEPAGE:
// a kernel with THP set to "madvise", as many distributions ship it, only
// then backs them with huge pages). That is one page fault instead of 512
// when a page is first written (session creation packs hundreds of MiB of
// weights) and one TLB entry instead of 512 when a GEMM streams weights.
// The tail past the last whole huge page stays on 4 KiB pages, so no block
// takes more memory than it asked for, and unmapping returns it all: marked
// heap memory, reused for small blocks after a free, had grown ResNet-50 in
// float16 from 203 to 241 MiB. Smaller blocks, and every block under
// AddressSanitizer (which checks malloc's blocks only), come from
// std::aligned_alloc. Where THP is off, madvise fails harmlessly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace onyx {

inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

namespace host_memory_detail {
/// Kept in the 64 bytes before every block.
struct header {
  std::uint64_t tag;
  void* base;           // what to release: the mapping, or malloc's block
  std::size_t length;   // the mapping's bytes
};
inline constexpr std::uint64_t mapped = 0x6f6e7978'6d6d6170, allocated = 0x6f6e7978'6d616c63;
inline constexpr std::size_t header_bytes = 64;

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif
#else
inline constexpr bool sanitized = false;
#endif
}  // namespace host_memory_detail

/// At least `bytes` aligned to `alignment` (a power of two, at most 4 KiB;
/// 64 at least), released with free_host; null when the memory cannot be had
/// or the size is absurd. Not zeroed.
inline void* try_allocate_host(std::size_t bytes, std::size_t alignment) {
  using namespace host_memory_detail;
  if (alignment < header_bytes) alignment = header_bytes;
  if (bytes > std::numeric_limits<std::size_t>::max() / 2) return nullptr;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (!sanitized && bytes >= huge_page_bytes) {
    const std::size_t length = (bytes + huge_page_bytes + header_bytes + 4095) / 4096 * 4096;
    void* base = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return nullptr;
    const auto at = (reinterpret_cast<std::uintptr_t>(base) + header_bytes + huge_page_bytes - 1) /
                    huge_page_bytes * huge_page_bytes;
    void* p = reinterpret_cast<void*>(at);
    *reinterpret_cast<header*>(at - header_bytes) = {mapped, base, length};
    ::madvise(p, bytes / huge_page_bytes * huge_page_bytes, MADV_HUGEPAGE);
    return p;
  }
#endif
  const std::size_t total = (bytes + alignment + alignment - 1) / alignment * alignment;
  void* base = std::aligned_alloc(alignment, total);
  if (!base) return nullptr;
  const auto at = reinterpret_cast<std::uintptr_t>(base) + alignment;
  *reinterpret_cast<header*>(at - header_bytes) = {allocated, base, total};
  return reinterpret_cast<void*>(at);
}

/// Releases a block from try_allocate_host (null is ignored).
inline void free_host(void* p) {
  using namespace host_memory_detail;
  if (!p) return;
  const header h = *reinterpret_cast<const header*>(reinterpret_cast<std::uintptr_t>(p) - header_bytes);
#if defined(__linux__)
  if (h.tag == mapped) {
    ::munmap(h.base, h.length);
    return;
  }
#endif
  std::free(h.base);
}

}  // namespace onyx
