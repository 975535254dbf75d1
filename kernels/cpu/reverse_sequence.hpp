// kernel<ops::ReverseSequence, cpu>: rows of `inner` contiguous elements
// (the dims after the first two) copied from their reversed time index;
// per element width.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/reverse_sequence.hpp"

namespace onyx {

namespace kernels::cpu {

template <class E> status reverse_sequence(const call<ops::ReverseSequence>& c) {
  const tensor& x = c.input(0);
  const tensor& lens = c.input(1);
  const bool time_first = c.attrs().time_axis == 0;
  const std::int64_t batch = x.dim(time_first ? 1 : 0), steps = x.dim(time_first ? 0 : 1);
  const std::int64_t inner = x.dim(0) * x.dim(1) == 0 ? 0 : x.size() / (x.dim(0) * x.dim(1));
  if (lens.size() != batch)
    return status(errc::invalid_argument, "sequence_lens has " + std::to_string(lens.size()) + " entries for batch " +
                                              std::to_string(batch));
  const std::int64_t* len = lens.data<std::int64_t>();
  for (std::int64_t b = 0; b < batch; ++b)
    if (len[b] < 0 || len[b] > steps)
      return status(errc::out_of_range, "sequence_lens[" + std::to_string(b) + "] = " + std::to_string(len[b]) +
                                            " is outside [0, " + std::to_string(steps) + "]");
  const E* xs = x.data<E>();
  E* ys = c.output(0).data<E>();
  auto row = [&](std::int64_t b, std::int64_t t) { return (time_first ? t * batch + b : b * steps + t) * inner; };
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t t = 0; t < steps; ++t) copy_n(xs + row(b, t < len[b] ? len[b] - 1 - t : t), inner, ys + row(b, t));
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::ReverseSequence, cpu> {
  static constexpr std::array types{ops::ReverseSequence::T};
  template <ops::signature S> static status run(const call<ops::ReverseSequence>& c) {
    return kernels::cpu::reverse_sequence<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
