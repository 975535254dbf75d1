// ops::SequenceEmpty: an empty sequence of element type `dtype` (default
// float). Opsets 11-latest. Tested by the ONNX backend tests listed in
// test/conformance/pass_list.txt.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct SequenceEmpty {
  static constexpr std::string_view domain = "", name = "SequenceEmpty";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{0, 0}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::int64_t dtype = static_cast<std::int64_t>(onyx::dtype::float32);
    static constexpr auto fields = std::tuple{field{"dtype", &attributes::dtype}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (!is_valid(static_cast<int>(a.dtype))) return c.fail("dtype " + std::to_string(a.dtype) + " is not an ONNX type");
    c.set_output(0, detail::sequence_of(static_cast<onyx::dtype>(a.dtype)));
    return ok();
  }
};

}  // namespace onyx::ops
