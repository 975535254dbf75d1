// The requantization loop of the 8-bit ops, included by each q8_kernels_<isa>.cpp
// so that the compiler vectorizes it with that level's flags:
//   y[j] = clamp(round_half_even((a_j + bias_j) * scale_j + zero), lo, hi)
// in double (the ONNX reference's precision for QLinearConv/QLinearMatMul),
// a_j = acc[j] + add0 (+ add[j]) wrapping like int32, bias_j / scale_j from
// the arrays when given, else the scalars. The value is clamped just outside
// [lo, hi] first, so that it converts to int32 whatever it was.
// AVX-512: rounded to nearest even by the conversion itself (vcvtpd2dq with
// an explicit rounding mode) and saturated by the narrowing stores.
// Elsewhere: 1.5 * 2^52 is added and subtracted, which leaves the nearest
// even integer in the default rounding mode, then clamped to [lo, hi]; int8
// is written as uint8 with the sign bit flipped.
static void requantize_row(const std::int32_t* acc, std::int64_t n, const std::int32_t* add, std::int32_t add0,
                           const double* bias, double bias0, const double* scale, double scale0, double zero,
                           bool is_signed, std::uint8_t* y) {
  const double lo = is_signed ? -128.0 : 0.0, hi = is_signed ? 127.0 : 255.0;
  const auto body = [&](auto has_add, auto has_bias, auto has_scale) {
    std::int64_t j = 0;
#if defined(__AVX512F__)
    const __m512d vlo = _mm512_set1_pd(lo - 1), vhi = _mm512_set1_pd(hi + 1), vz = _mm512_set1_pd(zero);
    const __m512d vb = _mm512_set1_pd(bias0), vs = _mm512_set1_pd(scale0);
    const __m512i va = _mm512_set1_epi32(add0);
    const auto half = [&](__m256i a, std::int64_t at) {
      __m512d v = _mm512_cvtepi32_pd(a);
      v = _mm512_add_pd(v, has_bias ? _mm512_loadu_pd(bias + at) : vb);
      v = _mm512_fmadd_pd(v, has_scale ? _mm512_loadu_pd(scale + at) : vs, vz);
      v = _mm512_min_pd(_mm512_max_pd(v, vlo), vhi);
      return _mm512_cvt_roundpd_epi32(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    };
    for (; j + 16 <= n; j += 16) {
      __m512i a = _mm512_add_epi32(_mm512_loadu_si512(acc + j), va);
      if (has_add) a = _mm512_add_epi32(a, _mm512_loadu_si512(add + j));
      const __m512i q = _mm512_inserti64x4(_mm512_castsi256_si512(half(_mm512_castsi512_si256(a), j)),
                                           half(_mm512_extracti64x4_epi64(a, 1), j + 8), 1);
      if (is_signed)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y + j), _mm512_cvtsepi32_epi8(q));
      else
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y + j), _mm512_cvtusepi32_epi8(_mm512_max_epi32(q, _mm512_setzero_si512())));
    }
#endif
    constexpr double magic = 6755399441055744.0;
    const double shift = is_signed ? 128.0 : 0.0;
    for (; j < n; ++j) {
      const std::uint32_t a = static_cast<std::uint32_t>(acc[j]) + static_cast<std::uint32_t>(add0) +
                              (has_add ? static_cast<std::uint32_t>(add[j]) : 0u);
      double v = (static_cast<double>(static_cast<std::int32_t>(a)) + (has_bias ? bias[j] : bias0)) *
                     (has_scale ? scale[j] : scale0) + zero;
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
  const auto with_add = [&](auto has_bias, auto has_scale) {
    if (add)
      body(yes{}, has_bias, has_scale);
    else
      body(no{}, has_bias, has_scale);
  };
  if (bias && scale) with_add(yes{}, yes{});
  else if (bias) with_add(yes{}, no{});
  else if (scale) with_add(no{}, yes{});
  else with_add(no{}, no{});
}
