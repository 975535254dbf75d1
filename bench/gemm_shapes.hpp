// The GEMM shapes the models make, shared by gemm_bench.cpp and
// gemm_pairs.cpp (names and meaning in gemm_bench.cpp's header comment).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace onyx::bench {

struct shape {
  std::string name;
  std::int64_t M, N, K;
  bool weights_are_a;  // conv: A = W (Cout x Cin*k*k); linear: B = W (K x N)
  bool trans_b = false;  // B stored N x K (ONNX Gemm transB = 1, as fully connected layers export)
};

inline std::vector<shape> shapes() {
  std::vector<shape> s;
  for (std::int64_t n : {256, 512, 1024, 2048}) s.push_back({"cube_" + std::to_string(n), n, n, n, false});
  // ResNet-50 v1's convolutions (stride-2 ones at their output size).
  struct conv {
    int hw, k, ci, co;
  };
  for (conv c : {conv{112, 7, 3, 64},                                                              // stem
                 conv{56, 1, 64, 64}, conv{56, 3, 64, 64}, conv{56, 1, 64, 256}, conv{56, 1, 256, 64},  //
                 conv{28, 1, 256, 128}, conv{28, 3, 128, 128}, conv{28, 1, 128, 512}, conv{28, 1, 512, 128},
                 conv{14, 3, 256, 256}, conv{14, 1, 256, 1024}, conv{14, 1, 1024, 256},  //
                 conv{7, 3, 512, 512}, conv{7, 1, 512, 2048}, conv{7, 1, 2048, 512}})
    s.push_back({"r50_" + std::to_string(c.hw) + "_" + std::to_string(c.k) + "x" + std::to_string(c.k) + "_" +
                     std::to_string(c.ci) + "_" + std::to_string(c.co),
                 c.co, std::int64_t{c.hw} * c.hw, std::int64_t{c.ci} * c.k * c.k, true});
  // SqueezeNet's classifier (1x1, 512 -> 1000 channels on 13x13): more
  // weights (2 MB) than L2 against a narrow B.
  s.push_back({"sqz_13_1x1_512_1000", 1000, 13 * 13, 512, true});
  // BERT-base's (hidden 768) and the 6-layer encoder's (hidden 384) layers at seq 128.
  for (auto [k, n] : {std::pair{768, 768}, {768, 3072}, {3072, 768}, {384, 384}, {384, 1536}, {1536, 384}})
    s.push_back({"bert_" + std::to_string(k) + "_" + std::to_string(n), 128, n, k, false});
  // Fully connected layers at batch 1 (Gemm, transB = 1): AlexNet/ZFNet/VGG fc6
  // and fc7. A GEMV: B is read once per call, packed or not.
  for (auto [k, n] : {std::pair{9216, 4096}, {25088, 4096}, {4096, 4096}})
    s.push_back({"fc_" + std::to_string(k) + "_" + std::to_string(n), 1, n, k, false, true});
  return s;
}

inline std::vector<float> random_floats(std::int64_t n) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

inline double flops(const shape& s) { return 2.0 * double(s.M) * double(s.N) * double(s.K); }

}  // namespace onyx::bench
