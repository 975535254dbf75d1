// onyx/core/host_memory.hpp: the one place host blocks come from: tensors
// (tensor.hpp) and the GEMM drivers' packed panels (kernels/cpu/isa/
// aligned.hpp, qgemm.cpp). Every block is released with free_host.
//
// On Linux (THP set to "madvise", as many distributions ship it, backs only
// marked memory with transparent huge pages) blocks come three ways:
// - 2 MiB and more (packed weights, large activations, the arena): mapped on
//   their own, aligned to 2 MiB, their whole 2 MiB pages marked
//   (madvise MADV_HUGEPAGE). That is one page fault instead of 512 when a
//   page is first written and one TLB entry instead of 512 when a GEMM
//   streams weights. The tail past the last whole huge page stays on 4 KiB
//   pages, so no block takes more memory than it asked for, and unmapping
//   returns it all: marked heap memory, reused for small blocks after a free,
//   had grown ResNet-50 in float16 from 203 to 241 MiB. A few released
//   mappings are kept for the next block of about their size
//   (mapping_cache: a session's large outputs come back every run).
// - 64 KiB up to 2 MiB (the packed weights of most layers): runs of 16 KiB
//   units in 8 MiB chunks that are marked whole, first fit, one bitmap per
//   chunk; a chunk left empty is unmapped (one empty chunk is kept for the
//   next block). Session creation writes tens of MiB of such blocks, and on
//   4 KiB pages the page faults were half of it (Inception-v2: 32000 faults,
//   75 ms).
// - smaller ones, and every block under AddressSanitizer (which checks
//   malloc's blocks only), from std::aligned_alloc.
// Where THP is off, madvise fails harmlessly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <new>
#include <vector>

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
inline constexpr std::uint64_t mapped = 0x6f6e7978'6d6d6170, allocated = 0x6f6e7978'6d616c63,
                                pooled = 0x6f6e7978'706f6f6c;
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

#if defined(__linux__) && defined(MADV_HUGEPAGE)
/// The medium blocks' pool (the comment at the top). A block's header holds
/// its chunk and its run of units.
class medium_pool {
 public:
  static constexpr std::size_t unit_bytes = std::size_t{16} << 10, chunk_units = 512,
                               chunk_bytes = unit_bytes * chunk_units, smallest = std::size_t{64} << 10;

  struct chunk {
    std::byte* base;
    std::uint64_t used[chunk_units / 64];
    std::size_t used_units;
  };

  /// `units` consecutive free units, or null when no chunk can be mapped.
  void* allocate(std::size_t units, chunk*& owner, std::size_t& first) {
    const std::lock_guard lock(mutex_);
    for (chunk* c : chunks_)
      if (chunk_units - c->used_units >= units && find_run(*c, units, first)) return take(c, units, first, owner);
    chunk* c = map_chunk();
    if (!c) return nullptr;
    first = 0;
    return take(c, units, first, owner);
  }

  void release(chunk* c, std::size_t first, std::size_t units) {
    const std::lock_guard lock(mutex_);
    mark(*c, first, units, false);
    if (c->used_units != 0) return;
    // Keep one empty chunk, so a block taken and released every run does
    // not map, fault and unmap 2 MiB each time.
    std::size_t empty = 0;
    for (chunk* d : chunks_) empty += d->used_units == 0;
    if (empty < 2) return;
    ::munmap(c->base, chunk_bytes);
    std::erase(chunks_, c);
    delete c;
  }

  /// Gives the pages of every wholly free 2 MiB page of the chunks back
  /// (madvise MADV_DONTNEED; taken again, one fault maps it anew) and unmaps
  /// every empty chunk.
  void trim() {
    const std::lock_guard lock(mutex_);
    constexpr std::size_t per_page = huge_page_bytes / unit_bytes;  // 128 units, two bitmap words
    std::erase_if(chunks_, [](chunk* c) {
      if (c->used_units == 0) {
        ::munmap(c->base, chunk_bytes);
        delete c;
        return true;
      }
      for (std::size_t page = 0; page < chunk_units / per_page; ++page) {
        bool free = true;
        for (std::size_t w = page * per_page / 64; w < (page + 1) * per_page / 64; ++w) free = free && c->used[w] == 0;
        if (free) ::madvise(c->base + page * huge_page_bytes, huge_page_bytes, MADV_DONTNEED);
      }
      return false;
    });
  }

  /// The process's pool; never destroyed, as blocks may be released by
  /// static destructors after it.
  static medium_pool& instance() {
    static medium_pool* pool = new medium_pool;
    return *pool;
  }

 private:
  static bool is_used(const chunk& c, std::size_t u) { return (c.used[u / 64] >> (u % 64)) & 1; }

  static bool find_run(const chunk& c, std::size_t units, std::size_t& first) {
    std::size_t run = 0;
    for (std::size_t u = 0; u < chunk_units; ++u) {
      run = is_used(c, u) ? 0 : run + 1;
      if (run == units) {
        first = u + 1 - units;
        return true;
      }
    }
    return false;
  }

  // Units [first, first + units) of c taken (or given back).
  static void mark(chunk& c, std::size_t first, std::size_t units, bool used) {
    for (std::size_t u = first; u < first + units; ++u) {
      const std::uint64_t bit = std::uint64_t{1} << (u % 64);
      c.used[u / 64] = used ? c.used[u / 64] | bit : c.used[u / 64] & ~bit;
    }
    c.used_units = used ? c.used_units + units : c.used_units - units;
  }

  void* take(chunk* c, std::size_t units, std::size_t first, chunk*& owner) {
    mark(*c, first, units, true);
    owner = c;
    return c->base + first * unit_bytes;
  }

  chunk* map_chunk() {
    // Map a chunk and a huge page more, then trim to a 2 MiB boundary.
    const std::size_t length = chunk_bytes + huge_page_bytes;
    void* raw = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    const auto lo = reinterpret_cast<std::uintptr_t>(raw);
    const auto at = (lo + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
    if (at > lo) ::munmap(raw, at - lo);
    if (at + chunk_bytes < lo + length) ::munmap(reinterpret_cast<void*>(at + chunk_bytes), lo + length - at - chunk_bytes);
    auto* base = reinterpret_cast<std::byte*>(at);
    ::madvise(base, chunk_bytes, MADV_HUGEPAGE);
    chunk* c = new (std::nothrow) chunk{base, {}, 0};
    if (!c) {
      ::munmap(base, chunk_bytes);
      return nullptr;
    }
    chunks_.push_back(c);
    return c;
  }

  std::mutex mutex_;
  std::vector<chunk*> chunks_;
};

/// Large blocks' mappings kept after release for the next large block of
/// about their size: a session's outputs are allocated every run, and a
/// 3 MiB feature map cost 400 page faults and its zeroing each time (the
/// SqueezeNet stem in conv_bench: 0.77 ms, of which the convolution is
/// 0.3). At most four, of 32 MiB each and 64 MiB in all; the oldest goes.
class mapping_cache {
 public:
  static constexpr std::size_t most = 4, largest = std::size_t{32} << 20, total_limit = std::size_t{64} << 20;

  /// A kept block (its header as it was) of at least `bytes` and not much
  /// more, or null.
  void* take(std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    std::size_t best = count_;
    for (std::size_t i = 0; i < count_; ++i) {
      const std::size_t cap = capacity(kept_[i]);
      if (cap >= bytes && cap <= bytes + bytes / 2 + huge_page_bytes &&
          (best == count_ || cap < capacity(kept_[best])))
        best = i;
    }
    return best == count_ ? nullptr : remove(best).p;
  }

  /// Keeps the mapping (block p, mapping base/length) or unmaps it.
  void release(void* p, void* base, std::size_t length) {
    if (length > largest || keep_off > 0) {
      ::munmap(base, length);
      return;
    }
    entry evicted[most];
    std::size_t n = 0;
    {
      const std::lock_guard lock(mutex_);
      while (count_ > 0 && (count_ == most || total_ + length > total_limit)) evicted[n++] = remove(0);
      kept_[count_++] = {p, base, length};
      total_ += length;
    }
    for (std::size_t i = 0; i < n; ++i) ::munmap(evicted[i].base, evicted[i].length);
  }

  /// Unmaps every kept mapping.
  void trim() {
    entry all[most];
    std::size_t n = 0;
    {
      const std::lock_guard lock(mutex_);
      for (; n < count_; ++n) all[n] = kept_[n];
      count_ = total_ = 0;
    }
    for (std::size_t i = 0; i < n; ++i) ::munmap(all[i].base, all[i].length);
  }

  static mapping_cache& instance() {
    static mapping_cache* cache = new mapping_cache;  // never destroyed, as medium_pool
    return *cache;
  }

  /// Above 0 (host_memory_scope), this thread's releases unmap.
  static inline thread_local int keep_off = 0;

 private:
  struct entry {
    void* p;
    void* base;
    std::size_t length;
  };
  // Entry i taken out of the list (the caller holds the lock).
  entry remove(std::size_t i) {
    const entry e = kept_[i];
    total_ -= e.length;
    for (std::size_t j = i + 1; j < count_; ++j) kept_[j - 1] = kept_[j];
    --count_;
    return e;
  }
  static std::size_t capacity(const entry& e) {
    return reinterpret_cast<std::uintptr_t>(e.base) + e.length - reinterpret_cast<std::uintptr_t>(e.p);
  }
  std::mutex mutex_;
  entry kept_[most] = {};
  std::size_t count_ = 0, total_ = 0;
};
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
    if (void* kept = mapping_cache::instance().take(bytes)) return kept;
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
  if (!sanitized && bytes >= medium_pool::smallest) {
    using pool = medium_pool;
    const std::size_t units = (bytes + alignment + pool::unit_bytes - 1) / pool::unit_bytes;
    pool::chunk* owner = nullptr;
    std::size_t first = 0;
    auto* run = static_cast<std::byte*>(pool::instance().allocate(units, owner, first));
    if (!run) return nullptr;
    const auto at = reinterpret_cast<std::uintptr_t>(run) + alignment;
    *reinterpret_cast<header*>(at - header_bytes) = {pooled, owner, first << 32 | units};
    return reinterpret_cast<void*>(at);
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
#if defined(MADV_HUGEPAGE)
    mapping_cache::instance().release(p, h.base, h.length);
#else
    ::munmap(h.base, h.length);
#endif
    return;
  }
#if defined(MADV_HUGEPAGE)
  if (h.tag == pooled) {
    medium_pool::instance().release(static_cast<medium_pool::chunk*>(h.base), h.length >> 32, h.length & 0xffffffff);
    return;
  }
#endif
#endif
  std::free(h.base);
}

/// What session creation wraps itself in: it releases its raw weights once
/// after packing them, so their mappings are unmapped rather than kept for
/// blocks to come, and at the end the pages no block holds go back to the
/// system (the medium pool's free 2 MiB pages, the kept mappings). Keeping
/// them had raised ResNet-50's peak RSS from 280 to 316 MiB.
class host_memory_scope {
 public:
  host_memory_scope() {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    ++host_memory_detail::mapping_cache::keep_off;
#endif
  }
  ~host_memory_scope() {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (--host_memory_detail::mapping_cache::keep_off == 0 && !host_memory_detail::sanitized) {
      host_memory_detail::mapping_cache::instance().trim();
      host_memory_detail::medium_pool::instance().trim();
    }
#endif
  }
  host_memory_scope(const host_memory_scope&) = delete;
  host_memory_scope& operator=(const host_memory_scope&) = delete;
};

}  // namespace onyx
