// onyx/core/value_type.hpp: what inference knows about one value. Its own
// header because attributes carry one too (a TYPE_PROTO attribute such as
// Optional's `type`), and op.hpp includes attribute.hpp.
#pragma once

#include "onyx/core/dtype.hpp"
#include "onyx/core/shape.hpp"
#include "onyx/core/value.hpp"

namespace onyx {

struct value_type {
  value_kind kind = value_kind::tensor;
  dtype type = dtype::undefined;  // element type (of the tensors inside, for sequences)
  sym_shape shape = sym_shape::unknown_rank();
  bool optional = false;
};

}  // namespace onyx
