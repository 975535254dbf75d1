// kernel<ops::Dropout, cpu>: at inference (training_mode false or absent, or
// ratio 0) output = data (a copy, or nothing when planned in place) and the
// optional mask is all true. In training mode each element draws u uniform
// in [0, 1) from the call's generator (kernels/cpu/random_generator.hpp) and
// is kept, times 1 / (1 - ratio), where u >= ratio (as ONNX's reference
// does), else zeroed; the mask records which were kept.
#pragma once

#include <algorithm>
#include <string>

#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/random_generator.hpp"
#include "onyx/ops/dropout.hpp"

namespace onyx {

template <> struct kernel<ops::Dropout, cpu> {
  static constexpr std::array types{ops::Dropout::T};
  template <ops::signature S> static status run(const call<ops::Dropout>& c) {
    const bool training = c.has_input(2) && c.input(2).size() == 1 && c.input(2).data<bool>()[0];
    double ratio = 0.5;  // the spec's default when the input is omitted
    if (c.has_input(1)) {
      const tensor& r = c.input(1);
      if (r.size() != 1) return status(errc::invalid_argument, "ratio must hold one element");
      switch (r.type()) {
        case dtype::float64: ratio = r.data<double>()[0]; break;
        case dtype::float32: ratio = r.data<float>()[0]; break;
        case dtype::float16: ratio = to_float(r.data<float16_t>()[0]); break;
        default: ratio = to_float(r.data<bfloat16_t>()[0]); break;
      }
    }
    if (!training || ratio == 0) {
      kernels::cpu::copy_elements(c.input(0), c.output(0));
      if (c.has_output(1)) {
        tensor& mask = c.output(1);
        std::fill_n(mask.data<bool>(), mask.size(), true);
      }
      return ok();
    }
    if (!(ratio > 0 && ratio < 1))
      return status(errc::invalid_argument, "training_mode = true needs a ratio in [0, 1), got " + std::to_string(ratio));
    using T = storage_t<S[0]>;
    const tensor& x = c.input(0);
    tensor& y = c.output(0);
    bool* mask = c.has_output(1) ? c.output(1).data<bool>() : nullptr;
    auto g = kernels::cpu::random_generator(c.attrs().seed ? std::optional<std::uint64_t>(*c.attrs().seed)
                                                           : std::nullopt);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double scale = 1.0 / (1.0 - ratio);
    const T* xd = x.data<T>();
    T* yd = y.data<T>();
    for (std::int64_t i = 0; i < x.size(); ++i) {
      const bool keep = u(g) >= ratio;
      yd[i] = store<T>(keep ? static_cast<double>(load(xd[i])) * scale : 0.0);
      if (mask) mask[i] = keep;
    }
    return ok();
  }
};

}  // namespace onyx
