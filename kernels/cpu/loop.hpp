// kernel<ops::Loop, cpu>: iterates the body, threading the carried values
// through and collecting scan outputs, stacked at the end.
#pragma once

#include "kernels/cpu/control.hpp"
#include "onyx/ops/loop.hpp"

namespace onyx {

template <> struct kernel<ops::Loop, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::Loop>& c) {
    using kernels::cpu::set_output_value;
    const int n = c.input_count() - 2, k = c.output_count() - n;
    std::int64_t trips = std::numeric_limits<std::int64_t>::max();
    if (c.has_input(0)) {
      if (c.input(0).size() != 1) return status(errc::invalid_argument, "M must hold one element");
      trips = c.input(0).data<std::int64_t>()[0];
    }
    bool cond = true;
    if (c.has_input(1)) {
      if (c.input(1).size() != 1) return status(errc::invalid_argument, "cond must hold one element");
      cond = c.input(1).data<bool>()[0];
    }
    std::vector<value> ins(static_cast<std::size_t>(2 + n)), outs;
    for (int j = 0; j < n; ++j)
      if (c.in_[2 + j]) ins[2 + j] = c.input_value(2 + j);  // none stays none (an empty optional)
    std::vector<std::vector<tensor>> scans(static_cast<std::size_t>(k));
    for (std::int64_t i = 0; i < trips && cond; ++i) {
      ins[0] = tensor::scalar(i);
      ins[1] = tensor::scalar(cond);
      ONYX_TRY(c.context().run_subgraph(0, ins, outs));
      if (static_cast<int>(outs.size()) != 1 + n + k)
        return status(errc::invalid_argument, "the body returned " + std::to_string(outs.size()) + " values, expected " +
                                                  std::to_string(1 + n + k));
      if (!outs[0].is_tensor() || outs[0].as_tensor().size() != 1 || outs[0].as_tensor().type() != dtype::boolean)
        return status(errc::invalid_argument, "the body's condition output must be one bool");
      cond = outs[0].as_tensor().data<bool>()[0];
      for (int j = 0; j < n; ++j) ins[2 + j] = std::move(outs[1 + j]);
      for (int s = 0; s < k; ++s) {
        if (!outs[1 + n + s].is_tensor())
          return status(errc::invalid_argument, "scan output " + std::to_string(s) + " is not a tensor");
        tensor t = outs[1 + n + s].as_tensor();
        scans[s].push_back(t.owns() ? t : t.clone());
      }
    }
    for (int j = 0; j < n; ++j) ONYX_TRY(set_output_value(c, j, std::move(ins[2 + j])));
    for (int s = 0; s < k; ++s) {
      if (!c.has_output(n + s)) continue;
      // No iteration: an empty stack of the body's declared element shape.
      const auto& body = *c.attrs().body;
      const auto& decl = body.values[body.outputs[1 + n + s]].type;
      extents elem = decl.shape.concrete_extents().value_or(extents{});
      ONYX_ASSIGN(tensor t, kernels::cpu::stack_along(scans[s], 0, false, scans[s].empty() ? decl.type : scans[s][0].type(), elem));
      ONYX_TRY(set_output_value(c, n + s, std::move(t)));
    }
    return ok();
  }
};

}  // namespace onyx
