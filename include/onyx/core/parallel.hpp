// onyx/core/parallel.hpp: splitting a kernel's loop over the session's pool.
#pragma once

#include "onyx/core/thread_pool.hpp"

namespace onyx {

/// fn(begin, end) over [0, n) on `pool`, or inline when there is none.
inline void parallel_for(const thread_pool* pool, std::int64_t n, std::int64_t min_chunk,
                         thread_pool::range_fn fn) {
  if (pool)
    pool->parallel_for(n, min_chunk, fn);
  else if (n > 0)
    fn(0, n);
}

}  // namespace onyx
