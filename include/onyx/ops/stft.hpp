// ops::STFT: per batch entry, frames of frame_length samples every
// frame_step, multiplied by `window` (default all ones), each transformed by
// a DFT of length frame_length; output [batch, frames, bins, 2] with frames =
// (signal_length - frame_length) / frame_step + 1 and bins = frame_length / 2
// + 1 when onesided (real signals only), else frame_length. frame_length
// defaults to the window's length (or the whole signal).
// Opsets 17-latest. Kernel (kernels/cpu/dft.hpp): float32, float64,
// float16/bfloat16, direct transforms in double.
// Tested in test/unit/dft_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct STFT {
  static constexpr std::string_view domain = "", name = "STFT";
  static constexpr int since = 17, until = latest;
  static constexpr arity inputs{2, 4}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::floats, T2 = dtypes::indices;
  struct attributes {
    std::int64_t onesided = 1;
    static constexpr auto fields = std::tuple{field{"onesided", &attributes::onesided}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    bool has_window = c.input_count() > 2 && c.has_input(2), has_length = c.input_count() > 3 && c.has_input(3);
    if (has_window && c.input_type(2) != c.input_type(0)) return c.fail("window must have the signal's type");
    if (has_length) ONYX_TRY(require_type(c, 3, T2, "T2"));
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && (x.rank() != 3 || (x[2].known() && x[2].value() != 1 && x[2].value() != 2)))
      return c.fail("signal must be [batch, length, 1 or 2], got " + x.str());
    if (a.onesided && x.rank_known && x[2].known() && x[2].value() == 2)
      return c.fail("onesided STFT needs a real signal");
    dim length = dim::unknown();
    if (has_length) {
      if (auto v = c.input_ints(3); v && v->size() == 1) length = dim((*v)[0]);
    } else if (has_window && c.input_shape(2).rank_known && c.input_shape(2).rank() == 1) {
      length = c.input_shape(2)[0];
    } else if (!has_window && x.rank_known) {
      length = x[1];
    }
    dim frames = dim::unknown();
    if (auto step = c.input_ints(1); step && step->size() == 1 && x.rank_known && length.known())
      frames = floordiv(x[1] - length, dim((*step)[0])) + dim(1);
    if (frames.known() && frames.value() < 1)
      return c.fail("frame_length " + length.str() + " exceeds the signal length " + x[1].str());
    dim bins = a.onesided ? floordiv(length, dim(2)) + dim(1) : length;
    c.set_output(0, c.input_type(0), sym_shape({x.rank_known ? x[0] : dim::unknown(), frames, bins, dim(2)}));
    return ok();
  }
};

}  // namespace onyx::ops
