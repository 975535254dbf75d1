// ops::SequenceMap: runs `body` once per element of `input_sequence`. Body
// inputs: that element, then each additional input (its element at the same
// position when it is a sequence, which must then be as long; the tensor
// itself otherwise). Each body output is collected into one output sequence.
// Opsets 17-latest. Tensors of any type in the sequences.
// Tested by the conformance node tests test_sequence_map_*.
#pragma once

#include "onyx/ops/control.hpp"
#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct SequenceMap {
  static constexpr std::string_view domain = "", name = "SequenceMap";
  static constexpr int since = 17, until = latest;
  static constexpr arity inputs{1, variadic}, outputs{1, variadic};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::shared_ptr<const graph::graph> body;
    static constexpr auto fields = std::tuple{field{"body", &attributes::body, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (c.input(0).kind != value_kind::sequence) return c.fail("input_sequence must be a sequence");
    const auto n = static_cast<std::size_t>(c.input_count()), m = static_cast<std::size_t>(c.output_count());
    ONYX_TRY(detail::check_body(c, a.body, "body", n, m, true));
    std::vector<value_type> ins;
    for (int i = 0; i < c.input_count(); ++i) {
      value_type t = c.input(i);
      if (t.kind == value_kind::sequence) t.kind = value_kind::tensor;  // its elements; shape: the element shape
      t.optional = false;
      ins.push_back(std::move(t));
    }
    ONYX_ASSIGN(auto outs, detail::infer_body(c, *a.body, ins));
    for (std::size_t k = 0; k < m; ++k) {
      if (outs[k].kind != value_kind::tensor)
        return c.fail("body output " + std::to_string(k) + " must be a tensor");
      c.set_output(static_cast<int>(k), detail::sequence_of(outs[k].type, std::move(outs[k].shape)));
    }
    return ok();
  }
};

}  // namespace onyx::ops
