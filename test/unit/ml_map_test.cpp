// ZipMap, DictVectorizer and CastMap in sessions (their inputs or outputs are
// maps), against hand-computed results; a sequence of maps written as the
// ONNX test-data format and read back.
#include <catch2/catch.hpp>

#include "kernels/cpu/ml_kernels.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/graph/tensor_proto.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/runtime/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

using namespace onyx;
using ml_reg = prebuilt_registry<op_list<ops::ZipMap, ops::DictVectorizer, ops::CastMap>, backend_list<cpu>>;

namespace {

onnx::TypeProto map_type(dtype key, dtype val) {
  onnx::TypeProto t;
  t.mutable_map_type()->set_key_type(static_cast<std::int32_t>(key));
  t.mutable_map_type()->mutable_value_type()->mutable_tensor_type()->set_elem_type(static_cast<std::int32_t>(val));
  return t;
}

std::unique_ptr<session_core> open(graph::model_builder& b, const std::string& name) {
  auto p = test::temp_path("ml_map_" + name + ".onnx");
  REQUIRE(b.save(p).ok());
  auto s = basic_session<ml_reg>::open(p);
  INFO((s.ok() ? std::string() : s.error().message()));
  REQUIRE(s.ok());
  return std::move(s).value();
}

template <class K, class V>
value make_map(std::vector<K> keys, std::vector<V> values) {
  map m;
  m.keys = tensor::from(keys, {static_cast<std::int64_t>(keys.size())});
  for (auto& v : values) m.values.emplace_back(tensor::scalar(v));
  return value(std::move(m));
}

}  // namespace

TEST_CASE("ZipMap: one map per row, string and int64 labels; written and read back", "[ml][map]") {
  graph::model_builder b{17};
  b.import("ai.onnx.ml", 1);
  auto x = b.input("x", dtype::float32, {2, 3});
  b.output(b.node({"ai.onnx.ml", "ZipMap"}, {x}, {{"classlabels_strings", std::vector<std::string>{"a", "b", "c"}}}));
  auto s = open(b, "zipmap");
  std::vector<value> out;
  std::vector<named_value> in{{"x", tensor::from(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3})}};
  REQUIRE(s->run(std::span<const named_value>(in), out).ok());
  REQUIRE(out[0].is_sequence());
  const auto& maps = out[0].as_sequence().items;
  REQUIRE(maps.size() == 2);
  const map& m1 = maps[1].as_map();
  CHECK(m1.keys.values<std::string>()[2] == "c");
  CHECK(m1.values[2].as_tensor().data<float>()[0] == 6.0f);

  // The test-data format round trip (onyx-run --output-dir writes this).
  auto p = test::temp_path("ml_map_zipmap_out.pb");
  REQUIRE(graph::write_value_file(out[0], p, "y").ok());
  auto back = graph::read_value_file(p, graph::proto_kind::sequence);
  REQUIRE(back.ok());
  REQUIRE(back->as_sequence().items.size() == 2);
  CHECK(back->as_sequence().items[0].as_map().keys.values<std::string>()[1] == "b");
  CHECK(back->as_sequence().items[0].as_map().values[1].as_tensor().data<float>()[0] == 2.0f);

  graph::model_builder bi{17};
  bi.import("ai.onnx.ml", 1);
  auto xi = bi.input("x", dtype::float32, {"N", 2});
  bi.output(bi.node({"ai.onnx.ml", "ZipMap"}, {xi}, {{"classlabels_int64s", std::vector<std::int64_t>{10, 20}}}));
  auto si = open(bi, "zipmap_int");
  std::vector<named_value> ini{{"x", tensor::from(std::vector<float>{0.25f, 0.75f}, {1, 2})}};
  REQUIRE(si->run(std::span<const named_value>(ini), out).ok());
  const map& mi = out[0].as_sequence().items[0].as_map();
  CHECK(mi.keys.data<std::int64_t>()[1] == 20);
  CHECK(mi.values[1].as_tensor().data<float>()[0] == 0.75f);
}

TEST_CASE("DictVectorizer: map values at their vocabulary positions, zeros elsewhere", "[ml][map]") {
  graph::model_builder b{17};
  b.import("ai.onnx.ml", 1);
  auto x = b.input("x", map_type(dtype::string, dtype::float32));
  b.output(b.node({"ai.onnx.ml", "DictVectorizer"}, {x},
                  {{"string_vocabulary", std::vector<std::string>{"w", "x", "y", "z"}}}));
  auto s = open(b, "dictvec");
  std::vector<value> out;
  std::vector<named_value> in{{"x", make_map<std::string, float>({"y", "q", "w"}, {2.5f, 9.0f, -1.0f})}};
  REQUIRE(s->run(std::span<const named_value>(in), out).ok());
  REQUIRE(out[0].as_tensor().shape() == extents{4});
  test::require_close(out[0].as_tensor(), std::vector<float>{-1.0f, 0, 2.5f, 0}, 0, 0);

  graph::model_builder bi{17};
  bi.import("ai.onnx.ml", 1);
  auto xi = bi.input("x", map_type(dtype::int64, dtype::int64));
  bi.output(bi.node({"ai.onnx.ml", "DictVectorizer"}, {xi}, {{"int64_vocabulary", std::vector<std::int64_t>{5, 3}}}));
  auto si = open(bi, "dictvec_int");
  std::vector<named_value> ini{{"x", make_map<std::int64_t, std::int64_t>({3}, {42})}};
  REQUIRE(si->run(std::span<const named_value>(ini), out).ok());
  test::require_close(out[0].as_tensor(), std::vector<std::int64_t>{0, 42}, 0, 0);
}

TEST_CASE("CastMap: dense by ascending key, sparse at the key, casts", "[ml][map]") {
  auto model = [](const char* cast_to, const char* form, std::int64_t max_map, dtype val) {
    graph::model_builder b{17};
    b.import("ai.onnx.ml", 1);
    auto x = b.input("x", map_type(dtype::int64, val));
    b.output(b.node({"ai.onnx.ml", "CastMap"}, {x}, {{"cast_to", cast_to}, {"map_form", form}, {"max_map", max_map}}));
    return b;
  };
  std::vector<value> out;
  {
    auto b = model("TO_FLOAT", "DENSE", 1, dtype::string);
    auto s = open(b, "castmap_dense");
    std::vector<named_value> in{{"x", make_map<std::int64_t, std::string>({7, 2, 4}, {"1.5", "-2", "8"})}};
    REQUIRE(s->run(std::span<const named_value>(in), out).ok());
    test::require_close(out[0].as_tensor(), std::vector<float>{-2, 8, 1.5f}, 0, 0);
  }
  {
    auto b = model("TO_INT64", "SPARSE", 5, dtype::float32);
    auto s = open(b, "castmap_sparse");
    std::vector<named_value> in{{"x", make_map<std::int64_t, float>({3, 0}, {2.75f, -1.0f})}};
    REQUIRE(s->run(std::span<const named_value>(in), out).ok());
    test::require_close(out[0].as_tensor(), std::vector<std::int64_t>{-1, 0, 0, 2, 0}, 0, 0);
    std::vector<named_value> bad{{"x", make_map<std::int64_t, float>({5}, {1.0f})}};
    auto st = s->run(std::span<const named_value>(bad), out);
    REQUIRE_FALSE(st.ok());
    CHECK_THAT(st.message(), Catch::Contains("key 5 is outside"));
  }
  {
    auto b = model("TO_STRING", "DENSE", 1, dtype::float32);
    auto s = open(b, "castmap_string");
    std::vector<named_value> in{{"x", make_map<std::int64_t, float>({1}, {1.5f})}};
    REQUIRE(s->run(std::span<const named_value>(in), out).ok());
    CHECK(out[0].as_tensor().values<std::string>()[0] == "1.500000");
  }
}
