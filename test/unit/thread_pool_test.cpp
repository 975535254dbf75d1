// thread_pool: every index covered exactly once, chunking rules, nesting and
// concurrent callers.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "onyx/core/thread_pool.hpp"

namespace {

// Runs parallel_for(n, min_chunk) and checks each index was visited once.
void check_cover(const onyx::thread_pool& pool, std::int64_t n, std::int64_t min_chunk) {
  std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
  std::atomic<int> chunks{0};
  pool.parallel_for(n, min_chunk, [&](std::int64_t b, std::int64_t e) {
    CHECK(b < e);
    if (e - b < min_chunk && n >= min_chunk) FAIL_CHECK("chunk shorter than min_chunk");
    chunks.fetch_add(1);
    for (std::int64_t i = b; i < e; ++i) hits[static_cast<std::size_t>(i)].fetch_add(1);
  });
  int wrong = 0;
  for (auto& h : hits) wrong += h.load() != 1;
  INFO("n=" << n << " min_chunk=" << min_chunk << " pool=" << pool.size());
  CHECK(wrong == 0);
  CHECK(chunks.load() <= pool.size());
  if (n > 0) CHECK(chunks.load() >= 1);
}

}  // namespace

TEST_CASE("thread_pool: covers every index exactly once", "[threads]") {
  for (int threads : {0, 1, 2, 3, 5}) {
    onyx::thread_pool pool(threads);
    CHECK(pool.size() == (threads <= 1 ? 1 : threads));
    for (std::int64_t n : {0, 1, 2, 3, 7, 64, 1000, 4097})
      for (std::int64_t min_chunk : {0, 1, 4, 100, 5000}) check_cover(pool, n, min_chunk);
  }
}

TEST_CASE("thread_pool: small jobs run inline on the caller", "[threads]") {
  onyx::thread_pool pool(3);
  const auto caller = std::this_thread::get_id();
  bool inline_run = false;
  pool.parallel_for(10, 10, [&](std::int64_t b, std::int64_t e) {
    inline_run = b == 0 && e == 10 && std::this_thread::get_id() == caller;
  });
  CHECK(inline_run);
}

TEST_CASE("thread_pool: uses the workers for large jobs", "[threads]") {
  onyx::thread_pool pool(3);
  std::vector<std::thread::id> ids(3);
  pool.parallel_for(3, 1, [&](std::int64_t b, std::int64_t e) {
    CHECK(e == b + 1);
    ids[static_cast<std::size_t>(b)] = std::this_thread::get_id();
  });
  CHECK(ids[0] == std::this_thread::get_id());
  CHECK(ids[1] != ids[0]);
  CHECK(ids[2] != ids[0]);
  CHECK(ids[1] != ids[2]);
}

TEST_CASE("thread_pool: nested calls run inline", "[threads]") {
  onyx::thread_pool pool(3);
  std::atomic<std::int64_t> sum{0};
  pool.parallel_for(30, 1, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i)
      pool.parallel_for(10, 1, [&](std::int64_t b2, std::int64_t e2) {
        for (std::int64_t j = b2; j < e2; ++j) sum.fetch_add(i * 10 + j);
      });
  });
  CHECK(sum.load() == 299 * 300 / 2);
}

TEST_CASE("thread_pool: concurrent callers and many back-to-back jobs", "[threads]") {
  onyx::thread_pool pool(3);
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&, c] {
      for (int rep = 0; rep < 300; ++rep) {
        const std::int64_t n = 50 + c * 7 + rep % 13;
        std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
        pool.parallel_for(n, 1, [&](std::int64_t b, std::int64_t e) {
          for (std::int64_t i = b; i < e; ++i) hits[static_cast<std::size_t>(i)].fetch_add(1);
        });
        for (auto& h : hits) wrong += h.load() != 1;
      }
    });
  }
  for (auto& t : callers) t.join();
  CHECK(wrong.load() == 0);
}
