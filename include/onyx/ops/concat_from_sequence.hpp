// ops::ConcatFromSequence: the sequence's tensors concatenated along `axis`,
// or stacked along a new axis there when new_axis = 1 (axis may then be
// rank, i.e. -rank-1..rank). Opsets 11-latest. Any fixed-width type or
// string. Tested by the conformance tests that use sequences.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct ConcatFromSequence {
  static constexpr std::string_view domain = "", name = "ConcatFromSequence";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::int64_t axis = 0;
    std::int64_t new_axis = 0;
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis, true}, field{"new_axis", &attributes::new_axis}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_ASSIGN(dtype t, detail::require_sequence(c, 0));
    const sym_shape& e = c.input_shape(0);
    if (!e.rank_known) {
      c.set_output(0, t, sym_shape::unknown_rank());
      return ok();
    }
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, e.rank() + (a.new_axis ? 1 : 0)));
    std::vector<dim> d = e.dims;
    if (a.new_axis) d.insert(d.begin() + axis, dim::unknown());
    else d[axis] = dim::unknown();
    c.set_output(0, t, sym_shape(std::move(d)));
    return ok();
  }
};

}  // namespace onyx::ops
