// ImageDecoder in a session: a PNG, a 24-bit BMP (bottom-up rows, padded),
// a binary and an ASCII PNM (maxval 15, scaled), each to known pixels, in
// RGB, BGR and Grayscale (luma by hand); truncated and unknown files fail
// with an error naming the node. In a build without ONYX_IMAGE_DECODER the
// op is absent, and opening such a model says so.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "temp_path.hpp"

using namespace onyx;
using graph::model_builder;

namespace {

using bytes = std::vector<std::uint8_t>;

/// The pixels every test file holds, RGB, 3 wide and 2 high.
const bytes rgb_pixels{255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 200, 100, 50, 255, 255, 255};

/// rgb_pixels as PNG (8-bit RGB, one zlib IDAT; written with Python's zlib).
const bytes png_file{0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
                     0x44, 0x52, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00,
                     0x00, 0x12, 0x16, 0xf1, 0x4d, 0x00, 0x00, 0x00, 0x18, 0x49, 0x44, 0x41, 0x54, 0x78,
                     0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xc0, 0x00, 0xc1, 0x5c, 0x22, 0x72, 0x27, 0x52, 0x8c,
                     0xfe, 0xff, 0xff, 0x0f, 0x00, 0x3c, 0x19, 0x07, 0x95, 0xef, 0xc2, 0xc6, 0xd8, 0x00,
                     0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};

/// A 16 x 16 JPEG (quality 50, written with libjpeg) of the gradient
/// R = 16 x, G = 16 y, B = 128.
const bytes jpeg_file{
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00, 0xff, 0xdb, 0x00, 0x43, 0x00, 0x10, 0x0b, 0x0c, 0x0e, 0x0c, 0x0a, 0x10, 0x0e, 0x0d, 0x0e, 0x12, 0x11, 0x10,
    0x13, 0x18, 0x28, 0x1a, 0x18, 0x16, 0x16, 0x18, 0x31, 0x23, 0x25, 0x1d, 0x28, 0x3a, 0x33, 0x3d, 0x3c, 0x39, 0x33,
    0x38, 0x37, 0x40, 0x48, 0x5c, 0x4e, 0x40, 0x44, 0x57, 0x45, 0x37, 0x38, 0x50, 0x6d, 0x51, 0x57, 0x5f, 0x62, 0x67,
    0x68, 0x67, 0x3e, 0x4d, 0x71, 0x79, 0x70, 0x64, 0x78, 0x5c, 0x65, 0x67, 0x63, 0xff, 0xdb, 0x00, 0x43, 0x01, 0x11,
    0x12, 0x12, 0x18, 0x15, 0x18, 0x2f, 0x1a, 0x1a, 0x2f, 0x63, 0x42, 0x38, 0x42, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
    0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
    0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
    0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x10, 0x03, 0x01, 0x22, 0x00,
    0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xff, 0xc4, 0x00, 0x15, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x06, 0xff, 0xc4, 0x00, 0x17, 0x10, 0x01, 0x00, 0x03, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x21, 0x31, 0xff, 0xc4, 0x00,
    0x15, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0xff, 0xc4, 0x00, 0x19, 0x11, 0x00, 0x02, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x04, 0x03, 0x05, 0x21, 0x31, 0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03,
    0x11, 0x00, 0x3f, 0x00, 0x9f, 0x38, 0x72, 0xa2, 0x67, 0x0e, 0x54, 0x4c, 0xe1, 0xca, 0x89, 0x9c, 0x39, 0x52, 0xa5,
    0x6c, 0x57, 0xbd, 0xcd, 0x3f, 0xff, 0xd9};

void put32(bytes& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

/// rgb_pixels as a 24-bit BI_RGB BMP: BGR triples, rows bottom-up, each
/// padded to 4 bytes (9 -> 12).
bytes bmp_file() {
  const std::size_t stride = 12, data = 14 + 40;
  bytes b(data + 2 * stride, 0);
  b[0] = 'B', b[1] = 'M';
  put32(b, 2, static_cast<std::uint32_t>(b.size()));
  put32(b, 10, data);
  put32(b, 14, 40);
  put32(b, 18, 3);
  put32(b, 22, 2);
  b[26] = 1, b[28] = 24;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x)
      for (int c = 0; c < 3; ++c) b[data + (1 - y) * stride + x * 3 + c] = rgb_pixels[(y * 3 + x) * 3 + (2 - c)];
  return b;
}

bytes text(const std::string& s) { return bytes(s.begin(), s.end()); }

std::string decoder_model(const std::string& pixel_format, const std::string& file) {
  model_builder m{20};
  auto x = m.input("data", dtype::uint8, {"n"});
  m.output(m.node("ImageDecoder", {x}, {{"pixel_format", pixel_format}}));
  auto path = test::temp_path(file);
  REQUIRE(m.save(path).ok());
  return path.string();
}

tensor encoded(const bytes& b) { return tensor::from(b, {static_cast<std::int64_t>(b.size())}); }

bytes values_of(const tensor& t) {
  auto v = t.values<std::uint8_t>();
  return {v.begin(), v.end()};
}

}  // namespace

#if defined(ONYX_IMAGE_DECODER)

TEST_CASE("ImageDecoder: PNG, BMP and PNM to RGB, BGR and Grayscale", "[image_decoder]") {
  session rgb(decoder_model("RGB", "image_rgb.onnx"), {.threads = 1});
  session bgr(decoder_model("BGR", "image_bgr.onnx"), {.threads = 1});
  session gray(decoder_model("Grayscale", "image_gray.onnx"), {.threads = 1});
  bytes bgr_pixels(rgb_pixels.size()), luma;
  for (std::size_t i = 0; i < rgb_pixels.size(); i += 3) {
    bgr_pixels[i] = rgb_pixels[i + 2], bgr_pixels[i + 1] = rgb_pixels[i + 1], bgr_pixels[i + 2] = rgb_pixels[i];
  }
  // L = R 299/1000 + G 587/1000 + B 114/1000, rounded: by hand for each pixel.
  luma = {76, 150, 29, 18, 124, 255};
  for (const auto& [name, file] : {std::pair{"PNG", png_file}, std::pair{"BMP", bmp_file()},
                                   std::pair{"PNM P6", [] {
                                               bytes b = text("P6\n# a comment\n3 2\n255\n");
                                               b.insert(b.end(), rgb_pixels.begin(), rgb_pixels.end());
                                               return b;
                                             }()}}) {
    DYNAMIC_SECTION(name) {
      tensor y = rgb.run({{"data", encoded(file)}}).at(0).as_tensor();
      REQUIRE(y.shape() == extents{2, 3, 3});
      CHECK(values_of(y) == rgb_pixels);
      CHECK(values_of(bgr.run({{"data", encoded(file)}}).at(0).as_tensor()) == bgr_pixels);
      tensor g = gray.run({{"data", encoded(file)}}).at(0).as_tensor();
      REQUIRE(g.shape() == extents{2, 3, 1});
      CHECK(values_of(g) == luma);
    }
  }
  SECTION("ASCII PNM, maxval 15: samples scaled by 255 / 15, gray replicated") {
    tensor y = rgb.run({{"data", encoded(text("P2 2 1 15\n0 15"))}}).at(0).as_tensor();
    REQUIRE(y.shape() == extents{1, 2, 3});
    CHECK(values_of(y) == bytes{0, 0, 0, 255, 255, 255});
  }
}

TEST_CASE("ImageDecoder: a JPEG decodes close to the image it was made from", "[image_decoder]") {
  session rgb(decoder_model("RGB", "image_jpeg.onnx"), {.threads = 1});
  tensor y = rgb.run({{"data", encoded(jpeg_file)}}).at(0).as_tensor();
  REQUIRE(y.shape() == extents{16, 16, 3});
  // Lossy: within 24 levels of the source gradient (quality 50 on smooth data).
  int worst = 0;
  for (int yy = 0; yy < 16; ++yy)
    for (int x = 0; x < 16; ++x) {
      const int want[3] = {16 * x, 16 * yy, 128};
      for (int c = 0; c < 3; ++c)
        worst = std::max(worst, std::abs(int{y.data<std::uint8_t>()[(yy * 16 + x) * 3 + c]} - want[c]));
    }
  CHECK(worst <= 24);
}

TEST_CASE("ImageDecoder: corrupt and truncated files fail naming the node", "[image_decoder]") {
  session rgb(decoder_model("RGB", "image_bad.onnx"), {.threads = 1});
  auto fails = [&](const bytes& file) {
    std::vector<named_value> feeds{{"data", encoded(file)}};
    std::vector<value> outs;
    status s = rgb.run(std::span<const named_value>(feeds), outs);
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.message(), Catch::Contains("ImageDecoder '"));
    return s.message();
  };
  CHECK_THAT(fails(bytes(png_file.begin(), png_file.begin() + 50)), Catch::Contains("corrupt or truncated PNG"));
  bytes bad_crc = png_file;
  bad_crc[45] ^= 0xff;  // inside IDAT: the CRC no longer matches
  CHECK_THAT(fails(bad_crc), Catch::Contains("PNG"));
  bytes bmp = bmp_file();
  CHECK_THAT(fails(bytes(bmp.begin(), bmp.end() - 5)), Catch::Contains("corrupt or truncated BMP"));
  CHECK_THAT(fails(text("P6\n3 2\n255\nabc")), Catch::Contains("corrupt or truncated PNM"));
  CHECK_THAT(fails(text("GIF89a....")), Catch::Contains("not an image in a supported format"));
  CHECK_THAT(fails(bytes{0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10}), Catch::Contains("corrupt or truncated JPEG"));
  // Cut inside the entropy-coded data (bytes 289-308): an error, not a grey-filled image.
  CHECK_THAT(fails(bytes(jpeg_file.begin(), jpeg_file.begin() + 300)), Catch::Contains("corrupt or truncated JPEG"));
  CHECK_THAT(fails(bytes{}), Catch::Contains("not an image"));
}

#else

TEST_CASE("ImageDecoder: absent without ONYX_IMAGE_DECODER", "[image_decoder]") {
  auto s = session::open(decoder_model("RGB", "image_absent.onnx"));
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.error().message(), Catch::Contains("ImageDecoder"));
  for (const op_info& op : session::all_ops().ops) CHECK(op.name != "ImageDecoder");
}

#endif
