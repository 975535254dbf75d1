// ops::TopK: the k largest (largest=1) or smallest elements along `axis`
// and their int64 indices. Ties keep the lower index first; output is
// always sorted (sorted=0 allows any order, so sorted is a valid answer).
// NaN counts as larger than every number.
// Opsets 10-latest (k as an input; 11 added largest/sorted and negative
// axes); ops::TopK_v1 (opsets 1-9, k attribute) expands into it. Numeric types.
// Tested in test/unit/non_zero_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct TopK {
  static constexpr std::string_view domain = "", name = "TopK";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{2, 2}, outputs{2, 2};
  static constexpr dtype_set T = dtypes::numeric, I = dtypes::i64;
  struct attributes {
    std::int64_t axis = -1;
    std::int64_t largest = 1;
    std::int64_t sorted = 1;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis},
                                              field{"largest", &attributes::largest},
                                              field{"sorted", &attributes::sorted}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, dtypes::i64, "K (int64)"));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      c.set_output(1, dtype::int64, sym_shape::unknown_rank());
      return ok();
    }
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, x.rank()));
    std::vector<dim> out = x.dims;
    out[axis] = dim::unknown();
    if (auto k = c.input_ints(1)) {
      if (k->size() != 1) return c.fail("K must hold one value, not " + std::to_string(k->size()));
      if ((*k)[0] < 0) return c.fail("K is negative: " + std::to_string((*k)[0]));
      if (x.dims[axis].known() && (*k)[0] > x.dims[axis].value())
        return c.fail("K = " + std::to_string((*k)[0]) + " exceeds the axis's " + x.dims[axis].str() + " elements");
      out[axis] = (*k)[0];
    }
    c.set_output(0, c.input_type(0), sym_shape(out));
    c.set_output(1, dtype::int64, sym_shape(std::move(out)));
    return ok();
  }
};

struct TopK_v1 {
  static constexpr std::string_view domain = "", name = "TopK";
  static constexpr int since = 1, until = 9;
  static constexpr arity inputs{1, 1}, outputs{2, 2};
  struct attributes {
    std::int64_t axis = -1;
    std::int64_t k = 0;
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"k", &attributes::k, true}};
  };
  static status infer(const attributes&, infer_context& c) {
    const sym_shape& x = c.input_shape(0);
    sym_shape s = x.rank_known ? unknown_dims(x.rank()) : sym_shape::unknown_rank();
    c.set_output(0, c.input_type(0), s);
    c.set_output(1, dtype::int64, s);
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    ONYX_ASSIGN(auto outs, c.add("TopK", {c.input(0), c.constant(int64_tensor({a.k}))},
                                 {attribute{"axis", a.axis}}, 2));
    c.set_output(0, outs[0]);
    c.set_output(1, outs[1]);
    return ok();
  }
};

}  // namespace onyx::ops
