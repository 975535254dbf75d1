// ops::CategoryMapper (ai.onnx.ml opset 1): maps strings to int64s through
// the pairs (cats_strings[i], cats_int64s[i]) and int64s back to strings;
// unknown values get default_int64 (-1) or default_string ("_Unused").
// Y has X's shape. Choice where the spec is silent (ORT's): a repeated key
// maps to its first pair. Kernel: kernels/cpu/category_mapper.hpp. Tested in
// test/unit/ml_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct CategoryMapper {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "CategoryMapper";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::string | dtypes::i64;
  struct attributes {
    std::vector<std::int64_t> cats_int64s;
    std::vector<std::string> cats_strings;
    std::int64_t default_int64 = -1;
    std::string default_string = "_Unused";
    static constexpr auto fields = std::tuple{
        field{"cats_int64s", &attributes::cats_int64s}, field{"cats_strings", &attributes::cats_strings},
        field{"default_int64", &attributes::default_int64}, field{"default_string", &attributes::default_string}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    if (a.cats_int64s.size() != a.cats_strings.size())
      return c.fail("cats_int64s has " + std::to_string(a.cats_int64s.size()) + " entries but cats_strings has " +
                    std::to_string(a.cats_strings.size()));
    c.set_output(0, c.input_type(0) == dtype::string ? dtype::int64 : dtype::string, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
