// ops::NonMaxSuppression: per batch and class, greedily keeps the
// highest-scoring boxes (ties: lower box index first) whose IoU with every
// box kept before is at most `iou_threshold`, up to
// `max_output_boxes_per_class` (absent: 0, so nothing), skipping boxes whose
// score is not above `score_threshold` when given. Output selected_indices
// [n, 3] int64 rows (batch, class, box), in selection order.
// `center_point_box` = 0: boxes are [y1, x1, y2, x2], either corner first;
// 1: [x_center, y_center, width, height]. Degenerate (zero-area) boxes never
// suppress or get suppressed.
// Opsets 10-latest (11 only reworded). Kernel
// (kernels/cpu/non_max_suppression.hpp): float32 boxes and scores.
// Tested in test/unit/non_max_suppression_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct NonMaxSuppression {
  static constexpr std::string_view domain = "", name = "NonMaxSuppression";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{2, 5}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32;
  struct attributes {
    std::int64_t center_point_box = 0;
    static constexpr auto fields = std::tuple{field{"center_point_box", &attributes::center_point_box}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "boxes"));
    ONYX_TRY(require_type(c, 1, T, "scores"));
    if (c.input_count() > 2 && c.has_input(2)) ONYX_TRY(require_type(c, 2, dtypes::i64, "max_output_boxes_per_class"));
    for (int i = 3; i < c.input_count(); ++i)
      if (c.has_input(i)) ONYX_TRY(require_type(c, i, T, i == 3 ? "iou_threshold" : "score_threshold"));
    if (a.center_point_box != 0 && a.center_point_box != 1)
      return c.fail("center_point_box must be 0 or 1, got " + std::to_string(a.center_point_box));
    const sym_shape& b = c.input_shape(0);
    const sym_shape& s = c.input_shape(1);
    if (b.rank_known && (b.rank() != 3 || (b[2].known() && b[2].value() != 4)))
      return c.fail("boxes must have shape [batches, boxes, 4], got " + b.str());
    if (s.rank_known && s.rank() != 3) return c.fail("scores must have shape [batches, classes, boxes], got " + s.str());
    if (b.rank_known && s.rank_known && ((b[0].known() && s[0].known() && b[0].value() != s[0].value()) ||
                                         (b[1].known() && s[2].known() && b[1].value() != s[2].value())))
      return c.fail("boxes " + b.str() + " and scores " + s.str() + " disagree on batches or boxes");
    c.set_output(0, dtype::int64, sym_shape({dim::unknown(), dim(3)}));
    return ok();
  }
};

}  // namespace onyx::ops
