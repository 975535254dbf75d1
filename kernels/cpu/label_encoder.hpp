// kernels/cpu/label_encoder.hpp: ai.onnx.ml LabelEncoder.
//
// prepare hashes the keys once (strings as strings, integers as int64,
// floats as double with NaN kept aside so NaN maps to NaN's value); run looks
// every element up and copies the value (or the default) by element width.
#pragma once

#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>

#include "onyx/ops/label_encoder.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::label_detail {

struct tables {
  std::unordered_map<std::string, std::int64_t> strings;
  std::unordered_map<std::int64_t, std::int64_t> ints;
  std::unordered_map<double, std::int64_t> floats;
  std::int64_t nan_index = -1;
  tensor values, fallback;  // fallback: one element of the values' type
};

/// Element i of a numeric tensor as double (floats) or int64 (integers).
inline double as_double(const tensor& t, std::int64_t i) {
  switch (t.type()) {
    case dtype::float32: return t.data<float>()[i];
    case dtype::float64: return t.data<double>()[i];
    default: return 0;
  }
}
inline std::int64_t as_int(const tensor& t, std::int64_t i) {
  switch (t.type()) {
    case dtype::int64: return t.data<std::int64_t>()[i];
    case dtype::int32: return t.data<std::int32_t>()[i];
    case dtype::int16: return t.data<std::int16_t>()[i];
    default: return 0;
  }
}
inline bool is_float(dtype t) { return t == dtype::float32 || t == dtype::float64; }

inline result<tables> build(const ops::LabelEncoder::attributes& a) {
  tables t;
  const tensor keys = a.keys();
  t.values = a.values();
  for (std::int64_t i = 0; i < keys.size(); ++i) {
    if (keys.type() == dtype::string)
      t.strings.try_emplace(keys.data<std::string>()[i], i);
    else if (is_float(keys.type())) {
      const double k = as_double(keys, i);
      if (std::isnan(k)) {
        if (t.nan_index < 0) t.nan_index = i;
      } else {
        t.floats.try_emplace(k, i);
      }
    } else {
      t.ints.try_emplace(as_int(keys, i), i);
    }
  }
  const dtype vt = t.values.type();
  if (a.default_tensor) {
    t.fallback = *a.default_tensor;
  } else if (vt == dtype::string) {
    t.fallback = tensor::scalar(a.default_string);
  } else {
    t.fallback = tensor::zeros(vt, {});
    const double f = is_float(vt) ? static_cast<double>(a.default_float) : static_cast<double>(a.default_int64);
    switch (vt) {
      case dtype::float32: *t.fallback.data<float>() = static_cast<float>(f); break;
      case dtype::float64: *t.fallback.data<double>() = f; break;
      case dtype::int64: *t.fallback.data<std::int64_t>() = a.default_int64; break;
      case dtype::int32: *t.fallback.data<std::int32_t>() = static_cast<std::int32_t>(a.default_int64); break;
      case dtype::int16: *t.fallback.data<std::int16_t>() = static_cast<std::int16_t>(a.default_int64); break;
      default: break;
    }
  }
  if (t.fallback.size() < 1 || t.fallback.type() != vt)
    return status(errc::invalid_argument, "LabelEncoder: the default must be one value of the values' type");
  return t;
}

inline status encode(const call<ops::LabelEncoder>& c) {
  const tables& t = c.state<tables>();
  const tensor& x = c.input(0);
  tensor& y = c.output(0);
  const std::int64_t n = x.size();
  const bool str_out = y.type() == dtype::string;
  const std::size_t width = str_out ? 0 : static_cast<std::size_t>(bit_width(y.type()) / 8);
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t j = -1;
    if (x.type() == dtype::string) {
      auto it = t.strings.find(x.data<std::string>()[i]);
      if (it != t.strings.end()) j = it->second;
    } else if (is_float(x.type())) {
      const double k = as_double(x, i);
      if (std::isnan(k)) {
        j = t.nan_index;
      } else if (auto it = t.floats.find(k); it != t.floats.end()) {
        j = it->second;
      }
    } else if (auto it = t.ints.find(as_int(x, i)); it != t.ints.end()) {
      j = it->second;
    }
    const tensor& src = j < 0 ? t.fallback : t.values;
    const std::int64_t at = j < 0 ? 0 : j;
    if (str_out)
      y.data<std::string>()[i] = src.data<std::string>()[at];
    else
      std::memcpy(static_cast<char*>(y.raw()) + i * width, static_cast<const char*>(src.raw()) + at * width, width);
  }
  return ok();
}

}  // namespace onyx::kernels::cpu::label_detail

namespace onyx {

template <> struct kernel<ops::LabelEncoder, cpu> {
  static constexpr std::array types{ops::LabelEncoder::T1};
  using state = kernels::cpu::label_detail::tables;
  template <ops::signature S> static result<state> prepare(const prepare_info<ops::LabelEncoder>& p) {
    return kernels::cpu::label_detail::build(p.attrs());
  }
  template <ops::signature S> static status run(const call<ops::LabelEncoder>& c) {
    return kernels::cpu::label_detail::encode(c);
  }
};

template <> struct kernel<ops::LabelEncoder_v1, cpu> {
  static constexpr std::array types{ops::LabelEncoder_v1::T1};
  using state = std::unordered_map<std::string, std::int64_t>;
  template <ops::signature S> static result<state> prepare(const prepare_info<ops::LabelEncoder_v1>& p) {
    state index;
    const auto& classes = p.attrs().classes_strings;
    for (std::size_t i = 0; i < classes.size(); ++i) index.try_emplace(classes[i], static_cast<std::int64_t>(i));
    return index;
  }
  template <ops::signature S> static status run(const call<ops::LabelEncoder_v1>& c) {
    const auto& a = c.attrs();
    const tensor& x = c.input(0);
    tensor& y = c.output(0);
    if constexpr (S[0] == dtype::string) {
      const state& index = c.state<state>();
      for (std::int64_t i = 0; i < x.size(); ++i) {
        auto it = index.find(x.data<std::string>()[i]);
        y.data<std::int64_t>()[i] = it == index.end() ? a.default_int64 : it->second;
      }
    } else {
      const auto n = static_cast<std::int64_t>(a.classes_strings.size());
      for (std::int64_t i = 0; i < x.size(); ++i) {
        const std::int64_t k = x.data<std::int64_t>()[i];
        y.data<std::string>()[i] = k >= 0 && k < n ? a.classes_strings[static_cast<std::size_t>(k)] : a.default_string;
      }
    }
    return ok();
  }
};

}  // namespace onyx
