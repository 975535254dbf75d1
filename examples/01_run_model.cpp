// 01: run a model with the default session (every op, prebuilt library).
//
// Loads the bundled ResNet-50, feeds it a generated image and prints the five
// most likely classes. Inputs are matched by name; outputs come back in the
// model's output order.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

#include "onyx/onyx.hpp"

int main() {
  onyx::session s{ONYX_EXAMPLE_MODELS "/resnet50.onnx"};
  for (const auto& in : s.inputs())
    std::printf("input  %s: %s %s\n", in.name.c_str(), std::string(onyx::name(in.type.type)).c_str(),
                in.type.shape.str().c_str());

  std::vector<float> image(1 * 3 * 224 * 224);
  for (std::size_t i = 0; i < image.size(); ++i) image[i] = static_cast<float>(i % 255) / 255.0f;
  auto outputs = s.run({{s.inputs()[0].name, onyx::tensor::from(image, {1, 3, 224, 224})}});

  const auto& probs = outputs[0].as_tensor();
  auto p = probs.values<float>();
  std::vector<int> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + 5, order.end(), [&](int a, int b) { return p[a] > p[b]; });
  std::printf("output %s: %s\n", s.outputs()[0].name.c_str(), onyx::sym_shape(probs.shape()).str().c_str());
  for (int k = 0; k < 5; ++k) std::printf("  class %4d: %.6f\n", order[k], p[order[k]]);
  float total = std::accumulate(p.begin(), p.end(), 0.0f);
  return std::abs(total - 1.0f) < 1e-3f ? 0 : 1;  // softmax output sums to one
}
