// examples/ocr/ocr_test.cpp: the reader on the rendered samples
// (make_samples.cmake, whose texts these are) reads every line exactly, and
// bad input is an error that says what is wrong. ctest runs one test case per
// sample (`ocr_test line`, ...).
#include <catch2/catch.hpp>

#include <fstream>

#include "ocr.hpp"

namespace {

const onyx::ocr::reader& shared_reader() {
  static const onyx::ocr::reader r{onyx::ocr::model_files::in(ONYX_OCR_MODELS), {.threads = 2}};
  return r;
}

std::vector<std::string> read_sample(const std::string& name) {
  auto lines = shared_reader().read(onyx::ocr::load_image(ONYX_OCR_SAMPLES "/" + name + ".png"));
  std::vector<std::string> texts;
  for (const auto& l : lines) texts.push_back(l.text);
  return texts;
}

/// A sample of one line, which the direction classifier must turn over.
void check_turned_over(const std::string& name, const std::string& text) {
  auto lines = shared_reader().read(onyx::ocr::load_image(ONYX_OCR_SAMPLES "/" + name + ".png"));
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].text == text);
  CHECK(lines[0].turned_over);
}

using strings = std::vector<std::string>;

}  // namespace

TEST_CASE("line") { CHECK(read_sample("line") == strings{"Reading text from an image with onyx"}); }

TEST_CASE("paragraph") {
  CHECK(read_sample("paragraph") == strings{"The quick brown fox jumps over the lazy dog",
                                            "Pack my box with five dozen liquor jugs",
                                            "ONNX models run on the CPU in 2025"});
}

TEST_CASE("rotated_90") { CHECK(read_sample("rotated_90") == strings{"Turned a quarter to the right"}); }

TEST_CASE("rotated_270") { check_turned_over("rotated_270", "Turned a quarter to the left"); }

TEST_CASE("rotated_15") { CHECK(read_sample("rotated_15") == strings{"Tilted by fifteen degrees"}); }

TEST_CASE("upside_down") { check_turned_over("upside_down", "This line is upside down"); }

TEST_CASE("chinese") { CHECK(read_sample("chinese") == strings{"欢迎使用文字识别"}); }

TEST_CASE("bad_input") {
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(onyx::ocr::load_image("no/such/image.png"), Contains("no such file"));
  const std::string not_an_image = "ocr_test_not_an_image.png";
  std::ofstream(not_an_image) << "plain text";
  CHECK_THROWS_WITH(onyx::ocr::load_image(not_an_image), Contains("cannot read image"));
  CHECK_THROWS_WITH(onyx::ocr::reader(onyx::ocr::model_files::in("no/such/models")),
                    Contains("missing PP-OCR model files") && Contains("ch_PP-OCRv4_det_infer.onnx"));
  CHECK(shared_reader().read(onyx::ocr::image{8, 8, std::vector<std::uint8_t>(8 * 8 * 3, 255)}).empty());
  CHECK_THROWS_WITH(shared_reader().read(onyx::ocr::image{}), Contains("empty"));
}
