// ops::LabelEncoder (ai.onnx.ml): maps each element of X through the table
// keys -> values (attribute lists keys_strings/int64s/floats and
// values_strings/int64s/floats, or keys_tensor/values_tensor from opset 4);
// elements not among the keys get the default (default_tensor, or
// default_string "_Unused" / default_int64 -1 / default_float -0.0 by the
// values' type). Float keys match NaN to NaN. ai.onnx.ml opsets 2-latest.
// ops::LabelEncoder_v1 (opset 1): one list, classes_strings: a string maps to
// its index (default_int64 when absent), an int64 to classes_strings[i]
// (default_string when outside). A repeated class maps to its first index.
// Tested in test/unit/text_test.cpp and node/test_ai_onnx_ml_label_encoder_*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct LabelEncoder {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "LabelEncoder";
  static constexpr int since = 2, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 =
      dtypes::string | dtypes::i64 | dtypes::f32 | dtypes::i32 | dtypes::i16 | dtypes::f64;
  static constexpr dtype_set T2 = T1;
  struct attributes {
    std::string default_string = "_Unused";
    std::int64_t default_int64 = -1;
    float default_float = -0.0f;
    std::optional<tensor> default_tensor;
    std::vector<float> keys_floats;
    std::vector<std::int64_t> keys_int64s;
    std::vector<std::string> keys_strings;
    std::optional<tensor> keys_tensor;
    std::vector<float> values_floats;
    std::vector<std::int64_t> values_int64s;
    std::vector<std::string> values_strings;
    std::optional<tensor> values_tensor;
    static constexpr auto fields = std::tuple{
        field{"default_string", &attributes::default_string},
        field{"default_int64", &attributes::default_int64},
        field{"default_float", &attributes::default_float},
        field{"default_tensor", &attributes::default_tensor},
        field{"keys_floats", &attributes::keys_floats},
        field{"keys_int64s", &attributes::keys_int64s},
        field{"keys_strings", &attributes::keys_strings},
        field{"keys_tensor", &attributes::keys_tensor},
        field{"values_floats", &attributes::values_floats},
        field{"values_int64s", &attributes::values_int64s},
        field{"values_strings", &attributes::values_strings},
        field{"values_tensor", &attributes::values_tensor}};

    /// The keys or the values as one tensor, whichever attribute holds them.
    static tensor pick(const std::optional<tensor>& t, const std::vector<std::int64_t>& i,
                       const std::vector<float>& f, const std::vector<std::string>& s) {
      if (t) return *t;
      if (!s.empty()) return tensor::from(s, {static_cast<std::int64_t>(s.size())});
      if (!f.empty()) return tensor::from(f, {static_cast<std::int64_t>(f.size())});
      return tensor::from(i, {static_cast<std::int64_t>(i.size())});
    }
    tensor keys() const { return pick(keys_tensor, keys_int64s, keys_floats, keys_strings); }
    tensor values() const { return pick(values_tensor, values_int64s, values_floats, values_strings); }
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    const tensor k = a.keys(), v = a.values();
    if (k.size() != v.size())
      return c.fail("LabelEncoder has " + std::to_string(k.size()) + " keys but " + std::to_string(v.size()) +
                    " values");
    if (k.size() && k.type() != c.input_type(0))
      return c.fail("keys have type " + std::string(onyx::name(k.type())) + " but X has " +
                    std::string(onyx::name(c.input_type(0))));
    if (!T2.contains(v.type())) return c.fail("values type " + std::string(onyx::name(v.type())) + " is not allowed");
    if (a.default_tensor && a.default_tensor->type() != v.type())
      return c.fail("default_tensor must have the values' type");
    c.set_output(0, v.type(), c.input_shape(0));
    return ok();
  }
};

struct LabelEncoder_v1 {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "LabelEncoder";
  static constexpr int since = 1, until = 1;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::string | dtypes::i64;
  struct attributes {
    std::vector<std::string> classes_strings;
    std::int64_t default_int64 = -1;
    std::string default_string = "_Unused";
    static constexpr auto fields = std::tuple{field{"classes_strings", &attributes::classes_strings},
                                              field{"default_int64", &attributes::default_int64},
                                              field{"default_string", &attributes::default_string}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    c.set_output(0, c.input_type(0) == dtype::string ? dtype::int64 : dtype::string, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
