// kernels/cpu/image_codecs.hpp: image file decoding for ImageDecoder, over
// Debian's codec libraries (libjpeg, libpng, libopenjp2, libtiff, libwebp)
// and onyx's own BMP and PNM readers. Compiled once in image_codecs.cpp into
// the onyx_image_codecs library, which only a build with the CMake option
// ONYX_IMAGE_DECODER has and links; nothing else in onyx reaches these
// libraries.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "onyx/core/status.hpp"

namespace onyx::image {

/// An image as 8-bit RGB rows, top row first: pixels.size() == height * width * 3.
struct rgb_image {
  std::int64_t height = 0, width = 0;
  std::vector<std::uint8_t> pixels;
};

/// The file format `data` starts like ("BMP", "JPEG", ...), or "" when none
/// of the supported ones.
std::string_view format_of(std::span<const std::uint8_t> data);

/// Decodes a BMP, JPEG, JPEG 2000 (codestream or JP2), PNG, PNM (P2, P3, P5,
/// P6), TIFF or WebP file to RGB. Grayscale sources are replicated to three
/// channels, palettes expanded, alpha dropped, samples wider than 8 bits
/// scaled to 8. An unknown format, or a corrupt or truncated file, gives
/// errc::invalid_argument saying which format and what went wrong.
result<rgb_image> decode_rgb(std::span<const std::uint8_t> data);

}  // namespace onyx::image
