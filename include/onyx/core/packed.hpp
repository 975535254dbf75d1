// onyx/core/packed.hpp: elements of the sub-byte types (int4, uint4,
// float4e2m1: two per byte; int2, uint2: four per byte), stored low bits
// first: element i sits at bits (i % per_byte) * width of byte i / per_byte.
// A tensor of n elements takes ceil(n / per_byte) bytes; unused high bits of
// the last byte are zero.
#pragma once

#include <cstdint>

#include "onyx/core/dtype.hpp"

namespace onyx {

/// The `width`-bit field of element `i` (unsigned).
constexpr std::uint8_t packed_get(const std::uint8_t* p, int width, std::int64_t i) {
  int per_byte = 8 / width;
  int shift = static_cast<int>(i % per_byte) * width;
  return static_cast<std::uint8_t>((p[i / per_byte] >> shift) & ((1u << width) - 1));
}

/// Stores the low `width` bits of `v` as element `i`, keeping its neighbours.
constexpr void packed_set(std::uint8_t* p, int width, std::int64_t i, std::uint8_t v) {
  int per_byte = 8 / width;
  int shift = static_cast<int>(i % per_byte) * width;
  std::uint8_t mask = static_cast<std::uint8_t>(((1u << width) - 1) << shift);
  std::uint8_t& byte = p[i / per_byte];
  byte = static_cast<std::uint8_t>((byte & ~mask) | ((v << shift) & mask));
}

/// A `width`-bit field read as two's complement.
constexpr std::int8_t sign_extend(std::uint8_t v, int width) {
  int s = 8 - width;
  return static_cast<std::int8_t>(static_cast<std::int8_t>(v << s) >> s);
}

}  // namespace onyx
