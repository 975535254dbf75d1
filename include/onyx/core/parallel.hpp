// onyx/core/parallel.hpp: splitting a kernel's loop over the session's pool.
//
// Kernels say how much work one item of their loop is, and grain_for turns
// that into the smallest chunk worth handing to another thread:
//
//   parallel_for(pool, rows, grain_for(3 * len), ...);  // three passes over a row of len
//
// Work is counted in units of one element of a vectorized streaming float
// loop (y[i] = a[i] * s + b[i]): a copy, a fill, a compare or an add of one
// element is 1, a transcendental 8 (an ISA exp measures 2.9, libm's scalar
// functions more), a row of n such elements n. Estimates within 2x are
// enough: the constant below is a threshold, not a cost model.
#pragma once

#include <algorithm>

#include "onyx/core/thread_pool.hpp"

namespace onyx {

/// Work units a chunk must hold before splitting pays for itself.
///
/// Measured with bench/parallel_bench.cpp on the 2-core x86-64 AVX-512
/// machine (2026-11-24, p10 of single calls, load average 3): one unit is
/// 0.14 ns (stream/N/1, flat from 1K to 1M elements; an ISA exp element is
/// 0.40 ns, 2.9 units); a 2-thread fork-join costs about 1.1 us when both
/// threads hold a core (stream/N/2 less half of stream/N/1). Two chunks of
/// 2^15 units (4.6 us each) ran 1.55x faster than one thread (stream/65536);
/// two chunks of 4096, the old per-row constant, ran 0.71x (stream/8192).
/// On the machine shared with other builds a 2-thread call often waits for a
/// core instead (p50 2 ms at many sizes), which no grain can win back.
inline constexpr std::int64_t parallel_grain_work = 1 << 15;

/// The smallest chunk (parallel_for's `min_chunk`) for items that each cost
/// `work_per_item` units (see above); at least 1.
constexpr std::int64_t grain_for(std::int64_t work_per_item) {
  return std::max<std::int64_t>(1, parallel_grain_work / std::max<std::int64_t>(work_per_item, 1));
}

/// fn(begin, end) over [0, n) on `pool`, or inline when there is none.
/// A program built with ONYX_THREADS_SERIAL (the serial thread policy of
/// onyx_add_inference_executable) makes no pool and always runs inline.
inline void parallel_for(const thread_pool* pool, std::int64_t n, std::int64_t min_chunk, thread_pool::range_fn fn) {
#if defined(ONYX_THREADS_SERIAL)
  (void)pool;
  (void)min_chunk;
  if (n > 0) fn(0, n);
#else
  if (pool)
    pool->parallel_for(n, min_chunk, fn);
  else if (n > 0)
    fn(0, n);
#endif
}

}  // namespace onyx
