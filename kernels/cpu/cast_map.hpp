// kernel<ops::CastMap, cpu>: the entries sorted by key, each value cast to
// the output type, written densely or at its key.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/cast_map.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

template <>
struct kernel<ops::CastMap, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature S>
  static status run(const call<ops::CastMap>& c) {
    const auto& a = c.attrs();
    const value& in = c.input_value(0);
    if (!in.is_map()) return status(errc::invalid_argument, "X is not a map");
    const map& m = in.as_map();
    if (m.keys.type() != dtype::int64) return status(errc::invalid_argument, "the map's keys must be int64");
    const auto n = static_cast<std::int64_t>(m.values.size());
    const std::int64_t* keys = m.keys.data<std::int64_t>();
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) { return keys[x] < keys[y]; });
    const bool sparse = a.map_form == "SPARSE";
    const dtype out = a.out_type();
    tensor& y = kernels::cpu::output_sized(c, 0, out, {sparse ? a.max_map : n});
    if (out != dtype::string) std::memset(y.raw(), 0, static_cast<std::size_t>(y.size() * bit_width(out) / 8));
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t e = order[static_cast<std::size_t>(i)];
      const std::int64_t at = sparse ? keys[e] : i;
      if (at < 0 || at >= y.size())
        return status(errc::out_of_range, "key " + std::to_string(keys[e]) +
                                              " is outside [0, max_map = " + std::to_string(a.max_map) + ")");
      const tensor& v = m.values[static_cast<std::size_t>(e)].as_tensor();
      if (v.size() != 1 || (v.type() != dtype::string && v.type() != dtype::float32))
        return status(errc::invalid_argument, "map value " + std::to_string(e) + " is not one string or float");
      const bool from_string = v.type() == dtype::string;
      double num = 0;
      if (from_string && out != dtype::string) {
        const std::string& text = v.data<std::string>()[0];
        char* end = nullptr;
        num = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size())
          return status(errc::invalid_argument, "map value '" + text + "' is not a number");
      } else if (!from_string) {
        num = v.data<float>()[0];
      }
      if (out == dtype::string)
        y.data<std::string>()[at] = from_string ? v.data<std::string>()[0] : std::to_string(v.data<float>()[0]);
      else if (out == dtype::float32)
        y.data<float>()[at] = static_cast<float>(num);
      else
        y.data<std::int64_t>()[at] = static_cast<std::int64_t>(num);
    }
    return ok();
  }
};

}  // namespace onyx
