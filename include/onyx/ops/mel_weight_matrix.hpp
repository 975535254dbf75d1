// ops::MelWeightMatrix: [dft_length / 2 + 1, num_mel_bins] triangular
// filters with peak 1, evenly spaced on the mel scale mel(f) = 2595
// log10(1 + f / 700) between lower_edge_hertz and upper_edge_hertz; band
// edges are snapped to DFT bins as floor((dft_length + 1) * f /
// sample_rate), as the reference implementation does.
// Opsets 17-latest. Kernel (kernels/cpu/mel_weight_matrix.hpp): any numeric
// output_datatype (computed in double). Tested in test/unit/dft_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct MelWeightMatrix {
  static constexpr std::string_view domain = "", name = "MelWeightMatrix";
  static constexpr int since = 17, until = latest;
  static constexpr arity inputs{5, 5}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::indices, T2 = dtypes::floats, T3 = dtypes::numeric;
  struct attributes {
    std::int64_t output_datatype = 1;
    static constexpr auto fields = std::tuple{field{"output_datatype", &attributes::output_datatype}};
  };
  static status infer(const attributes& a, infer_context& c) {
    for (int i = 0; i < 3; ++i) ONYX_TRY(require_type(c, i, T1, "T1"));
    for (int i = 3; i < 5; ++i) ONYX_TRY(require_type(c, i, T2, "T2"));
    auto t = static_cast<dtype>(a.output_datatype);
    if (!is_valid(static_cast<int>(a.output_datatype)) || !T3.contains(t))
      return c.fail("output_datatype " + std::to_string(a.output_datatype) + " is not a numeric type");
    dim bins = dim::unknown(), mels = dim::unknown();
    if (auto v = c.input_ints(0); v && v->size() == 1) mels = dim((*v)[0]);
    if (auto v = c.input_ints(1); v && v->size() == 1) bins = dim((*v)[0] / 2 + 1);
    c.set_output(0, t, sym_shape({bins, mels}));
    return ok();
  }
};

}  // namespace onyx::ops
