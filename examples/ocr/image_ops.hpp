// examples/ocr/image_ops.hpp: the image operations the OCR pipeline needs,
// written for it (no OpenCV): resizing, perspective crops, quarter turns and
// drawing. Conventions follow OpenCV's, whose results PaddleOCR was tuned on.
#pragma once

#include <utility>

#include "ocr.hpp"

namespace onyx::ocr::image_ops {

/// Bilinear resize to `width` x `height` with OpenCV's INTER_LINEAR
/// convention (pixel centres aligned, source coordinates clamped to the
/// edge), rounded to 8 bits.
image resize_bilinear(const image& src, int width, int height);

/// The `width` x `height` image whose corners (0,0), (width,0),
/// (width,height), (0,height) map to `box`'s four corners: a perspective warp
/// sampled bicubically (a = -0.75, as OpenCV's INTER_CUBIC), edge pixels
/// repeated outside the source.
image warp_quad(const image& src, const quad& box, int width, int height);

/// The image turned a quarter counterclockwise (numpy's rot90).
image rotate_90_ccw(const image& src);
/// The image turned upside down.
image rotate_180(const image& src);

struct rgb {
  std::uint8_t r, g, b;
};
/// A closed polygon's edges, `thickness` pixels wide.
void draw_polygon(image& img, const quad& box, rgb colour, int thickness);
/// The width and height draw_number takes.
std::pair<int, int> number_size(int number, int scale);
/// `number` in white digits of `scale`-pixel dots on a box of `colour`, whose
/// top-left corner is at (x, y) (moved inside the image where needed).
void draw_number(image& img, int x, int y, int number, rgb colour, int scale);

}  // namespace onyx::ocr::image_ops
