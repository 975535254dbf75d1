// ops::Scan_v8: Scan's batched form (opset 8). Every input has a batch axis
// 0; scan inputs are [batch, sequence, ...] and scanned along axis 1, each
// batch entry separately for its own length (`sequence_lens`, int64 [batch],
// default: the whole sequence; `directions` 1 reads an input backwards
// within that length). Body inputs: N states, M slices, without the batch
// (and sequence) axes; outputs: N states, K per-step values. Scan's outputs:
// the final states [batch, ...] and the K scan outputs [batch, sequence,
// ...], zero past each entry's length. Opset 8 only; it has a kernel of its
// own: Scan (9+) has no batch axis to express it with.
// Tested by the conformance node test test_scan_sum.
#pragma once

#include "onyx/ops/control.hpp"

namespace onyx::ops {

struct Scan_v8 {
  static constexpr std::string_view domain = "", name = "Scan";
  static constexpr int since = 8, until = 8;
  static constexpr arity inputs{2, variadic}, outputs{1, variadic};
  static constexpr dtype_set I = dtypes::i64;
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::shared_ptr<const graph::graph> body;
    std::int64_t num_scan_inputs = 0;
    std::vector<std::int64_t> directions;
    static constexpr auto fields = std::tuple{field{"body", &attributes::body, true},
                                              field{"num_scan_inputs", &attributes::num_scan_inputs, true},
                                              field{"directions", &attributes::directions}};
  };

  static status infer(const attributes& a, infer_context& c) {
    const int m = static_cast<int>(a.num_scan_inputs), n = c.input_count() - 1 - m, k = c.output_count() - n;
    if (m < 1 || n < 0) return c.fail("num_scan_inputs must be in [1, " + std::to_string(c.input_count() - 1) + "]");
    if (k < 0) return c.fail("Scan has " + std::to_string(n) + " states but only " + std::to_string(c.output_count()) +
                             " outputs");
    if (c.has_input(0)) ONYX_TRY(require_type(c, 0, I, "I"));
    if (!a.directions.empty() && static_cast<int>(a.directions.size()) != m)
      return c.fail("directions has " + std::to_string(a.directions.size()) + " entries, expected " + std::to_string(m));
    ONYX_TRY(detail::check_body(c, a.body, "body", n + m, n + k, true));
    // Body inputs: the inputs without their batch axis (and, for scan inputs,
    // their sequence axis).
    dim batch = dim::unknown(), steps = dim::unknown();
    std::vector<value_type> ins;
    for (int j = 0; j < n + m; ++j) {
      value_type t = c.input(1 + j);
      const std::size_t drop = j < n ? 1 : 2;
      if (t.shape.rank_known) {
        if (t.shape.rank() < drop)
          return c.fail("input " + std::to_string(1 + j) + " has shape " + t.shape.str() + ", expected rank >= " +
                        std::to_string(drop));
        if (!batch.known()) batch = t.shape[0];
        if (j >= n && !steps.known()) steps = t.shape[1];
        t.shape.dims.erase(t.shape.dims.begin(), t.shape.dims.begin() + static_cast<std::ptrdiff_t>(drop));
      }
      ins.push_back(std::move(t));
    }
    ONYX_ASSIGN(auto outs, detail::infer_loop_body(c, *a.body, ins, 0, 0, static_cast<std::size_t>(n)));
    for (int j = 0; j < n + k; ++j) {
      value_type t = std::move(outs[j]);
      if (j < n && t.type == dtype::undefined) t.type = c.input_type(1 + j);
      if (j >= n && t.kind != value_kind::tensor)
        return c.fail("scan output " + std::to_string(j - n) + " must be a tensor");
      if (t.shape.rank_known) {
        if (j >= n) t.shape.dims.insert(t.shape.dims.begin(), steps);
        t.shape.dims.insert(t.shape.dims.begin(), batch);
      }
      c.set_output(j, std::move(t));
    }
    return ok();
  }
};

}  // namespace onyx::ops
