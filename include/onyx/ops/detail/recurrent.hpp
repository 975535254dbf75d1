// onyx/ops/detail/recurrent.hpp: what RNN, GRU and LSTM share: the shape
// rules of X, W, R, B, sequence_lens, initial states and the outputs, the
// common attributes and the base that declares each op in one line.
#pragma once

#include "onyx/ops/op.hpp"
#include "onyx/ops/op_name.hpp"

namespace onyx::ops::detail {

inline result<int> recurrent_directions(const std::string& direction) {
  if (direction == "forward" || direction == "reverse") return 1;
  if (direction == "bidirectional") return 2;
  return status(errc::invalid_graph, "direction must be forward, reverse or bidirectional, got '" + direction + "'");
}

/// Validates inputs 0-5 and sets Y, Y_h (and Y_c for LSTM, `states` = 2).
/// `gates` is the number of weight blocks per direction (RNN 1, GRU 3, LSTM 4).
inline status infer_recurrent(infer_context& c, dtype_set T, int gates, std::optional<std::int64_t> hidden_size,
                              const std::string& direction, std::int64_t layout, int states) {
  for (int i = 0; i < 3; ++i) ONYX_TRY(require_type(c, i, T, "T"));
  for (int i : {1, 2, 3, 5, 6, 7})
    if (i < c.input_count() && c.has_input(i) && i != 4 && c.input_type(i) != c.input_type(0))
      return c.fail("input " + std::to_string(i) + " has type " + std::string(onyx::name(c.input_type(i))) +
                    " but X has " + std::string(onyx::name(c.input_type(0))));
  if (c.input_count() > 4 && c.has_input(4) && c.input_type(4) != dtype::int32)
    return c.fail("sequence_lens must be int32, got " + std::string(onyx::name(c.input_type(4))));
  if (layout != 0 && layout != 1) return c.fail("layout must be 0 or 1, got " + std::to_string(layout));
  ONYX_ASSIGN(int dirs, recurrent_directions(direction));
  const sym_shape &x = c.input_shape(0), &w = c.input_shape(1), &r = c.input_shape(2);
  if (x.rank_known && x.rank() != 3) return c.fail("X must be 3D, got " + x.str());
  if (w.rank_known && w.rank() != 3) return c.fail("W must be 3D, got " + w.str());
  if (r.rank_known && r.rank() != 3) return c.fail("R must be 3D, got " + r.str());
  dim h = hidden_size ? dim(*hidden_size) : r.rank_known ? r[2] : dim::unknown();
  if (w.rank_known && w[0].known() && w[0].value() != dirs)
    return c.fail("W has " + w[0].str() + " directions, direction '" + direction + "' needs " + std::to_string(dirs));
  if (w.rank_known && w[1].known() && h.known() && w[1].value() != gates * h.value())
    return c.fail("W " + w.str() + " must have " + std::to_string(gates) + " * hidden_size rows");
  const dtype t = c.input_type(0);
  if (!x.rank_known) {
    for (int i = 0; i < c.output_count(); ++i) c.set_output(i, t, sym_shape::unknown_rank());
    return ok();
  }
  const dim seq = layout ? x[1] : x[0], batch = layout ? x[0] : x[1];
  c.set_output(0, t, layout ? sym_shape({batch, seq, dim(dirs), h}) : sym_shape({seq, dim(dirs), batch, h}));
  for (int i = 1; i <= states && i < c.output_count(); ++i)
    c.set_output(i, t, layout ? sym_shape({batch, dim(dirs), h}) : sym_shape({dim(dirs), batch, h}));
  return ok();
}

/// The attributes RNN, GRU and LSTM share; each op's attributes add their
/// default `activations` and own flags, and list their fields with recurrent_fields.
struct recurrent_attributes {
  std::vector<float> activation_alpha, activation_beta;
  std::optional<float> clip;
  std::string direction = "forward";
  std::optional<std::int64_t> hidden_size;
  std::int64_t layout = 0;
};

/// The field table of A (a recurrent_attributes with `activations`), then `extra`.
template <class A, class... Extra>
constexpr auto recurrent_fields(Extra... extra) {
  return std::tuple{field{"activation_alpha", &A::activation_alpha},
                    field{"activation_beta", &A::activation_beta},
                    field{"activations", &A::activations},
                    field{"clip", &A::clip},
                    field{"direction", &A::direction},
                    field{"hidden_size", &A::hidden_size},
                    field{"layout", &A::layout},
                    extra...};
}

/// RNN, GRU, LSTM of opsets 7-latest: `Gates` weight blocks per direction;
/// outputs Y and Outputs.max - 1 states (Y_h, and Y_c for LSTM).
template <op_name Name, int Gates, arity Inputs, arity Outputs, class Attributes>
struct recurrent_op {
  static constexpr std::string_view domain = "", name = Name.view();
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs = Inputs, outputs = Outputs;
  static constexpr dtype_set T = dtypes::floats;
  static constexpr dtype_set T1 = dtypes::i32;
  using attributes = Attributes;
  static status infer(const attributes& a, infer_context& c) {
    return infer_recurrent(c, T, Gates, a.hidden_size, a.direction, a.layout, Outputs.max - 1);
  }
};

}  // namespace onyx::ops::detail
