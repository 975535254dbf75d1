// kernel<ops::ImageDecoder, cpu>: decodes the file with onyx::image::decode_rgb
// (kernels/cpu/image_codecs.cpp, compiled into onyx_image_codecs, which a
// build with ONYX_IMAGE_DECODER links), then writes RGB, BGR or Grayscale.
// The executor names the node in any error.
#pragma once

#include "kernels/cpu/image_codecs.hpp"
#include "onyx/ops/image_decoder.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

template <>
struct kernel<ops::ImageDecoder, cpu> {
  static constexpr std::array types{dtypes::u8};
  template <ops::signature>
  static status run(const call<ops::ImageDecoder>& c) {
    const tensor& x = c.input(0);
    if (x.rank() != 1) return status(errc::invalid_argument, "encoded_stream must be 1D, got " + to_string(x.shape()));
    const auto& format = c.attrs().pixel_format;
    ONYX_ASSIGN(image::rgb_image im, image::decode_rgb(x.values<std::uint8_t>()));
    const std::int64_t n = im.height * im.width;
    const std::uint8_t* p = im.pixels.data();
    if (format == "Grayscale") {
      // Pillow's convert("L"): ITU-R 601-2 luma in 16-bit fixed point, rounded.
      std::uint8_t* y = c.allocate_output(0, dtype::uint8, {im.height, im.width, 1}).data<std::uint8_t>();
      for (std::int64_t i = 0; i < n; ++i)
        y[i] = static_cast<std::uint8_t>((p[3 * i] * 19595u + p[3 * i + 1] * 38470u + p[3 * i + 2] * 7471u + 0x8000u) >>
                                         16);
      return ok();
    }
    std::uint8_t* y = c.allocate_output(0, dtype::uint8, {im.height, im.width, 3}).data<std::uint8_t>();
    if (format == "BGR") {
      for (std::int64_t i = 0; i < n; ++i)
        y[3 * i] = p[3 * i + 2], y[3 * i + 1] = p[3 * i + 1], y[3 * i + 2] = p[3 * i];
    } else if (format == "RGB") {
      std::copy_n(p, 3 * n, y);
    } else {
      return status(errc::invalid_argument, "pixel_format must be RGB, BGR or Grayscale, got '" + format + "'");
    }
    return ok();
  }
};

}  // namespace onyx
