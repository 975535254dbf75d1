// kernel<ops::If, cpu>: runs the chosen branch and hands its outputs over.
#pragma once

#include "kernels/cpu/control.hpp"
#include "onyx/ops/if.hpp"

namespace onyx {

template <> struct kernel<ops::If, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::If>& c) {
    const tensor& cond = c.input(0);
    if (cond.size() != 1)
      return status(errc::invalid_argument, "cond must hold one element, got shape " + to_string(cond.shape()));
    const auto& branch = cond.data<bool>()[0] ? c.attrs().then_branch : c.attrs().else_branch;
    int index = c.context().subgraph_index(branch.get());
    if (index < 0) return status(errc::internal, "the branch is not among the node's subgraphs");
    std::vector<value> outs;
    ONYX_TRY(c.context().run_subgraph(index, {}, outs));
    if (static_cast<int>(outs.size()) != c.output_count())
      return status(errc::invalid_argument, "the branch returned " + std::to_string(outs.size()) + " values, the node has " +
                                                std::to_string(c.output_count()) + " outputs");
    for (int i = 0; i < c.output_count(); ++i) ONYX_TRY(kernels::cpu::set_output_value(c, i, std::move(outs[i])));
    return ok();
  }
};

}  // namespace onyx
