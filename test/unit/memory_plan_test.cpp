// runtime/memory_plan.hpp: arena offsets by liveness, largest first, each at
// the lowest 64-byte aligned offset free for its whole lifetime. Expected
// offsets worked out by hand from that rule.
#include <catch2/catch.hpp>

#include "onyx/runtime/memory_plan.hpp"

namespace {

using onyx::live_range;
using onyx::plan_memory;
using offsets = std::vector<std::size_t>;

TEST_CASE("plan_memory: tensors that are never alive together share memory", "[memory_plan]") {
  // a [0,1] 100 B and c [2,3] 100 B never overlap; b [1,2] 64 B overlaps both.
  auto p = plan_memory({{0, 0, 1, 100}, {1, 1, 2, 64}, {2, 2, 3, 100}});
  // Largest first, ties by given order: a at 0, c at 0 (a is dead), b above
  // both (128, the 64-byte aligned end of a's 100 bytes).
  CHECK(p.offsets == offsets{0, 128, 0});
  CHECK(p.arena_bytes == 192);
}

TEST_CASE("plan_memory: the largest goes first, into the lowest gap that fits", "[memory_plan]") {
  // Every range alive at step 0: no sharing. Sizes 64, 300, 64, 200.
  auto p = plan_memory({{0, 0, 0, 64}, {1, 0, 0, 300}, {2, 0, 0, 64}, {3, 0, 0, 200}});
  // 300 -> [0, 320); 200 -> [320, 576); 64 (index 0) -> [576, 640); 64 (index 2) -> [640, 704).
  CHECK(p.offsets == offsets{576, 0, 640, 320});
  CHECK(p.arena_bytes == 704);
  // A later small tensor fits the hole a dead one left below a live one.
  auto q = plan_memory({{0, 0, 0, 128}, {1, 0, 1, 64}, {2, 1, 1, 64}, {3, 1, 1, 64}});
  // 128 (r0) -> 0; 64 r1 -> 128 (r0 alive at 0); r2 at step 1 -> 0 (r0 dead, r1 at 128);
  // r3 -> 64 (0..64 taken by r2, 128.. by r1).
  CHECK(q.offsets == offsets{0, 128, 0, 64});
  CHECK(q.arena_bytes == 192);
}

TEST_CASE("plan_memory: zero-byte tensors take an aligned slot; no ranges, no arena", "[memory_plan]") {
  auto p = plan_memory({{0, 0, 1, 0}, {1, 0, 1, 0}});
  CHECK(p.offsets == offsets{0, 64});
  CHECK(p.arena_bytes == 128);
  auto e = plan_memory({});
  CHECK(e.offsets.empty());
  CHECK(e.arena_bytes == 0);
}

}  // namespace
