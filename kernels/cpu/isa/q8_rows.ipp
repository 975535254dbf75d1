// Row loops of the 8-bit ops that baseline code would run at SSE2 width,
// included by each q8_kernels_<isa>.cpp so the compiler vectorizes them with
// that level's flags (see q8.hpp for what each computes).

// One channel of a 2-D depthwise convolution on an int16 plane.
static void depthwise_plane(const q8_depthwise_args& a) {
  for (std::int64_t oh = 0; oh < a.out_h; ++oh) {
    std::int32_t* acc = a.y + oh * a.out_w;
    for (std::int64_t ow = 0; ow < a.out_w; ++ow) acc[ow] = 0;
    for (std::int64_t ky = 0; ky < a.kh; ++ky) {
      const std::int16_t* row = a.plane + (oh * a.stride_h + ky * a.dilation_h) * a.plane_w;
      for (std::int64_t kx = 0; kx < a.kw; ++kx) {
        const std::int32_t w = a.w[ky * a.kw + kx];
        const std::int16_t* src = row + kx * a.dilation_w;
        if (a.stride_w == 1)
          for (std::int64_t ow = 0; ow < a.out_w; ++ow) acc[ow] += w * src[ow];
        else
          for (std::int64_t ow = 0; ow < a.out_w; ++ow) acc[ow] += w * src[ow * a.stride_w];
      }
    }
  }
}

// Four rows of n bytes interleaved into n 32-bit groups (xor `flip` on every
// byte), and each group's four values (as unsigned when `as_unsigned`, else
// signed) added to sums[i].
static void interleave4(const std::uint8_t* r0, const std::uint8_t* r1, const std::uint8_t* r2,
                        const std::uint8_t* r3, std::int64_t n, std::uint8_t flip, bool as_unsigned,
                        std::uint32_t* dst, std::int32_t* sums) {
  const std::uint32_t flip4 = flip * 0x01010101u;
  if (as_unsigned) {
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint32_t a = r0[i] ^ flip, b = r1[i] ^ flip, c = r2[i] ^ flip, d = r3[i] ^ flip;
      dst[i] = a | b << 8 | c << 16 | d << 24;
      sums[i] += static_cast<std::int32_t>(a + b + c + d);
    }
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int8_t a = static_cast<std::int8_t>(r0[i] ^ flip), b = static_cast<std::int8_t>(r1[i] ^ flip);
      const std::int8_t c = static_cast<std::int8_t>(r2[i] ^ flip), d = static_cast<std::int8_t>(r3[i] ^ flip);
      dst[i] = (std::uint32_t(r0[i]) | std::uint32_t(r1[i]) << 8 | std::uint32_t(r2[i]) << 16 | std::uint32_t(r3[i]) << 24) ^ flip4;
      sums[i] += a + b + c + d;
    }
  }
}
