// onyx-ocr: reads the text in an image with PP-OCR on onyx (examples/ocr/ocr.hpp).
//
//   onyx-ocr IMAGE [--out ANNOTATED.png] [--threads N] [--models DIR] [--runs R]
//            [--dump-tensors DIR]
//
// Prints each line read (number, confidence, box corners, text), the time
// each stage took and the path of the annotated copy of IMAGE (boxes drawn and
// numbered; IMAGE's folder, IMAGE's name with .ocr.png, unless --out). With
// --runs R the pipeline runs once to warm up and R more times, and the
// timings are the medians. With --dump-tensors, each model's first input and
// output are written to DIR/<det|cls|rec>_{input,output}.pb (the ocr.ort test
// compares them with ONNX Runtime's).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ocr.hpp"
#include "onyx/graph/tensor_proto.hpp"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: onyx-ocr IMAGE [--out ANNOTATED.png] [--threads N] [--models DIR] [--runs R]\n"
               "                [--dump-tensors DIR]\n");
  return 2;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path image_path, out_path, dump_dir, models = ONYX_OCR_MODELS;
  int threads = 0, runs = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "-h" || a == "--help") return usage(), 0;
    if (a == "--out" || a == "--threads" || a == "--models" || a == "--runs" || a == "--dump-tensors") {
      if (!(v = next())) return usage();
      if (a == "--out") out_path = v;
      if (a == "--models") models = v;
      if (a == "--dump-tensors") dump_dir = v;
      if (a == "--threads" || a == "--runs") {
        char* end = nullptr;
        long n = std::strtol(v, &end, 10);
        if (*end || n < (a == "--runs" ? 1 : 0)) {
          std::fprintf(stderr, "onyx-ocr: %s takes a number, not '%s'\n", a.c_str(), v);
          return 2;
        }
        (a == "--threads" ? threads : runs) = static_cast<int>(n);
      }
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "onyx-ocr: unknown option '%s'\n", a.c_str());
      return usage();
    } else if (image_path.empty()) {
      image_path = a;
    } else {
      return usage();
    }
  }
  if (image_path.empty()) return usage();
  if (out_path.empty()) out_path = image_path.parent_path() / (image_path.stem().string() + ".ocr.png");

  try {
    const auto image = onyx::ocr::load_image(image_path);
    onyx::ocr::reader reader{onyx::ocr::model_files::in(models), {.threads = threads}};

    onyx::ocr::tensor_observer dump;
    if (!dump_dir.empty()) {
      std::filesystem::create_directories(dump_dir);
      dump = [&, seen = std::vector<std::string>{}](std::string_view model, const onyx::tensor& in,
                                                    const onyx::tensor& out) mutable {
        if (std::find(seen.begin(), seen.end(), model) != seen.end()) return;  // the first batch only
        seen.emplace_back(model);
        for (auto [t, kind] : {std::pair{&in, "input"}, std::pair{&out, "output"}}) {
          auto path = dump_dir / (std::string(model) + "_" + kind + ".pb");
          if (auto st = onyx::graph::write_tensor_file(*t, path, kind); !st.ok())
            throw onyx::ocr::error("cannot write '" + path.string() + "': " + st.message());
        }
      };
    }

    onyx::ocr::stage_times t;
    auto lines = reader.read(image, &t, dump);
    if (runs > 1) {
      std::vector<std::vector<double>> samples(7);
      for (int r = 0; r < runs; ++r) {
        reader.read(image, &t);
        const double each[] = {t.det_preprocess, t.det_model, t.det_boxes, t.crop, t.cls, t.rec, t.total};
        for (int k = 0; k < 7; ++k) samples[k].push_back(each[k]);
      }
      double* fields[] = {&t.det_preprocess, &t.det_model, &t.det_boxes, &t.crop, &t.cls, &t.rec, &t.total};
      for (int k = 0; k < 7; ++k) *fields[k] = median(samples[k]);
    }

    std::printf("%s: %dx%d, %zu line%s\n", image_path.c_str(), image.width, image.height, lines.size(),
                lines.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto& l = lines[i];
      std::printf("%3zu  %.3f  [", i + 1, l.confidence);
      for (int k = 0; k < 4; ++k) std::printf("%s(%g,%g)", k ? " " : "", l.box[k].x, l.box[k].y);
      std::printf("]%s  %s\n", l.turned_over ? " turned over" : "", l.text.c_str());
    }
    std::printf(
        "timings (ms%s, %d thread%s): detect %.1f (preprocess %.1f, model %.1f, boxes %.1f), crop %.1f, "
        "classify %.1f, recognize %.1f; total %.1f; models loaded in %.1f\n",
        runs > 1 ? (", median of " + std::to_string(runs) + " runs").c_str() : ", first run", reader.threads(),
        reader.threads() == 1 ? "" : "s", t.det_preprocess + t.det_model + t.det_boxes, t.det_preprocess, t.det_model,
        t.det_boxes, t.crop, t.cls, t.rec, t.total, reader.load_ms());

    if (runs == 1) std::printf("(a first run also plans each input shape; --runs R times R runs after it)\n");
    auto annotated = image;
    onyx::ocr::annotate(annotated, lines);
    onyx::ocr::write_png(annotated, out_path);
    std::printf("annotated: %s\n", out_path.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "onyx-ocr: %s\n", e.what());
    return 1;
  }
  return 0;
}
