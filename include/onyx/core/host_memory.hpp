// onyx/core/host_memory.hpp: the one place host blocks come from: tensors
// (tensor.hpp) and the GEMM drivers' packed panels (kernels/cpu/isa/aligned.hpp).
//
// Blocks of 2 MiB and more (packed weights, large activations, the arena)
// are aligned to 2 MiB and, on Linux, their whole 2 MiB pages are marked for
// transparent huge pages (madvise MADV_HUGEPAGE: a kernel with THP set to
// "madvise", as many distributions ship it, only then backs them with huge
// pages). That is one page fault instead of 512 when a page is first written
// (session creation packs hundreds of MiB of weights) and one TLB entry
// instead of 512 when a GEMM streams weights. The tail past the last whole
// huge page stays on 4 KiB pages, so no block takes more memory than it
// asked for. Where THP is off, madvise fails harmlessly.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <limits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace onyx {

inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

/// At least `bytes` (one `alignment` unit for 0) aligned to `alignment` (a
/// power of two, at least 64), from std::aligned_alloc, freed with std::free;
/// null when the memory cannot be had or the size is absurd.
inline void* try_allocate_host(std::size_t bytes, std::size_t alignment) {
  const bool huge = bytes >= huge_page_bytes;
  if (huge) alignment = huge_page_bytes;
  if (bytes > std::numeric_limits<std::size_t>::max() - alignment) return nullptr;
  const std::size_t rounded = bytes ? (bytes + alignment - 1) / alignment * alignment : alignment;
  void* p = std::aligned_alloc(alignment, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (p && huge) ::madvise(p, bytes / huge_page_bytes * huge_page_bytes, MADV_HUGEPAGE);
#endif
  return p;
}

}  // namespace onyx
