// test/unit/host_memory_test.cpp: the host allocator's three ways to a block
// (onyx/core/host_memory.hpp): alignment, contents kept, sizes at each
// boundary, and reuse of the medium pool's runs after release.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <algorithm>
#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "onyx/core/host_memory.hpp"

namespace {

bool aligned(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

}  // namespace

TEST_CASE("host blocks are aligned and hold what is written, at every size class", "[host_memory]") {
  const std::size_t k = 1024;
  for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, 64 * k - 1, 64 * k, 64 * k + 1, 100 * k, 2048 * k - 4096,
                            2048 * k - 1, 2048 * k, 2048 * k + 1, 5000 * k})
    for (std::size_t alignment : {std::size_t{64}, std::size_t{256}, std::size_t{4096}}) {
      auto* p = static_cast<unsigned char*>(onyx::try_allocate_host(bytes, alignment));
      REQUIRE(p != nullptr);
      CHECK(aligned(p, alignment));
      std::memset(p, 0xA5, bytes);
      for (std::size_t i = 0; i < bytes; i += 4093) CHECK(p[i] == 0xA5);
      if (bytes) CHECK(p[bytes - 1] == 0xA5);
      onyx::free_host(p);
    }
  onyx::free_host(nullptr);
}

TEST_CASE("medium host blocks do not overlap and their runs are reused after release", "[host_memory]") {
  // Many blocks between 64 KiB and 2 MiB, freed in a shuffled order and
  // taken again: each keeps its own fill (no two overlap), across chunks.
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::size_t> size(64 << 10, (2 << 20) - 1);
  struct block {
    unsigned char* p;
    std::size_t bytes;
    unsigned char fill;
  };
  std::vector<block> blocks;
  const auto take = [&](unsigned char fill) {
    const std::size_t bytes = size(rng);
    auto* p = static_cast<unsigned char*>(onyx::try_allocate_host(bytes, 64));
    REQUIRE(p != nullptr);
    std::memset(p, fill, bytes);
    blocks.push_back({p, bytes, fill});
  };
  const auto intact = [](const block& b) {
    for (std::size_t i = 0; i < b.bytes; i += 997)
      if (b.p[i] != b.fill) return false;
    return b.p[b.bytes - 1] == b.fill;
  };
  for (int i = 0; i < 40; ++i) take(static_cast<unsigned char>(i));
  for (int round = 0; round < 3; ++round) {
    std::shuffle(blocks.begin(), blocks.end(), rng);
    for (int i = 0; i < 20; ++i) {
      CHECK(intact(blocks.back()));
      onyx::free_host(blocks.back().p);
      blocks.pop_back();
    }
    for (int i = 0; i < 20; ++i) take(static_cast<unsigned char>(100 + round * 20 + i));
  }
  for (const block& b : blocks) CHECK(intact(b));
  for (const block& b : blocks) onyx::free_host(b.p);

  // A block released and asked for again at the same size comes back at the
  // same address: the pool keeps the run (and an empty chunk) for it.
  void* a = onyx::try_allocate_host(300 << 10, 64);
  onyx::free_host(a);
  void* b = onyx::try_allocate_host(300 << 10, 64);
#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__)
  CHECK(a == b);
#endif
  onyx::free_host(b);
}

TEST_CASE("a released large block's mapping serves the next one of about its size", "[host_memory]") {
  // A session's large output is allocated every run: the second run's block
  // comes from the first's mapping, without new page faults.
  const std::size_t bytes = std::size_t{3} << 20;
  auto* a = static_cast<unsigned char*>(onyx::try_allocate_host(bytes, 64));
  REQUIRE(a != nullptr);
  std::memset(a, 1, bytes);
  onyx::free_host(a);
  auto* b = static_cast<unsigned char*>(onyx::try_allocate_host(bytes - 4096, 64));
  REQUIRE(b != nullptr);
#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__)
  CHECK(b == a);
#endif
  std::memset(b, 2, bytes - 4096);
  // A much smaller block does not take it (it would hold 3 MiB for 2), and a
  // larger one cannot.
  auto* c = static_cast<unsigned char*>(onyx::try_allocate_host(std::size_t{5} << 20, 64));
  REQUIRE(c != nullptr);
  CHECK(c != b);
  std::memset(c, 3, std::size_t{5} << 20);
  CHECK(b[bytes - 4097] == 2);
  onyx::free_host(b);
  onyx::free_host(c);
  // Many sizes in and out, every block intact while held.
  struct block {
    unsigned char* p;
    std::size_t n;
    unsigned char fill;
  };
  std::vector<block> held;
  for (int i = 0; i < 30; ++i) {
    const std::size_t n = (std::size_t{2} << 20) + static_cast<std::size_t>(i % 7) * (std::size_t{3} << 20);
    auto* p = static_cast<unsigned char*>(onyx::try_allocate_host(n, 4096));
    REQUIRE(p != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(p) % 4096 == 0);
    std::memset(p, i, n);
    held.push_back({p, n, static_cast<unsigned char>(i)});
    if (i % 3 == 2) {
      for (const block& b : held) {
        CHECK(b.p[0] == b.fill);
        CHECK(b.p[b.n / 2] == b.fill);
        CHECK(b.p[b.n - 1] == b.fill);
        onyx::free_host(b.p);
      }
      held.clear();
    }
  }
  for (const block& b : held) onyx::free_host(b.p);
}

TEST_CASE("host_memory_scope gives free pages back and leaves held blocks intact", "[host_memory]") {
  // Medium blocks filling a few of a chunk's 2 MiB pages; half released
  // inside the scope, a large block released there too (unmapped, not kept).
  // When the scope ends the free pages go back; the held blocks keep their
  // contents and the pool goes on serving blocks.
  std::vector<unsigned char*> held;
  {
    const onyx::host_memory_scope creating;
    std::vector<unsigned char*> all;
    for (int i = 0; i < 24; ++i) {
      auto* p = static_cast<unsigned char*>(onyx::try_allocate_host(std::size_t{512} << 10, 64));
      REQUIRE(p != nullptr);
      std::memset(p, i, std::size_t{512} << 10);
      all.push_back(p);
    }
    for (int i = 0; i < 24; ++i) {
      if (i % 2) held.push_back(all[i]);
      else onyx::free_host(all[i]);
    }
    auto* big = static_cast<unsigned char*>(onyx::try_allocate_host(std::size_t{3} << 20, 64));
    REQUIRE(big != nullptr);
    std::memset(big, 9, std::size_t{3} << 20);
    onyx::free_host(big);
  }
  for (std::size_t i = 0; i < held.size(); ++i) {
    const auto fill = static_cast<unsigned char>(2 * i + 1);
    CHECK(held[i][0] == fill);
    CHECK(held[i][(std::size_t{512} << 10) - 1] == fill);
  }
  auto* again = static_cast<unsigned char*>(onyx::try_allocate_host(std::size_t{1} << 20, 64));
  REQUIRE(again != nullptr);
  std::memset(again, 7, std::size_t{1} << 20);
  CHECK(again[12345] == 7);
  onyx::free_host(again);
  for (auto* p : held) onyx::free_host(p);
}

TEST_CASE("host blocks taken and released from many threads at once", "[host_memory]") {
  // Medium and large blocks from eight threads: each block keeps its own
  // fill while held (the pool's and the mapping cache's locks).
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t, &bad] {
      std::mt19937 rng(static_cast<unsigned>(t));
      std::uniform_int_distribution<std::size_t> size(64 << 10, 5 << 20);
      for (int i = 0; i < 40; ++i) {
        const std::size_t n = size(rng);
        auto* p = static_cast<unsigned char*>(onyx::try_allocate_host(n, 64));
        if (!p) {
          ++bad;
          continue;
        }
        const auto fill = static_cast<unsigned char>(t * 40 + i);
        std::memset(p, fill, n);
        std::this_thread::yield();
        if (p[0] != fill || p[n / 2] != fill || p[n - 1] != fill) ++bad;
        onyx::free_host(p);
      }
    });
  for (auto& th : threads) th.join();
  CHECK(bad == 0);
}
