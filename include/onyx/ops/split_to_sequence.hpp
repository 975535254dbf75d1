// ops::SplitToSequence: `input` split along `axis` into a sequence: by the
// lengths in a 1-D `split`, into chunks of a scalar `split` (the last may be
// shorter), or, without `split`, into slices of length 1 (squeezed unless
// keepdims). Opsets 11-latest. Any fixed-width type or string.
// Tested by the conformance tests test_split_to_sequence_*.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct SplitToSequence {
  static constexpr std::string_view domain = "", name = "SplitToSequence";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{1, 2}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::int64_t axis = 0;
    std::int64_t keepdims = 1;
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"keepdims", &attributes::keepdims}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (c.has_input(1)) ONYX_TRY(require_type(c, 1, dtypes::indices, "I"));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, detail::sequence_of(c.input_type(0)));
      return ok();
    }
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, x.rank()));
    std::vector<dim> d = x.dims;
    if (!c.has_input(1) && !a.keepdims) d.erase(d.begin() + axis);
    else d[axis] = c.has_input(1) ? dim::unknown() : dim(1);
    c.set_output(0, detail::sequence_of(c.input_type(0), sym_shape(std::move(d))));
    return ok();
  }
};

}  // namespace onyx::ops
