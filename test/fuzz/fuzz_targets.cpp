// test/fuzz/fuzz_targets.cpp: see fuzz_targets.hpp. One registry of common
// ops (not all of onyx's, so a fuzzing build compiles in minutes): element-wise
// math, shape ops, the absurd-size ops of issue 15, indexing ops and control
// flow.
#include "fuzz_targets.hpp"

#include <chrono>
#include <cstring>
#include <memory>

#include "kernels/cpu/add.hpp"
#include "kernels/cpu/cast.hpp"
#include "kernels/cpu/concat.hpp"
#include "kernels/cpu/constant_of_shape.hpp"
#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/expand.hpp"
#include "kernels/cpu/gather.hpp"
#include "kernels/cpu/gather_nd.hpp"
#include "kernels/cpu/gemm.hpp"
#include "kernels/cpu/identity.hpp"
#include "kernels/cpu/if.hpp"
#include "kernels/cpu/loop.hpp"
#include "kernels/cpu/mat_mul.hpp"
#include "kernels/cpu/mul.hpp"
#include "kernels/cpu/non_zero.hpp"
#include "kernels/cpu/one_hot.hpp"
#include "kernels/cpu/pad.hpp"
#include "kernels/cpu/range.hpp"
#include "kernels/cpu/reduce.hpp"
#include "kernels/cpu/relu.hpp"
#include "kernels/cpu/reshape.hpp"
#include "kernels/cpu/resize.hpp"
#include "kernels/cpu/scatter_elements.hpp"
#include "kernels/cpu/shape.hpp"
#include "kernels/cpu/slice.hpp"
#include "kernels/cpu/softmax.hpp"
#include "kernels/cpu/split.hpp"
#include "kernels/cpu/squeeze.hpp"
#include "kernels/cpu/tile.hpp"
#include "kernels/cpu/top_k.hpp"
#include "kernels/cpu/transpose.hpp"
#include "kernels/cpu/unsqueeze.hpp"
#include "kernels/cpu/where.hpp"
#include "onyx/graph/compact.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/tensor_file.hpp"
#include "onyx/graph/tensor_proto.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/cast.hpp"
#include "onyx/ops/concat.hpp"
#include "onyx/ops/constant_of_shape.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/expand.hpp"
#include "onyx/ops/gather.hpp"
#include "onyx/ops/gather_nd.hpp"
#include "onyx/ops/gemm.hpp"
#include "onyx/ops/identity.hpp"
#include "onyx/ops/if.hpp"
#include "onyx/ops/loop.hpp"
#include "onyx/ops/mat_mul.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/non_zero.hpp"
#include "onyx/ops/one_hot.hpp"
#include "onyx/ops/pad.hpp"
#include "onyx/ops/range.hpp"
#include "onyx/ops/reduce.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/reshape.hpp"
#include "onyx/ops/resize.hpp"
#include "onyx/ops/scatter_elements.hpp"
#include "onyx/ops/shape.hpp"
#include "onyx/ops/slice.hpp"
#include "onyx/ops/softmax.hpp"
#include "onyx/ops/split.hpp"
#include "onyx/ops/squeeze.hpp"
#include "onyx/ops/tile.hpp"
#include "onyx/ops/top_k.hpp"
#include "onyx/ops/transpose.hpp"
#include "onyx/ops/unsqueeze.hpp"
#include "onyx/ops/where.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/runtime/session.hpp"

namespace onyx::fuzz {

namespace {

using fuzz_ops = op_list<ops::Add, ops::Mul, ops::Relu, ops::Cast, ops::Concat, ops::ConstantOfShape, ops::Conv,
                         ops::Expand, ops::Gather, ops::GatherND, ops::Gemm, ops::Identity, ops::If, ops::Loop,
                         ops::MatMul, ops::NonZero, ops::OneHot, ops::Pad, ops::Range, ops::ReduceSum, ops::Reshape,
                         ops::Resize, ops::ScatterElements, ops::Shape, ops::Slice, ops::Softmax, ops::Split,
                         ops::Squeeze, ops::Tile, ops::TopK, ops::Transpose, ops::Unsqueeze, ops::Where>;
#if ONYX_FUZZ_PREBUILT
using fuzz_registry = prebuilt_registry<fuzz_ops, backend_list<cpu>>;
#else
using fuzz_registry = registry<fuzz_ops, backend_list<cpu>>;
#endif

/// Small limits, so an absurd model fails fast instead of exhausting the
/// fuzzer's -rss_limit_mb.
session_options options() {
  session_options so;
  so.threads = 1;
  so.max_allocation_bytes = 64u << 20;
  so.max_arena_bytes = 256u << 20;
  so.plan_cache_size = 1;
  return so;
}

/// An input for `in`: symbolic dims 2, at most 2^16 elements, values a small
/// pattern; nullopt when it cannot be made.
std::optional<value> make_input(const io_info& in) {
  if (in.type.kind != value_kind::tensor || !in.type.shape.rank_known) return std::nullopt;
  extents e;
  std::int64_t n = 1;
  for (std::size_t d = 0; d < in.type.shape.rank(); ++d) {
    std::int64_t v = in.type.shape[d].known() ? in.type.shape[d].value() : 2;
    if (v < 0 || v > 4096) return std::nullopt;
    n *= v;
    if (n > (1 << 16)) return std::nullopt;
    e.push_back(v);
  }
  if (in.type.type == dtype::undefined || !is_valid(static_cast<int>(in.type.type))) return std::nullopt;
  tensor t = tensor::zeros(in.type.type, e);
  if (in.type.type == dtype::float32)
    for (std::int64_t i = 0; i < n; ++i) t.data<float>()[i] = static_cast<float>(i % 7) * 0.5f - 1.0f;
  else if (in.type.type == dtype::int64)
    for (std::int64_t i = 0; i < n; ++i) t.data<std::int64_t>()[i] = i % 3;
  else if (in.type.type == dtype::int32)
    for (std::int64_t i = 0; i < n; ++i) t.data<std::int32_t>()[i] = static_cast<std::int32_t>(i % 3);
  return value(std::move(t));
}

void run_once(const session_core& s) {
  std::vector<named_value> in;
  for (const auto& i : s.inputs()) {
    auto v = make_input(i);
    if (!v) return;
    in.emplace_back(i.name, std::move(*v));
  }
  std::vector<value> outs;
  run_options ro;
  ro.timeout = std::chrono::seconds(2);
  (void)s.run(std::span<const named_value>(in), outs, ro);
}

}  // namespace

int load_and_run_model(const std::uint8_t* data, std::size_t size) {
  auto m = catch_allocation_failure(
      [&] {
        return graph::load_model_from_bytes(std::string_view(reinterpret_cast<const char*>(data), size),
                                            fuzz_registry::table(), "/nonexistent-fuzz-folder");
      },
      [] { return std::string("load"); });
  if (!m.ok()) return 0;
  auto s = basic_session<fuzz_registry>::open(std::move(m).value(), options());
  if (s.ok()) run_once(**s);
  return 0;
}

int read_tensor(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto own = catch_allocation_failure([&] { return graph::parse_tensor_proto(bytes); }, [] { return std::string(); });
  onnx::TensorProto p;
  if (p.ParseFromArray(data, static_cast<int>(size))) {
    auto t = catch_allocation_failure([&] { return graph::tensor_from_proto(p); }, [] { return std::string(); });
    (void)t;
  }
  (void)own;
  return 0;
}

int read_compact(const std::uint8_t* data, std::size_t size) {
  // The reader views its bytes (tensors included): give it an aligned copy.
  auto buf = try_allocate_aligned(size);
  if (!buf) return 0;
  std::memcpy(buf.get(), data, size);
  std::span<const std::byte> bytes(static_cast<const std::byte*>(buf.get()), size);
  auto m = catch_allocation_failure([&] { return graph::compact::read(bytes, buf, fuzz_registry::table()); },
                                    [] { return std::string(); });
  if (!m.ok()) return 0;
  auto s = basic_session<fuzz_registry>::open(std::move(m).value(), options());
  if (s.ok()) run_once(**s);
  return 0;
}

}  // namespace onyx::fuzz
