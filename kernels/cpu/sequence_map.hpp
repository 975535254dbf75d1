// kernel<ops::SequenceMap, cpu>: runs the body per position and collects its
// outputs into sequences.
#pragma once

#include "kernels/cpu/control.hpp"
#include "onyx/ops/sequence_map.hpp"

namespace onyx {

template <> struct kernel<ops::SequenceMap, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::SequenceMap>& c) {
    const int n = c.input_count(), m = c.output_count();
    std::vector<const sequence*> seqs(static_cast<std::size_t>(n), nullptr);
    for (int j = 0; j < n; ++j)
      if (c.in_[j] && c.in_[j]->is_sequence()) seqs[j] = &c.in_[j]->as_sequence();
    if (!seqs[0]) return status(errc::invalid_argument, "input_sequence is not a sequence");
    const std::size_t len = seqs[0]->items.size();
    for (int j = 1; j < n; ++j)
      if (seqs[j] && seqs[j]->items.size() != len)
        return status(errc::invalid_argument, "input " + std::to_string(j) + " is a sequence of " +
                                                  std::to_string(seqs[j]->items.size()) + " tensors, input_sequence of " +
                                                  std::to_string(len));
    const auto& body = *c.attrs().body;
    std::vector<sequence> results(static_cast<std::size_t>(m));
    for (int k = 0; k < m; ++k) results[k].elem_type = body.values[body.outputs[k]].type.type;
    std::vector<value> ins(static_cast<std::size_t>(n)), outs;
    for (int j = 0; j < n; ++j)
      if (!seqs[j] && c.in_[j]) ins[j] = *c.in_[j];
    for (std::size_t i = 0; i < len; ++i) {
      for (int j = 0; j < n; ++j)
        if (seqs[j]) ins[j] = seqs[j]->items[i];
      ONYX_TRY(c.context().run_subgraph(0, ins, outs));
      if (static_cast<int>(outs.size()) != m)
        return status(errc::invalid_argument, "the body returned " + std::to_string(outs.size()) + " values, expected " +
                                                  std::to_string(m));
      for (int k = 0; k < m; ++k) {
        if (!outs[k].is_tensor())
          return status(errc::invalid_argument, "body output " + std::to_string(k) + " is not a tensor");
        tensor t = outs[k].as_tensor();
        results[k].elem_type = t.type();
        results[k].items.emplace_back(t.owns() ? t : t.clone());
      }
    }
    for (int k = 0; k < m; ++k)
      if (c.has_output(k)) c.output_value(k) = std::move(results[k]);
    return ok();
  }
};

}  // namespace onyx
