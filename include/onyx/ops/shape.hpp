// ops::Shape: the input's dims [start, end) as a 1-D int64 tensor.
// Opsets 1-latest (15 added start/end, clamped to [0, rank] after adding rank
// to negatives). All types. Inference also gives the output's value when the
// selected dims are known, so downstream shape arithmetic folds.
// Tested in test/unit/shape_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Shape {
  static constexpr std::string_view domain = "", name = "Shape";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all, T1 = dtypes::i64;
  struct attributes {
    std::int64_t start = 0;
    std::optional<std::int64_t> end;
    static constexpr auto fields =
        std::tuple{field{"start", &attributes::start}, field{"end", &attributes::end}};
  };
  /// [start, end) for a rank-`r` input.
  static std::pair<std::int64_t, std::int64_t> range(const attributes& a, std::int64_t r) {
    auto clamp = [r](std::int64_t v) { return std::clamp(v < 0 ? v + r : v, std::int64_t{0}, r); };
    std::int64_t b = clamp(a.start), e = clamp(a.end.value_or(r));
    return {b, std::max(b, e)};
  }
  static status infer(const attributes& a, infer_context& c) {
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, dtype::int64, unknown_dims(1));
      return ok();
    }
    auto [b, e] = range(a, static_cast<std::int64_t>(x.rank()));
    c.set_output(0, dtype::int64, sym_shape({dim(e - b)}));
    std::vector<std::int64_t> v;
    for (auto i = b; i < e; ++i) {
      if (!x.dims[i].known()) return ok();
      v.push_back(x.dims[i].value());
    }
    c.set_output_value(0, int64_tensor(v));
    return ok();
  }
};

}  // namespace onyx::ops
