// onyx/ops/detail/quantized.hpp: inference shared by the integer and
// quantized MatMul/Conv variants. They have MatMul's and Conv's shape rules
// but other input and output types, so `retyped_context` presents chosen
// inputs of the node to MatMul::infer / conv_infer as float32 and gives the
// output the variant's type.
#pragma once

#include <vector>

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

class retyped_context final : public infer_context {
 public:
  /// `inputs[i]`: the node input shown as input i (-1: absent).
  retyped_context(infer_context& c, std::vector<int> inputs, dtype out) : c_(c), inputs_(std::move(inputs)), out_(out) {
    for (int i : inputs_) {
      value_type t = i >= 0 && i < c.input_count() && c.has_input(i) ? c.input(i) : value_type{};
      t.type = dtype::float32;
      types_.push_back(t);
    }
  }
  int input_count() const override { return static_cast<int>(inputs_.size()); }
  int output_count() const override { return 1; }
  bool has_input(int i) const override {
    return i < input_count() && inputs_[i] >= 0 && inputs_[i] < c_.input_count() && c_.has_input(inputs_[i]);
  }
  const value_type& input(int i) const override { return types_[i]; }
  const tensor* input_value(int) const override { return nullptr; }
  void set_output(int i, value_type t) override {
    t.type = out_;
    c_.set_output(i, std::move(t));
  }
  void set_output_value(int, tensor) override {}
  const std::string& node_name() const override { return c_.node_name(); }
  body_interface interface_of(const graph::graph& body) const override { return c_.interface_of(body); }

 private:
  infer_context& c_;
  std::vector<int> inputs_;
  std::vector<value_type> types_;
  dtype out_;
};

/// Input i is absent, a scalar, a [1], or a vector of `n` (per row/column/channel).
inline status require_scalar_or_vector(const infer_context& c, int i, const dim& n, std::string_view what) {
  if (i >= c.input_count() || !c.has_input(i)) return ok();
  const sym_shape& s = c.input_shape(i);
  if (!s.rank_known) return ok();
  bool fits = s.rank() == 0 || (s.rank() == 1 && (!s[0].known() || s[0].value() == 1 || !n.known() ||
                                                  s[0].value() == n.value()));
  if (!fits)
    return c.fail(std::string(what) + " of shape " + s.str() + " is neither a scalar nor a vector of " + n.str());
  return ok();
}

}  // namespace onyx::ops::detail
