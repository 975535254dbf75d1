// ops::SequenceConstruct: a sequence of its input tensors (all of one type).
// Opsets 11-latest. Tested by the conformance tests that use sequences.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct SequenceConstruct {
  static constexpr std::string_view domain = "", name = "SequenceConstruct";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{1, variadic}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    sym_shape elem = c.input_shape(0);
    for (int i = 1; i < c.input_count(); ++i) {
      if (c.input_type(i) != c.input_type(0))
        return c.fail("input " + std::to_string(i) + " is " + std::string(onyx::name(c.input_type(i))) +
                      " but input 0 is " + std::string(onyx::name(c.input_type(0))));
      const sym_shape& s = c.input_shape(i);
      if (!elem.rank_known || !s.rank_known || s.rank() != elem.rank()) {
        elem = sym_shape::unknown_rank();
        continue;
      }
      for (std::size_t d = 0; d < s.rank(); ++d)
        if (!(elem[d] == s[d])) elem[d] = dim::unknown();
    }
    c.set_output(0, detail::sequence_of(c.input_type(0), std::move(elem)));
    return ok();
  }
};

}  // namespace onyx::ops
