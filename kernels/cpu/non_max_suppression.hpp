// kernel<ops::NonMaxSuppression, cpu>: per (batch, class), candidates sorted
// by score then index, each compared with the boxes kept so far:
// O(boxes * kept) IoUs per class.
#pragma once

#include <algorithm>
#include <numeric>
#include <vector>

#include "onyx/ops/non_max_suppression.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

namespace kernels::cpu {

struct nms_box {
  float x0, y0, x1, y1, area;
};

inline nms_box nms_corners(const float* b, bool center) {
  nms_box r;
  if (center) {
    r = {b[0] - b[2] / 2, b[1] - b[3] / 2, b[0] + b[2] / 2, b[1] + b[3] / 2, 0};
  } else {
    r = {std::min(b[1], b[3]), std::min(b[0], b[2]), std::max(b[1], b[3]), std::max(b[0], b[2]), 0};
  }
  r.area = (r.x1 - r.x0) * (r.y1 - r.y0);
  return r;
}

/// True when IoU(a, b) > threshold (zero-area boxes never overlap).
inline bool nms_suppresses(const nms_box& a, const nms_box& b, float threshold) {
  float w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  float h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  if (w <= 0 || h <= 0 || a.area <= 0 || b.area <= 0) return false;
  float inter = w * h, uni = a.area + b.area - inter;
  return uni > 0 && inter / uni > threshold;
}

}  // namespace kernels::cpu

template <> struct kernel<ops::NonMaxSuppression, cpu> {
  static constexpr std::array types{ops::NonMaxSuppression::T};
  template <ops::signature> static status run(const call<ops::NonMaxSuppression>& c) {
    using namespace kernels::cpu;
    const tensor& boxes = c.input(0);
    const tensor& scores = c.input(1);
    auto scalar_input = [&](int i) -> const tensor* { return c.has_input(i) && c.input(i).size() > 0 ? &c.input(i) : nullptr; };
    std::int64_t max_out = 0;
    float iou = 0;
    const tensor* score_min = scalar_input(4);
    if (const tensor* t = scalar_input(2)) max_out = std::max<std::int64_t>(0, t->data<std::int64_t>()[0]);
    if (const tensor* t = scalar_input(3)) iou = t->data<float>()[0];
    if (boxes.rank() != 3 || boxes.dim(2) != 4 || scores.rank() != 3 || scores.dim(0) != boxes.dim(0) ||
        scores.dim(2) != boxes.dim(1))
      return status(errc::invalid_argument, "boxes " + sym_shape(boxes.shape()).str() + " and scores " +
                                                sym_shape(scores.shape()).str() + " do not agree");
    std::int64_t batches = boxes.dim(0), n = boxes.dim(1), classes = scores.dim(1);
    bool center = c.attrs().center_point_box == 1;
    std::vector<std::int64_t> selected;  // (batch, class, box) triples
    std::vector<nms_box> corners(n);
    std::vector<std::int64_t> order, kept;
    for (std::int64_t b = 0; b < batches; ++b) {
      for (std::int64_t i = 0; i < n; ++i) corners[i] = nms_corners(boxes.data<float>() + (b * n + i) * 4, center);
      for (std::int64_t k = 0; k < classes; ++k) {
        const float* s = scores.data<float>() + (b * classes + k) * n;
        order.clear();
        for (std::int64_t i = 0; i < n; ++i)
          if (!score_min || s[i] > score_min->data<float>()[0]) order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) { return s[x] > s[y]; });
        kept.clear();
        for (std::int64_t i : order) {
          if (static_cast<std::int64_t>(kept.size()) >= max_out) break;
          bool keep = std::none_of(kept.begin(), kept.end(),
                                   [&](std::int64_t j) { return nms_suppresses(corners[i], corners[j], iou); });
          if (!keep) continue;
          kept.push_back(i);
          selected.insert(selected.end(), {b, k, i});
        }
      }
    }
    tensor& y = c.allocate_output(0, dtype::int64, {static_cast<std::int64_t>(selected.size() / 3), 3});
    std::copy(selected.begin(), selected.end(), y.data<std::int64_t>());
    return ok();
  }
};

}  // namespace onyx
