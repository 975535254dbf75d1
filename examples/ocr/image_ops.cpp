// examples/ocr/image_ops.cpp: image files (stb, Debian's libstb) and the
// pixel operations of image_ops.hpp.
#include "image_ops.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace onyx::ocr {

image load_image(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw error("cannot read image '" + path.string() + "': no such file");
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(path.c_str(), &w, &h, &channels, 3);
  if (!pixels)
    throw error("cannot read image '" + path.string() + "': " + stbi_failure_reason() +
                " (PNG, JPEG, BMP, GIF, TGA and PNM are read)");
  image img{w, h, std::vector<std::uint8_t>(pixels, pixels + static_cast<std::size_t>(w) * h * 3)};
  stbi_image_free(pixels);
  return img;
}

void write_png(const image& img, const std::filesystem::path& path) {
  if (!stbi_write_png(path.c_str(), img.width, img.height, 3, img.rgb.data(), img.width * 3))
    throw error("cannot write '" + path.string() + "'");
}

}  // namespace onyx::ocr

namespace onyx::ocr::image_ops {
namespace {

std::uint8_t to_byte(float v) { return static_cast<std::uint8_t>(std::clamp(std::lround(v), 0L, 255L)); }

/// For each destination index, the source index and weight of the next one,
/// by OpenCV's INTER_LINEAR rule.
struct linear_tap {
  int i0, i1;
  float w1;
};
std::vector<linear_tap> linear_taps(int src, int dst) {
  std::vector<linear_tap> taps(dst);
  const double scale = static_cast<double>(src) / dst;
  for (int d = 0; d < dst; ++d) {
    double f = (d + 0.5) * scale - 0.5;
    int i = static_cast<int>(std::floor(f));
    float w = static_cast<float>(f - i);
    if (i < 0) i = 0, w = 0;
    if (i >= src - 1) i = src - 1, w = 0;
    taps[d] = {i, std::min(i + 1, src - 1), w};
  }
  return taps;
}

/// OpenCV's cubic convolution weights (a = -0.75) for a fraction t in [0, 1).
std::array<float, 4> cubic_weights(float t) {
  constexpr float a = -0.75f;
  float w0 = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
  float w1 = ((a + 2) * t - (a + 3)) * t * t + 1;
  float u = 1 - t;
  float w2 = ((a + 2) * u - (a + 3)) * u * u + 1;
  return {w0, w1, w2, 1 - w0 - w1 - w2};
}

/// The homography taking (0,0), (w,0), (w,h), (0,h) to `box`, as 3x3 row-major
/// with h22 = 1: the 8x8 linear system solved by Gaussian elimination.
std::array<double, 9> homography_to(const quad& box, int w, int h) {
  const double from[4][2] = {{0, 0}, {double(w), 0}, {double(w), double(h)}, {0, double(h)}};
  double m[8][9] = {};
  for (int k = 0; k < 4; ++k) {
    double x = from[k][0], y = from[k][1], u = box[k].x, v = box[k].y;
    double r0[9] = {x, y, 1, 0, 0, 0, -u * x, -u * y, u};
    double r1[9] = {0, 0, 0, x, y, 1, -v * x, -v * y, v};
    std::copy(r0, r0 + 9, m[2 * k]);
    std::copy(r1, r1 + 9, m[2 * k + 1]);
  }
  for (int c = 0; c < 8; ++c) {
    int pivot = c;
    for (int r = c + 1; r < 8; ++r)
      if (std::abs(m[r][c]) > std::abs(m[pivot][c])) pivot = r;
    std::swap(m[c], m[pivot]);
    if (std::abs(m[c][c]) < 1e-12) return {1, 0, box[0].x, 0, 1, box[0].y, 0, 0, 1};  // degenerate box
    for (int r = 0; r < 8; ++r) {
      if (r == c) continue;
      double f = m[r][c] / m[c][c];
      for (int k = c; k < 9; ++k) m[r][k] -= f * m[c][k];
    }
  }
  std::array<double, 9> hm{};
  for (int i = 0; i < 8; ++i) hm[i] = m[i][8] / m[i][i];
  hm[8] = 1;
  return hm;
}

void put(image& img, int x, int y, rgb c) {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  std::uint8_t* p = img.at(x, y);
  p[0] = c.r, p[1] = c.g, p[2] = c.b;
}

void fill_rect(image& img, int x0, int y0, int w, int h, rgb c) {
  for (int y = y0; y < y0 + h; ++y)
    for (int x = x0; x < x0 + w; ++x) put(img, x, y, c);
}

/// Digits 0-9 in a 3x5 dot font, one row per 3 bits (top row first).
constexpr std::uint8_t digit_rows[10][5] = {
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
    {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
};

}  // namespace

image resize_bilinear(const image& src, int width, int height) {
  image dst{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 3)};
  const auto xs = linear_taps(src.width, width), ys = linear_taps(src.height, height);
  for (int y = 0; y < height; ++y) {
    const auto [y0, y1, wy] = ys[y];
    for (int x = 0; x < width; ++x) {
      const auto [x0, x1, wx] = xs[x];
      const std::uint8_t *a = src.at(x0, y0), *b = src.at(x1, y0), *c = src.at(x0, y1), *d = src.at(x1, y1);
      std::uint8_t* out = dst.at(x, y);
      for (int k = 0; k < 3; ++k) {
        float top = a[k] + wx * (b[k] - a[k]), bottom = c[k] + wx * (d[k] - c[k]);
        out[k] = to_byte(top + wy * (bottom - top));
      }
    }
  }
  return dst;
}

image warp_quad(const image& src, const quad& box, int width, int height) {
  image dst{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 3)};
  const auto hm = homography_to(box, width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double w = hm[6] * x + hm[7] * y + hm[8];
      double sx = (hm[0] * x + hm[1] * y + hm[2]) / w, sy = (hm[3] * x + hm[4] * y + hm[5]) / w;
      int ix = static_cast<int>(std::floor(sx)), iy = static_cast<int>(std::floor(sy));
      auto wx = cubic_weights(static_cast<float>(sx - ix)), wy = cubic_weights(static_cast<float>(sy - iy));
      float acc[3] = {0, 0, 0};
      for (int j = 0; j < 4; ++j) {
        int row = std::clamp(iy - 1 + j, 0, src.height - 1);
        for (int i = 0; i < 4; ++i) {
          const std::uint8_t* p = src.at(std::clamp(ix - 1 + i, 0, src.width - 1), row);
          float f = wx[i] * wy[j];
          for (int k = 0; k < 3; ++k) acc[k] += f * p[k];
        }
      }
      std::uint8_t* out = dst.at(x, y);
      for (int k = 0; k < 3; ++k) out[k] = to_byte(acc[k]);
    }
  return dst;
}

image rotate_90_ccw(const image& src) {
  // Row r of the result is column (width - 1 - r) of the source, top down.
  image dst{src.height, src.width, std::vector<std::uint8_t>(src.rgb.size())};
  for (int y = 0; y < dst.height; ++y)
    for (int x = 0; x < dst.width; ++x) std::copy_n(src.at(src.width - 1 - y, x), 3, dst.at(x, y));
  return dst;
}

image rotate_180(const image& src) {
  image dst{src.width, src.height, std::vector<std::uint8_t>(src.rgb.size())};
  for (int y = 0; y < dst.height; ++y)
    for (int x = 0; x < dst.width; ++x) std::copy_n(src.at(src.width - 1 - x, src.height - 1 - y), 3, dst.at(x, y));
  return dst;
}

void draw_polygon(image& img, const quad& box, rgb colour, int thickness) {
  for (int k = 0; k < 4; ++k) {
    point a = box[k], b = box[(k + 1) % 4];
    int steps = static_cast<int>(std::ceil(std::max(std::abs(b.x - a.x), std::abs(b.y - a.y)))) + 1;
    for (int s = 0; s <= steps; ++s) {
      float t = static_cast<float>(s) / steps;
      int x = static_cast<int>(std::lround(a.x + t * (b.x - a.x))) - thickness / 2;
      int y = static_cast<int>(std::lround(a.y + t * (b.y - a.y))) - thickness / 2;
      fill_rect(img, x, y, thickness, thickness, colour);
    }
  }
}

std::pair<int, int> number_size(int number, int scale) {
  // Each digit 3 dots wide with a dot between digits, a dot of margin around.
  const int digits = static_cast<int>(std::to_string(number).size());
  return {(digits * 4 + 1) * scale, 7 * scale};
}

void draw_number(image& img, int x, int y, int number, rgb colour, int scale) {
  const std::string digits = std::to_string(number);
  const int pad = scale;
  const auto [w, h] = number_size(number, scale);
  x = std::clamp(x, 0, std::max(0, img.width - w));
  y = std::clamp(y, 0, std::max(0, img.height - h));
  fill_rect(img, x, y, w, h, colour);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    const auto& rows = digit_rows[digits[i] - '0'];
    int left = x + pad + static_cast<int>(i) * 4 * scale;
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 3; ++c)
        if (rows[r] & (4 >> c)) fill_rect(img, left + c * scale, y + pad + r * scale, scale, scale, {255, 255, 255});
  }
}

}  // namespace onyx::ocr::image_ops
