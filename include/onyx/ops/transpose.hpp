// ops::Transpose: output dim i is input dim perm[i] (default: reversed dims).
// Opsets 1-latest (types widened over time). All types; the kernel moves
// elements by width (strings included) with a tiled path for batched 2-D
// transposes. Tested in test/unit/transpose_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Transpose {
  static constexpr std::string_view domain = "", name = "Transpose";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::vector<std::int64_t> perm;  // empty: reverse
    static constexpr auto fields = std::tuple{field{"perm", &attributes::perm}};
  };
  /// The permutation for a rank-`r` input, validated.
  static result<std::vector<int>> permutation(const attributes& a, std::size_t r) {
    if (a.perm.empty()) {
      std::vector<int> p(r);
      for (std::size_t i = 0; i < r; ++i) p[i] = static_cast<int>(r - 1 - i);
      return p;
    }
    if (a.perm.size() != r)
      return status(errc::invalid_graph, "perm has " + std::to_string(a.perm.size()) + " entries for an input of rank " +
                                             std::to_string(r));
    return normalize_axes(a.perm, r, "perm entry");
  }
  static status infer(const attributes& a, infer_context& c) {
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), a.perm.empty() ? sym_shape::unknown_rank() : unknown_dims(a.perm.size()));
      return ok();
    }
    ONYX_ASSIGN(auto p, permutation(a, x.rank()));
    std::vector<dim> out;
    for (int i : p) out.push_back(x.dims[i]);
    c.set_output(0, c.input_type(0), sym_shape(std::move(out)));
    return ok();
  }
};

}  // namespace onyx::ops
