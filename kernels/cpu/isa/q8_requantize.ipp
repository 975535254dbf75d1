// The requantization loop of the 8-bit ops, included by each q8_kernels_<isa>.cpp
// so that the compiler vectorizes it with that level's flags:
//   y[j] = clamp(round_half_even((acc[j] + bias_j) * scale_j + zero), lo, hi)
// in double (the ONNX reference's precision for QLinearConv/QLinearMatMul),
// bias_j / scale_j from the arrays when given, else the scalars. Rounding
// without libm: the value is clamped just outside [lo, hi], then 1.5 * 2^52
// is added and subtracted, which leaves the nearest even integer in the
// default rounding mode. int8 is written as uint8 with the sign bit flipped.
static void requantize_row(const std::int32_t* acc, std::int64_t n, const double* bias, double bias0,
                           const double* scale, double scale0, double zero, bool is_signed, std::uint8_t* y) {
  constexpr double magic = 6755399441055744.0;
  const double lo = is_signed ? -128.0 : 0.0, hi = is_signed ? 127.0 : 255.0;
  const double shift = is_signed ? 128.0 : 0.0;
  const auto body = [&](auto has_bias, auto has_scale) {
    for (std::int64_t j = 0; j < n; ++j) {
      double v = (static_cast<double>(acc[j]) + (has_bias ? bias[j] : bias0)) * (has_scale ? scale[j] : scale0) + zero;
      v = v < lo - 1 ? lo - 1 : v;
      v = v > hi + 1 ? hi + 1 : v;
      v = (v + magic) - magic;
      v = v < lo ? lo : v;
      v = v > hi ? hi : v;
      y[j] = static_cast<std::uint8_t>(static_cast<std::int32_t>(v + shift)) ^ static_cast<std::uint8_t>(is_signed ? 0x80 : 0);
    }
  };
  using yes = std::true_type;
  using no = std::false_type;
  if (bias && scale) body(yes{}, yes{});
  else if (bias) body(yes{}, no{});
  else if (scale) body(no{}, yes{});
  else body(no{}, no{});
}
