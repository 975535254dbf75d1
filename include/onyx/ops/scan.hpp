// ops::Scan: runs `body` once per slice of the M scan inputs along their
// scan axes, threading N state values through. Body inputs: N states, M
// slices (the scan axis removed); outputs: N states, K per-iteration values.
// Scan's outputs are the final states and the K scan outputs, the
// per-iteration values stacked along scan_output_axes (reversed where
// scan_output_directions says 1). Inputs are read backwards where
// scan_input_directions says 1.
// Opsets 9-latest (11 allowed negative axes; later versions only added
// types). Opset 8's batched form is ops::Scan_v8. Tensors of any fixed-width
// type or string. A body that may make no iteration (scan length 0 or not
// known) and whose inference fails gives unknown shapes and fails only if it
// runs. Tested by the conformance node tests test_scan9_* and
// test/unit/untaken_branch_test.cpp.
#pragma once

#include "onyx/ops/control.hpp"

namespace onyx::ops {

struct Scan {
  static constexpr std::string_view domain = "", name = "Scan";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{1, variadic}, outputs{1, variadic};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::shared_ptr<const graph::graph> body;
    std::int64_t num_scan_inputs = 0;
    std::vector<std::int64_t> scan_input_axes, scan_input_directions, scan_output_axes, scan_output_directions;
    static constexpr auto fields = std::tuple{
        field{"body", &attributes::body, true},
        field{"num_scan_inputs", &attributes::num_scan_inputs, true},
        field{"scan_input_axes", &attributes::scan_input_axes},
        field{"scan_input_directions", &attributes::scan_input_directions},
        field{"scan_output_axes", &attributes::scan_output_axes},
        field{"scan_output_directions", &attributes::scan_output_directions}};
  };

  static status infer(const attributes& a, infer_context& c) {
    const int m = static_cast<int>(a.num_scan_inputs), n = c.input_count() - m, k = c.output_count() - n;
    if (m < 1 || n < 0) return c.fail("num_scan_inputs must be in [1, " + std::to_string(c.input_count()) + "]");
    if (k < 0) return c.fail("Scan has " + std::to_string(n) + " states but only " + std::to_string(c.output_count()) +
                             " outputs");
    ONYX_TRY(detail::check_body(c, a.body, "body", n + m, n + k, true));
    auto check_len = [&](const std::vector<std::int64_t>& v, int want, std::string_view what) -> status {
      if (!v.empty() && static_cast<int>(v.size()) != want)
        return c.fail(std::string(what) + " has " + std::to_string(v.size()) + " entries, expected " +
                      std::to_string(want));
      return ok();
    };
    ONYX_TRY(check_len(a.scan_input_axes, m, "scan_input_axes"));
    ONYX_TRY(check_len(a.scan_input_directions, m, "scan_input_directions"));
    ONYX_TRY(check_len(a.scan_output_axes, k, "scan_output_axes"));
    ONYX_TRY(check_len(a.scan_output_directions, k, "scan_output_directions"));
    // The iteration count: the scan axis length of the scan inputs. Body
    // inputs: the states, then one slice of each scan input.
    dim steps = dim::unknown();
    std::vector<value_type> ins;
    for (int j = 0; j < n; ++j) ins.push_back(c.input(j));
    for (int j = 0; j < m; ++j) {
      value_type slice = c.input(n + j);
      sym_shape& s = slice.shape;
      if (s.rank_known) {
        ONYX_ASSIGN(int ax, normalize_axis(a.scan_input_axes.empty() ? 0 : a.scan_input_axes[j], s.rank(),
                                           "scan_input_axes entry"));
        if (s[ax].known() && steps.known() && s[ax].value() != steps.value())
          return c.fail("scan inputs have different lengths along their scan axes: " + steps.str() + " and " +
                        s[ax].str());
        if (!steps.known()) steps = s[ax];
        s.dims.erase(s.dims.begin() + ax);
      }
      ins.push_back(std::move(slice));
    }
    // A body that may make no iteration (scan length 0 or not known) and
    // whose inference fails gives unknown shapes; it fails only if it runs.
    auto inferred = detail::infer_loop_body(c, *a.body, ins, 0, 0, static_cast<std::size_t>(n));
    if (!inferred.ok() && steps.known() && steps.value() > 0) return std::move(inferred).error();
    std::vector<value_type> outs = inferred.ok() ? std::move(inferred).value() : detail::unknown_shapes(c, *a.body);
    for (int j = 0; j < n; ++j) {
      value_type t = std::move(outs[j]);
      if (steps.known() && steps.value() == 0) t = c.input(j);  // no iteration: the initial states
      if (t.type == dtype::undefined) t.type = c.input_type(j);
      c.set_output(j, std::move(t));
    }
    for (int s = 0; s < k; ++s) {
      value_type t = std::move(outs[n + s]);
      if (t.kind != value_kind::tensor) return c.fail("scan output " + std::to_string(s) + " must be a tensor");
      if (t.type == dtype::undefined && !inferred.ok()) return std::move(inferred).error();  // nothing declared
      if (t.shape.rank_known) {
        ONYX_ASSIGN(int ax, normalize_axis(a.scan_output_axes.empty() ? 0 : a.scan_output_axes[s],
                                           t.shape.rank() + 1, "scan_output_axes entry"));
        t.shape.dims.insert(t.shape.dims.begin() + ax, steps);
      }
      c.set_output(n + s, std::move(t));
    }
    return ok();
  }
};

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
struct Scan_v8 {
  static constexpr std::string_view domain = "", name = "Scan";
  static constexpr int since = 8, until = 8;
  static constexpr arity inputs{2, variadic, positions(0)}, outputs{1, variadic};
  static constexpr dtype_set I = dtypes::i64;
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::shared_ptr<const graph::graph> body;
    std::int64_t num_scan_inputs = 0;
    std::vector<std::int64_t> directions;
    static constexpr auto fields =
        std::tuple{field{"body", &attributes::body, true}, field{"num_scan_inputs", &attributes::num_scan_inputs, true},
                   field{"directions", &attributes::directions}};
  };

  static status infer(const attributes& a, infer_context& c) {
    const int m = static_cast<int>(a.num_scan_inputs), n = c.input_count() - 1 - m, k = c.output_count() - n;
    if (m < 1 || n < 0) return c.fail("num_scan_inputs must be in [1, " + std::to_string(c.input_count() - 1) + "]");
    if (k < 0)
      return c.fail("Scan has " + std::to_string(n) + " states but only " + std::to_string(c.output_count()) +
                    " outputs");
    if (c.has_input(0)) ONYX_TRY(require_type(c, 0, I, "I"));
    if (!a.directions.empty() && static_cast<int>(a.directions.size()) != m)
      return c.fail("directions has " + std::to_string(a.directions.size()) + " entries, expected " +
                    std::to_string(m));
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
          return c.fail("input " + std::to_string(1 + j) + " has shape " + t.shape.str() +
                        ", expected rank >= " + std::to_string(drop));
        if (!batch.known()) batch = t.shape[0];
        if (j >= n && !steps.known()) steps = t.shape[1];
        t.shape.dims.erase(t.shape.dims.begin(), t.shape.dims.begin() + static_cast<std::ptrdiff_t>(drop));
      }
      ins.push_back(std::move(t));
    }
    // As Scan: a body that may make no iteration fails only if it runs.
    auto inferred = detail::infer_loop_body(c, *a.body, ins, 0, 0, static_cast<std::size_t>(n));
    const bool iterates = steps.known() && steps.value() > 0 && batch.known() && batch.value() > 0;
    if (!inferred.ok() && iterates) return std::move(inferred).error();
    std::vector<value_type> outs = inferred.ok() ? std::move(inferred).value() : detail::unknown_shapes(c, *a.body);
    for (int j = 0; j < n + k; ++j) {
      value_type t = std::move(outs[j]);
      if (t.type == dtype::undefined && !inferred.ok() && j >= n) return std::move(inferred).error();
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
