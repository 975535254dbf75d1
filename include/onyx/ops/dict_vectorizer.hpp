// ops::DictVectorizer (ai.onnx.ml opset 1): a map (string or int64 keys;
// int64, float32, float64 or string values) to a 1-D tensor Y with one
// element per vocabulary entry (string_vocabulary or int64_vocabulary): the
// map's value for that key, 0 ("" for strings) where the map has none. Keys
// outside the vocabulary are ignored. Y's element type is the map's value
// type (the loader records a map's value type in its value_type).
// Deviation: Y is 1-D as the spec says; ORT gives shape (1, V).
// Kernel: kernels/cpu/dict_vectorizer.hpp. Tested in test/unit/ml_map_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct DictVectorizer {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "DictVectorizer";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T2 = dtypes::i64 | dtypes::f32 | dtypes::f64 | dtypes::string;
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::vector<std::int64_t> int64_vocabulary;
    std::vector<std::string> string_vocabulary;
    static constexpr auto fields = std::tuple{field{"int64_vocabulary", &attributes::int64_vocabulary},
                                              field{"string_vocabulary", &attributes::string_vocabulary}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (c.input(0).kind != value_kind::map) return c.fail("X must be a map");
    if (a.string_vocabulary.empty() == a.int64_vocabulary.empty())
      return c.fail("exactly one of string_vocabulary and int64_vocabulary must be given");
    if (c.input_type(0) != dtype::undefined && !T2.contains(c.input_type(0)))
      return c.fail("the map's values have type " + std::string(onyx::name(c.input_type(0))));
    const auto n = static_cast<std::int64_t>(std::max(a.string_vocabulary.size(), a.int64_vocabulary.size()));
    c.set_output(0, c.input_type(0), sym_shape({dim(n)}));
    return ok();
  }
};

}  // namespace onyx::ops
