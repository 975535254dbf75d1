// kernel<ops::Scan, cpu>: slices the scan inputs one step at a time (copies:
// the body's inputs must be contiguous), runs the body and stacks its
// per-step outputs. kernel<ops::Scan_v8, cpu>: the same per batch entry, for
// its own sequence length, the results stacked along the batch axis.
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

template <> struct kernel<ops::Scan_v8, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::Scan_v8>& c) {
    using kernels::cpu::slice_along;
    using kernels::cpu::stack_along;
    const auto& a = c.attrs();
    const auto& body = *a.body;
    const int m = static_cast<int>(a.num_scan_inputs), n = c.input_count() - 1 - m, k = c.output_count() - n;
    const tensor& first = c.input(1 + n);
    if (first.rank() < 2)
      return status(errc::invalid_argument, "scan input 0 has shape " + to_string(first.shape()) +
                                                ", expected [batch, sequence, ...]");
    const std::int64_t batch = first.dim(0), max_len = first.dim(1);
    for (int j = 0; j < n + m; ++j) {
      const tensor& x = c.input(1 + j);
      if (x.rank() < (j < n ? 1u : 2u) || x.dim(0) != batch || (j >= n && x.dim(1) != max_len))
        return status(errc::invalid_argument, "input " + std::to_string(1 + j) + " has shape " + to_string(x.shape()) +
                                                  ", expected batch " + std::to_string(batch) +
                                                  (j >= n ? " and sequence length " + std::to_string(max_len) : ""));
    }
    std::vector<std::int64_t> lens(static_cast<std::size_t>(batch), max_len);
    if (c.has_input(0)) {
      const tensor& l = c.input(0);
      if (l.size() != batch)
        return status(errc::invalid_argument, "sequence_lens has " + std::to_string(l.size()) + " entries, batch is " +
                                                  std::to_string(batch));
      for (std::int64_t b = 0; b < batch; ++b) {
        lens[b] = l.data<std::int64_t>()[b];
        if (lens[b] < 0 || lens[b] > max_len)
          return status(errc::out_of_range, "sequence_lens[" + std::to_string(b) + "] = " + std::to_string(lens[b]) +
                                                " is outside [0, " + std::to_string(max_len) + "]");
      }
    }
    // Per output: one tensor per batch entry (final state, or stacked steps).
    std::vector<std::vector<tensor>> per_entry(static_cast<std::size_t>(n + k));
    std::vector<value> ins(static_cast<std::size_t>(n + m)), outs;
    std::vector<tensor> xs(static_cast<std::size_t>(m));
    for (std::int64_t b = 0; b < batch; ++b) {
      for (int j = 0; j < n; ++j) ins[j] = slice_along(c.input(1 + j), 0, b);
      for (int j = 0; j < m; ++j) xs[j] = slice_along(c.input(1 + n + j), 0, b);
      std::vector<std::vector<tensor>> steps(static_cast<std::size_t>(k));
      for (std::int64_t t = 0; t < lens[b]; ++t) {
        for (int j = 0; j < m; ++j) {
          bool reverse = !a.directions.empty() && a.directions[j] == 1;
          ins[n + j] = slice_along(xs[j], 0, reverse ? lens[b] - 1 - t : t);
        }
        ONYX_TRY(c.context().run_subgraph(0, ins, outs));
        if (static_cast<int>(outs.size()) != n + k)
          return status(errc::invalid_argument, "the body returned " + std::to_string(outs.size()) +
                                                    " values, expected " + std::to_string(n + k));
        for (int j = 0; j < n + k; ++j)
          if (!outs[j].is_tensor())
            return status(errc::invalid_argument, "body output " + std::to_string(j) + " is not a tensor");
        for (int j = 0; j < n; ++j) ins[j] = std::move(outs[j]);
        for (int s = 0; s < k; ++s) {
          tensor v = outs[n + s].as_tensor();
          steps[s].push_back(v.owns() ? v : v.clone());
        }
      }
      for (int j = 0; j < n; ++j) per_entry[j].push_back(ins[j].as_tensor());
      for (int s = 0; s < k; ++s) {
        const auto& decl = body.values[body.outputs[n + s]].type;
        extents elem = steps[s].empty() ? decl.shape.concrete_extents().value_or(extents{}) : steps[s][0].shape();
        ONYX_ASSIGN(tensor v, stack_along(steps[s], 0, false, steps[s].empty() ? decl.type : steps[s][0].type(), elem));
        per_entry[n + s].push_back(std::move(v));
      }
    }
    for (int j = 0; j < n + k; ++j) {
      if (!c.has_output(j)) continue;
      auto& parts = per_entry[j];
      const auto& decl = body.values[body.outputs[j]].type;
      // The shape of one entry: a state's, or a scan output's steps (an entry
      // that ran no step has the declared one).
      const tensor* ref = nullptr;
      for (const auto& p : parts)
        if (j < n || p.dim(0) > 0) {
          ref = &p;
          break;
        }
      const dtype t = ref ? ref->type() : decl.type;
      extents elem = ref ? ref->shape() : decl.shape.concrete_extents().value_or(extents{});
      if (j >= n) {
        // Entries shorter than max_len are zero-padded to [max_len, ...].
        if (ref) elem[0] = max_len;
        else elem.insert(elem.begin(), max_len);
        for (auto& p : parts) {
          if (p.rank() > 0 && p.dim(0) == max_len) continue;
          tensor padded = tensor::zeros(t, elem);
          kernels::cpu::copy_elements(t, p.raw(), 0, padded.raw(), 0, p.size());
          p = std::move(padded);
        }
      }
      ONYX_ASSIGN(tensor v, stack_along(parts, 0, false, t, elem));
      ONYX_TRY(kernels::cpu::set_output_value(c, j, std::move(v)));
    }
    return ok();
  }
};

}  // namespace onyx
