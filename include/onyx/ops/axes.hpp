// onyx/ops/axes.hpp: shape rules shared by the tensor ops (axis lists, dim
// products), so each op's infer states only what is particular to it.
#pragma once

#include <span>
#include <vector>

#include "onyx/ops/op.hpp"

namespace onyx::ops {

/// Normalizes each axis of `axes` to [0, rank) and rejects repeats.
inline result<std::vector<int>> normalize_axes(std::span<const std::int64_t> axes, std::size_t rank,
                                               std::string_view what = "axis") {
  std::vector<int> out;
  for (auto a : axes) {
    ONYX_ASSIGN(int n, normalize_axis(a, rank, what));
    if (std::find(out.begin(), out.end(), n) != out.end())
      return status(errc::invalid_graph, std::string(what) + " " + std::to_string(a) + " is repeated");
    out.push_back(n);
  }
  return out;
}

/// The product of dims [begin, end) of `s`.
inline dim dim_product(const sym_shape& s, std::size_t begin, std::size_t end) {
  dim p = 1;
  for (std::size_t i = begin; i < end; ++i) p = p * s.dims[i];
  return p;
}

/// Inference tracks the dims of shapes up to this rank; past it (a hostile
/// model's Unsqueeze by 10^7 axes of unknown values, say) the rank is left
/// unknown, which is always a sound answer, instead of building 10^7 symbols.
inline constexpr std::size_t max_inferred_rank = 4096;

/// A rank-`r` shape of unknown dims (of unknown rank past max_inferred_rank).
inline sym_shape unknown_dims(std::size_t r) {
  if (r > max_inferred_rank) return sym_shape::unknown_rank();
  std::vector<dim> d;
  for (std::size_t i = 0; i < r; ++i) d.push_back(dim::unknown());
  return sym_shape(std::move(d));
}

/// The length of 1-D input `i` when its shape says it (for shape-valued inputs).
inline std::optional<std::int64_t> known_length(const infer_context& c, int i) {
  const sym_shape& s = c.input_shape(i);
  if (!s.rank_known || s.rank() != 1 || !s.dims[0].known()) return std::nullopt;
  return s.dims[0].value();
}

/// An int64 vector as a 1-D int64 tensor (axes and shapes built by `expand`).
inline tensor int64_tensor(const std::vector<std::int64_t>& v) {
  return tensor::from(v, {static_cast<std::int64_t>(v.size())});
}

}  // namespace onyx::ops
