// ops::ImageDecoder (opset 20): decodes one encoded image (a 1D uint8 tensor
// holding a BMP, JPEG, JPEG 2000, PNG, PNM, TIFF or WebP file) to a uint8
// [H, W, C] tensor: C = 3 for pixel_format RGB (default) or BGR, C = 1 for
// Grayscale (from RGB, L = (19595 R + 38470 G + 7471 B + 2^15) >> 16, as
// Pillow, the spec's reference, converts). Alpha is dropped; 16-bit samples
// are scaled to 8 bits. The format is found from the data's first bytes.
// The op is part of the registry only when onyx is built with the image
// decoders (CMake option ONYX_IMAGE_DECODER, which defines the macro of that
// name): the manifest's image group is empty without it. Kernel:
// kernels/cpu/image_decoder.hpp over kernels/cpu/image_codecs.cpp.
// Tested in test/unit/image_decoder_test.cpp and node/test_image_decoder_*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct ImageDecoder {
  static constexpr std::string_view domain = "", name = "ImageDecoder";
  static constexpr int since = 20, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::u8, T2 = dtypes::u8;
  struct attributes {
    std::string pixel_format = "RGB";
    static constexpr auto fields = std::tuple{field{"pixel_format", &attributes::pixel_format}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    if (a.pixel_format != "RGB" && a.pixel_format != "BGR" && a.pixel_format != "Grayscale")
      return c.fail("pixel_format must be RGB, BGR or Grayscale, got '" + a.pixel_format + "'");
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1) return c.fail("encoded_stream must be 1D, got " + x.str());
    // The image's size is in the data: known only when running.
    c.set_output(0, dtype::uint8,
                 sym_shape({dim::unknown(), dim::unknown(), dim(a.pixel_format == "Grayscale" ? 1 : 3)}));
    return ok();
  }
};

}  // namespace onyx::ops
