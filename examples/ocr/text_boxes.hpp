// examples/ocr/text_boxes.hpp: DB post-processing, from the detector's
// probability map to text boxes (PaddleOCR's DBPostProcess with box_type
// "quad" and score_mode "fast", then predict_det's filtering and
// predict_system's reading-order sort).
//
// Where PaddleOCR uses OpenCV and pyclipper, this uses 8-connected regions of
// the thresholded map (the regions cv2.findContours outlines; holes are not
// boxed), their convex hull and rotating calipers for the minimum-area
// rectangle, and the exact offset of a rectangle for the unclip step (the
// rectangle grown by the offset on every side is the minimum-area rectangle
// of its rounded offset polygon).
#pragma once

#include <vector>

#include "ocr.hpp"

namespace onyx::ocr::text_boxes {

struct detection {
  quad box;     // in the source image's pixels, clockwise from the top-left
  float score;  // mean probability inside the box before unclipping
};

/// Boxes in `map` (`width` x `height` probabilities, row-major), scaled to a
/// `image_width` x `image_height` source image, in reading order.
std::vector<detection> from_probability_map(const float* map, int width, int height, int image_width, int image_height,
                                            const options& opt);

}  // namespace onyx::ocr::text_boxes
