// kernel<ops::Scan, cpu>: slices the scan inputs one step at a time (copies:
// the body's inputs must be contiguous), runs the body and stacks its
// per-step outputs.
#pragma once

#include "kernels/cpu/control.hpp"
#include "onyx/ops/scan.hpp"

namespace onyx {

template <> struct kernel<ops::Scan, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::Scan>& c) {
    using kernels::cpu::set_output_value;
    const auto& a = c.attrs();
    const int m = static_cast<int>(a.num_scan_inputs), n = c.input_count() - m, k = c.output_count() - n;
    std::vector<int> in_axes(static_cast<std::size_t>(m));
    std::int64_t steps = -1;
    for (int j = 0; j < m; ++j) {
      const tensor& x = c.input(n + j);
      ONYX_ASSIGN(in_axes[j], ops::normalize_axis(a.scan_input_axes.empty() ? 0 : a.scan_input_axes[j], x.rank(),
                                                  "scan_input_axes entry"));
      std::int64_t len = x.dim(in_axes[j]);
      if (steps >= 0 && len != steps)
        return status(errc::invalid_argument, "scan input " + std::to_string(j) + " has " + std::to_string(len) +
                                                  " steps along its scan axis, earlier ones " + std::to_string(steps));
      steps = len;
    }
    std::vector<value> ins(static_cast<std::size_t>(n + m)), outs;
    for (int j = 0; j < n; ++j) ins[j] = c.input_value(j);
    std::vector<std::vector<tensor>> scans(static_cast<std::size_t>(k));
    for (std::int64_t t = 0; t < steps; ++t) {
      for (int j = 0; j < m; ++j) {
        bool reverse = !a.scan_input_directions.empty() && a.scan_input_directions[j] == 1;
        ins[n + j] = kernels::cpu::slice_along(c.input(n + j), in_axes[j], reverse ? steps - 1 - t : t);
      }
      ONYX_TRY(c.context().run_subgraph(0, ins, outs));
      if (static_cast<int>(outs.size()) != n + k)
        return status(errc::invalid_argument, "the body returned " + std::to_string(outs.size()) + " values, expected " +
                                                  std::to_string(n + k));
      for (int j = 0; j < n; ++j) ins[j] = std::move(outs[j]);
      for (int s = 0; s < k; ++s) {
        if (!outs[n + s].is_tensor())
          return status(errc::invalid_argument, "scan output " + std::to_string(s) + " is not a tensor");
        tensor v = outs[n + s].as_tensor();
        scans[s].push_back(v.owns() ? v : v.clone());
      }
    }
    for (int j = 0; j < n; ++j) ONYX_TRY(set_output_value(c, j, std::move(ins[j])));
    for (int s = 0; s < k; ++s) {
      if (!c.has_output(n + s)) continue;
      const auto& decl = a.body->values[a.body->outputs[n + s]].type;
      extents elem = scans[s].empty() ? decl.shape.concrete_extents().value_or(extents{}) : scans[s][0].shape();
      ONYX_ASSIGN(int axis, ops::normalize_axis(a.scan_output_axes.empty() ? 0 : a.scan_output_axes[s],
                                                elem.size() + 1, "scan_output_axes entry"));
      bool reverse = !a.scan_output_directions.empty() && a.scan_output_directions[s] == 1;
      ONYX_ASSIGN(tensor v, kernels::cpu::stack_along(scans[s], axis, reverse,
                                                      scans[s].empty() ? decl.type : scans[s][0].type(), elem));
      ONYX_TRY(set_output_value(c, n + s, std::move(v)));
    }
    return ok();
  }
};

}  // namespace onyx
