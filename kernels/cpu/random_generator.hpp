// kernels/cpu/random_generator.hpp: the generator a random kernel call draws
// from (the random ops, Dropout in training mode).
//
// Each call makes its own std::mt19937_64, so `run` stays const and
// thread-safe. With a seed (the node's `seed` attribute, its bits for a float
// one) every run, and every session, draws the same values; without one the
// generator is seeded from a process-wide sequence started from
// std::random_device, so each run draws anew.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <random>

namespace onyx::kernels::cpu {

inline std::mt19937_64 random_generator(std::optional<std::uint64_t> seed) {
  if (seed) return std::mt19937_64(*seed);
  static std::atomic<std::uint64_t> next{(static_cast<std::uint64_t>(std::random_device{}()) << 32) ^
                                         std::random_device{}()};
  return std::mt19937_64(next.fetch_add(0x9E3779B97F4A7C15ull, std::memory_order_relaxed));
}

}  // namespace onyx::kernels::cpu
