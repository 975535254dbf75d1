// bench/ml_models.cpp (onyx-ml-bench-models): the classical-ML benchmark
// models, built with onyx's model builder from fixed seeds, and a comparer of
// two runtimes' outputs.
//
//   onyx-ml-bench-models DIR
//     writes DIR/<model>_b<batch>/model.onnx and test_data_set_0/input_0.pb
//     (uniform [0, 1) features) for batch 1 and 1000 of:
//       ml_gbt      TreeEnsembleRegressor, 300 trees of depth 6, 32 features
//                   (a gradient-boosted regressor: SUM, base value 0.5)
//       ml_rf       TreeEnsembleClassifier, 100 trees of depth 10, 32 features,
//                   3 classes (a random forest: class probabilities / 100)
//       ml_logreg   Scaler + LinearClassifier (32 features, 3 classes, SOFTMAX)
//       ml_svr      SVMRegressor, RBF, 1000 support vectors, 32 features
//   onyx-ml-bench-models --checks DIR
//     writes small models (batch 50, 8 features) that pin down ORT's
//     behaviour where the spec is silent: SVMClassifier (3 classes with and
//     without Platt probabilities, 2 classes, liblinear mode), the binary
//     TreeEnsembleClassifier, TreeEnsemble (opset 5) with LOGISTIC, the
//     one-column LinearClassifier, LinearRegressor, Normalizer; compared, not
//     timed.
//   onyx-ml-bench-models --compare EXPECTED_DIR ACTUAL_DIR [RTOL]
//     compares output_<i>.pb of the two folders (onyx-run / run_ort.js
//     --output-dir): numbers within RTOL (default 1e-5) relative (plus 1e-6
//     absolute), labels exactly; prints the largest difference; exit 1 on a
//     mismatch.
// bench/ml_compare.sh runs both steps and bench/compare_ort.sh.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "onyx/graph/model_builder.hpp"
#include "onyx/graph/tensor_proto.hpp"

namespace {

using namespace onyx;
namespace fs = std::filesystem;
using attrs = graph::graph_builder::attributes;

constexpr int features = 32;

/// Full binary trees in the node-list form of TreeEnsembleRegressor/Classifier.
struct trees {
  std::vector<std::int64_t> treeids, nodeids, featureids, truenodeids, falsenodeids;
  std::vector<std::string> modes;
  std::vector<float> values;
  std::vector<std::int64_t> leaf_tree, leaf_node;

  trees(int count, int depth, std::mt19937& gen) {
    std::uniform_real_distribution<float> u(0, 1);
    for (int t = 0; t < count; ++t) {
      // Heap numbering: node i has children 2i+1, 2i+2; the last level is leaves.
      const int nodes = (1 << (depth + 1)) - 1, interior = (1 << depth) - 1;
      for (int i = 0; i < nodes; ++i) {
        treeids.push_back(t), nodeids.push_back(i);
        if (i < interior) {
          modes.push_back("BRANCH_LEQ");
          featureids.push_back(static_cast<std::int64_t>(gen() % features));
          values.push_back(u(gen));
          truenodeids.push_back(2 * i + 1), falsenodeids.push_back(2 * i + 2);
        } else {
          modes.push_back("LEAF"), featureids.push_back(0), values.push_back(0);
          truenodeids.push_back(0), falsenodeids.push_back(0);
          leaf_tree.push_back(t), leaf_node.push_back(i);
        }
      }
    }
  }
  void add_to(attrs& a) const {
    a.emplace_back("nodes_treeids", treeids), a.emplace_back("nodes_nodeids", nodeids);
    a.emplace_back("nodes_featureids", featureids), a.emplace_back("nodes_modes", modes);
    a.emplace_back("nodes_values", values), a.emplace_back("nodes_truenodeids", truenodeids);
    a.emplace_back("nodes_falsenodeids", falsenodeids);
  }
};

graph::model_builder start(std::int64_t batch, std::string& x) {
  graph::model_builder b{17};
  b.import("ai.onnx.ml", 3);
  x = b.input("X", dtype::float32, {batch, features});
  return b;
}

graph::model_builder gbt(std::int64_t batch) {
  std::mt19937 gen(1);
  std::string x;
  auto b = start(batch, x);
  trees t(300, 6, gen);
  std::normal_distribution<float> w(0, 0.1f);
  attrs a;
  t.add_to(a);
  std::vector<std::int64_t> ids(t.leaf_tree.size(), 0);
  std::vector<float> weights;
  for (std::size_t i = 0; i < ids.size(); ++i) weights.push_back(w(gen));
  a.emplace_back("target_treeids", t.leaf_tree), a.emplace_back("target_nodeids", t.leaf_node);
  a.emplace_back("target_ids", ids), a.emplace_back("target_weights", weights);
  a.emplace_back("n_targets", 1), a.emplace_back("aggregate_function", "SUM");
  a.emplace_back("base_values", std::vector<float>{0.5f}), a.emplace_back("post_transform", "NONE");
  b.output(b.node({"ai.onnx.ml", "TreeEnsembleRegressor"}, {x}, a));
  return b;
}

graph::model_builder rf(std::int64_t batch) {
  std::mt19937 gen(2);
  std::string x;
  auto b = start(batch, x);
  trees t(100, 10, gen);
  std::uniform_real_distribution<float> u(0, 1);
  attrs a;
  t.add_to(a);
  std::vector<std::int64_t> tree_of, node_of, class_of;
  std::vector<float> weights;
  for (std::size_t i = 0; i < t.leaf_tree.size(); ++i) {
    float p[3] = {u(gen), u(gen), u(gen)};
    const float sum = p[0] + p[1] + p[2];
    for (int k = 0; k < 3; ++k) {
      tree_of.push_back(t.leaf_tree[i]), node_of.push_back(t.leaf_node[i]), class_of.push_back(k);
      weights.push_back(p[k] / sum / 100);
    }
  }
  a.emplace_back("class_treeids", tree_of), a.emplace_back("class_nodeids", node_of);
  a.emplace_back("class_ids", class_of), a.emplace_back("class_weights", weights);
  a.emplace_back("classlabels_int64s", std::vector<std::int64_t>{0, 1, 2}), a.emplace_back("post_transform", "NONE");
  auto outs = b.node({"ai.onnx.ml", "TreeEnsembleClassifier"}, {x}, a, 2);
  b.output(outs[0]), b.output(outs[1]);
  return b;
}

graph::model_builder logreg(std::int64_t batch) {
  std::mt19937 gen(3);
  std::string x;
  auto b = start(batch, x);
  std::normal_distribution<float> n(0, 1);
  std::vector<float> offset, scale, coef, intercepts;
  for (int f = 0; f < features; ++f) offset.push_back(0.5f + 0.1f * n(gen)), scale.push_back(3.0f + n(gen) * 0.2f);
  for (int k = 0; k < 3 * features; ++k) coef.push_back(n(gen) * 0.5f);
  for (int k = 0; k < 3; ++k) intercepts.push_back(n(gen));
  auto s = b.node({"ai.onnx.ml", "Scaler"}, {x}, {{"offset", offset}, {"scale", scale}});
  auto outs = b.node({"ai.onnx.ml", "LinearClassifier"}, {s},
                     {{"coefficients", coef},
                      {"intercepts", intercepts},
                      {"classlabels_ints", std::vector<std::int64_t>{0, 1, 2}},
                      {"multi_class", 1},
                      {"post_transform", "SOFTMAX"}},
                     2);
  b.output(outs[0]), b.output(outs[1]);
  return b;
}

graph::model_builder svr(std::int64_t batch) {
  std::mt19937 gen(4);
  std::string x;
  auto b = start(batch, x);
  std::uniform_real_distribution<float> u(0, 1);
  std::normal_distribution<float> n(0, 1);
  const int vectors = 1000;
  std::vector<float> sv, coef;
  for (int i = 0; i < vectors * features; ++i) sv.push_back(u(gen));
  for (int i = 0; i < vectors; ++i) coef.push_back(n(gen));
  b.output(b.node({"ai.onnx.ml", "SVMRegressor"}, {x},
                  {{"kernel_type", "RBF"},
                   {"kernel_params", std::vector<float>{0.1f, 0.0f, 3.0f}},
                   {"n_supports", vectors},
                   {"support_vectors", sv},
                   {"coefficients", coef},
                   {"rho", std::vector<float>{0.25f}},
                   {"post_transform", "NONE"}}));
  return b;
}

int write_models(const fs::path& dir) {
  struct entry {
    const char* name;
    graph::model_builder (*make)(std::int64_t);
  };
  for (auto [name, make] : {entry{"ml_gbt", gbt}, entry{"ml_rf", rf}, entry{"ml_logreg", logreg}, entry{"ml_svr", svr}})
    for (std::int64_t batch : {1, 1000}) {
      const fs::path d = dir / (std::string(name) + "_b" + std::to_string(batch));
      fs::create_directories(d / "test_data_set_0");
      if (auto st = make(batch).save(d / "model.onnx"); !st.ok()) {
        std::fprintf(stderr, "%s: %s\n", d.c_str(), st.message().c_str());
        return 1;
      }
      std::mt19937 gen(static_cast<unsigned>(100 + batch));
      std::uniform_real_distribution<float> u(0, 1);
      std::vector<float> v(static_cast<std::size_t>(batch * features));
      for (auto& e : v) e = u(gen);
      if (auto st = graph::write_proto_file(d / "test_data_set_0" / "input_0.pb",
                                            graph::tensor_to_proto(tensor::from(v, {batch, features}), "X"));
          !st.ok()) {
        std::fprintf(stderr, "%s: %s\n", d.c_str(), st.message().c_str());
        return 1;
      }
      std::printf("%s\n", (d / "model.onnx").c_str());
    }
  return 0;
}

// --- behaviour checks (compared against ORT, not timed) ---

constexpr int check_features = 8;
constexpr std::int64_t check_batch = 50;

graph::model_builder check_start(std::string& x, int ml_opset = 3) {
  graph::model_builder b{17};
  b.import("ai.onnx.ml", ml_opset);
  x = b.input("X", dtype::float32, {check_batch, check_features});
  return b;
}

std::vector<float> normals(std::size_t n, unsigned seed, float sd = 1) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d(0, sd);
  std::vector<float> v(n);
  for (auto& e : v) e = d(gen);
  return v;
}

graph::model_builder svc(int classes, bool proba, const char* kernel, const char* post, unsigned seed) {
  std::string x;
  auto b = check_start(x);
  std::vector<std::int64_t> per_class;
  std::int64_t total = 0;
  for (int c = 0; c < classes; ++c) per_class.push_back(3 + c), total += 3 + c;
  attrs a{{"kernel_type", kernel},
          {"kernel_params", std::vector<float>{0.3f, 0.1f, 2.0f}},
          {"vectors_per_class", per_class},
          {"support_vectors", normals(static_cast<std::size_t>(total * check_features), seed)},
          {"coefficients", normals(static_cast<std::size_t>((classes - 1) * total), seed + 1)},
          {"rho", normals(static_cast<std::size_t>(classes * (classes - 1) / 2), seed + 2, 0.3f)},
          {"classlabels_ints", classes == 2 ? std::vector<std::int64_t>{4, 9} : std::vector<std::int64_t>{0, 1, 2}},
          {"post_transform", post}};
  if (proba) {
    auto pa = normals(static_cast<std::size_t>(classes * (classes - 1) / 2), seed + 3);
    for (auto& v : pa) v = -std::abs(v) - 0.5f;
    a.emplace_back("prob_a", pa);
    a.emplace_back("prob_b", normals(pa.size(), seed + 4, 0.2f));
  }
  auto outs = b.node({"ai.onnx.ml", "SVMClassifier"}, {x}, a, 2);
  b.output(outs[0]), b.output(outs[1]);
  return b;
}

graph::model_builder svm_liblinear() {
  std::string x;
  auto b = check_start(x);
  auto outs = b.node({"ai.onnx.ml", "SVMClassifier"}, {x},
                     {{"kernel_type", "LINEAR"},
                      {"kernel_params", std::vector<float>{0.0f, 0.0f, 0.0f}},
                      {"coefficients", normals(3 * check_features, 31)},
                      {"rho", std::vector<float>{0.2f}},
                      {"classlabels_ints", std::vector<std::int64_t>{5, 6, 7}}},
                     2);
  b.output(outs[0]), b.output(outs[1]);
  return b;
}

graph::model_builder tree_binary(bool mixed, const char* post, std::vector<float> base) {
  std::mt19937 gen(mixed ? 41 : 42);
  std::string x;
  auto b = check_start(x);
  trees t(7, 3, gen);
  for (auto& f : t.featureids) f %= check_features;
  for (auto& v : t.values) v = v * 2 - 1;
  attrs a;
  t.add_to(a);
  std::vector<float> w = normals(t.leaf_tree.size(), mixed ? 43 : 44, 0.3f);
  if (!mixed)
    for (auto& v : w) v = std::abs(v) / 5;
  a.emplace_back("class_treeids", t.leaf_tree), a.emplace_back("class_nodeids", t.leaf_node);
  a.emplace_back("class_ids", std::vector<std::int64_t>(t.leaf_tree.size(), 0)), a.emplace_back("class_weights", w);
  a.emplace_back("classlabels_int64s", std::vector<std::int64_t>{0, 1}), a.emplace_back("post_transform", post);
  if (!base.empty()) a.emplace_back("base_values", base);
  auto outs = b.node({"ai.onnx.ml", "TreeEnsembleClassifier"}, {x}, a, 2);
  b.output(outs[0]), b.output(outs[1]);
  return b;
}

graph::model_builder tree_v5(std::int64_t aggregate, std::int64_t post) {
  std::mt19937 gen(51);
  std::uniform_real_distribution<float> u(-1, 1);
  std::string x;
  auto b = check_start(x, 5);
  // 4 full trees of depth 3 in TreeEnsemble's form, 2 targets.
  std::vector<std::int64_t> feat, tid, fid, tleaf, fleaf, roots, targets;
  std::vector<float> splits, weights;
  std::vector<std::uint8_t> modes;
  for (int t = 0; t < 4; ++t) {
    const std::int64_t base = static_cast<std::int64_t>(feat.size()), leaf0 = static_cast<std::int64_t>(weights.size());
    roots.push_back(base);
    for (int i = 0; i < 7; ++i) {
      feat.push_back(static_cast<std::int64_t>(gen() % check_features)), splits.push_back(u(gen));
      modes.push_back(static_cast<std::uint8_t>(gen() % 4));
      const bool last = i >= 3;
      tleaf.push_back(last), fleaf.push_back(last);
      tid.push_back(last ? leaf0 + 2 * (i - 3) : base + 2 * i + 1);
      fid.push_back(last ? leaf0 + 2 * (i - 3) + 1 : base + 2 * i + 2);
    }
    for (int l = 0; l < 8; ++l) weights.push_back(u(gen)), targets.push_back(static_cast<std::int64_t>(gen() % 2));
  }
  b.output(b.node({"ai.onnx.ml", "TreeEnsemble"}, {x},
                  {{"aggregate_function", aggregate},
                   {"post_transform", post},
                   {"n_targets", 2},
                   {"tree_roots", roots},
                   {"nodes_featureids", feat},
                   {"nodes_splits", tensor::from(splits, {static_cast<std::int64_t>(splits.size())})},
                   {"nodes_modes", tensor::from(modes, {static_cast<std::int64_t>(modes.size())})},
                   {"nodes_truenodeids", tid},
                   {"nodes_falsenodeids", fid},
                   {"nodes_trueleafs", tleaf},
                   {"nodes_falseleafs", fleaf},
                   {"leaf_targetids", targets},
                   {"leaf_weights", tensor::from(weights, {static_cast<std::int64_t>(weights.size())})}}));
  return b;
}

graph::model_builder linear_binary(const char* post) {
  std::string x;
  auto b = check_start(x);
  auto outs = b.node({"ai.onnx.ml", "LinearClassifier"}, {x},
                     {{"coefficients", normals(check_features, 61)},
                      {"intercepts", std::vector<float>{0.1f}},
                      {"classlabels_ints", std::vector<std::int64_t>{3, 8}},
                      {"post_transform", post}},
                     2);
  b.output(outs[0]), b.output(outs[1]);
  return b;
}

graph::model_builder linear_regressor() {
  std::string x;
  auto b = check_start(x);
  b.output(b.node({"ai.onnx.ml", "LinearRegressor"}, {x},
                  {{"coefficients", normals(2 * check_features, 71)},
                   {"intercepts", std::vector<float>{0.5f, -0.5f}},
                   {"targets", 2}}));
  return b;
}

graph::model_builder normalizer(const char* norm) {
  std::string x;
  auto b = check_start(x);
  b.output(b.node({"ai.onnx.ml", "Normalizer"}, {x}, {{"norm", norm}}));
  return b;
}

int write_checks(const fs::path& dir) {
  struct entry {
    std::string name;
    graph::model_builder model;
  };
  std::vector<entry> all;
  all.push_back({"svc3_rbf", svc(3, false, "RBF", "NONE", 1)});
  all.push_back({"svc3_poly_proba", svc(3, true, "POLY", "NONE", 2)});
  all.push_back({"svc2_linear", svc(2, false, "LINEAR", "NONE", 3)});
  all.push_back({"svc2_sigmoid_logistic", svc(2, false, "SIGMOID", "LOGISTIC", 4)});
  all.push_back({"svc2_rbf_proba", svc(2, true, "RBF", "NONE", 5)});
  all.push_back({"svm_liblinear3", svm_liblinear()});
  all.push_back({"tree_binary_positive", tree_binary(false, "NONE", {})});
  all.push_back({"tree_binary_logistic", tree_binary(true, "LOGISTIC", {})});
  all.push_back({"tree_binary_base1", tree_binary(true, "NONE", {0.2f})});
  // post_transform 1 and 2 are left out: ORT 1.30 swaps them (see ops/tree_ensemble.hpp).
  all.push_back({"tree_v5_sum_softmax_zero", tree_v5(1, 3)});
  all.push_back({"tree_v5_max", tree_v5(3, 0)});
  all.push_back({"tree_v5_min_probit", tree_v5(2, 4)});
  all.push_back({"tree_binary_mixed_none", tree_binary(true, "NONE", {})});
  all.push_back({"tree_v5_average", tree_v5(0, 0)});
  all.push_back({"linear_binary_none", linear_binary("NONE")});
  all.push_back({"linear_binary_logistic", linear_binary("LOGISTIC")});
  all.push_back({"linear_regressor", linear_regressor()});
  all.push_back({"normalizer_l2", normalizer("L2")});
  all.push_back({"normalizer_max", normalizer("MAX")});
  for (auto& [name, model] : all) {
    const fs::path d = dir / ("check_" + name);
    fs::create_directories(d / "test_data_set_0");
    if (auto st = model.save(d / "model.onnx"); !st.ok()) {
      std::fprintf(stderr, "%s: %s\n", d.c_str(), st.message().c_str());
      return 1;
    }
    auto v = normals(static_cast<std::size_t>(check_batch * check_features), 7);
    if (auto st = graph::write_proto_file(d / "test_data_set_0" / "input_0.pb",
                                          graph::tensor_to_proto(tensor::from(v, {check_batch, check_features}), "X"));
        !st.ok()) {
      std::fprintf(stderr, "%s: %s\n", d.c_str(), st.message().c_str());
      return 1;
    }
    std::printf("%s\n", (d / "model.onnx").c_str());
  }
  return 0;
}

int compare(const fs::path& want_dir, const fs::path& got_dir, double rtol) {
  int bad = 0;
  for (int i = 0;; ++i) {
    const fs::path w = want_dir / ("output_" + std::to_string(i) + ".pb"),
                   g = got_dir / ("output_" + std::to_string(i) + ".pb");
    if (!fs::exists(w)) {
      if (i == 0) std::fprintf(stderr, "no %s\n", w.c_str()), bad = 1;
      break;
    }
    auto a = graph::read_value_file(w);
    auto b = graph::read_value_file(g);
    if (!a.ok() || !b.ok() || !a->is_tensor() || !b->is_tensor()) {
      std::fprintf(stderr, "output %d: cannot read both as tensors\n", i);
      return 1;
    }
    const tensor &x = a->as_tensor(), &y = b->as_tensor();
    if (x.type() != y.type() || x.shape() != y.shape()) {
      std::fprintf(stderr, "output %d: types or shapes differ\n", i);
      bad = 1;
      continue;
    }
    double worst = 0;
    std::int64_t mismatches = 0;
    for (std::int64_t k = 0; k < x.size(); ++k) {
      if (x.type() == dtype::int64) {
        mismatches += x.data<std::int64_t>()[k] != y.data<std::int64_t>()[k];
        continue;
      }
      if (x.type() == dtype::string) {
        mismatches += x.data<std::string>()[k] != y.data<std::string>()[k];
        continue;
      }
      const double e = x.type() == dtype::float64 ? x.data<double>()[k] : x.data<float>()[k];
      const double o = y.type() == dtype::float64 ? y.data<double>()[k] : y.data<float>()[k];
      const double d = std::abs(e - o);
      worst = std::max(worst, d / std::max(std::abs(e), 1e-30));
      if (d > 1e-6 + rtol * std::abs(e) && mismatches++ < 4)
        std::printf("  element %lld: expected %.7g, got %.7g\n", static_cast<long long>(k), e, o);
    }
    std::printf("output %d: %lld values, %lld outside tolerance, largest relative difference %.3g\n", i,
                static_cast<long long>(x.size()), static_cast<long long>(mismatches), worst);
    bad |= mismatches > 0;
  }
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--checks") return write_checks(argv[2]);
  if (argc >= 4 && std::string(argv[1]) == "--compare")
    return compare(argv[2], argv[3], argc > 4 ? std::stod(argv[4]) : 1e-5);
  if (argc != 2) {
    std::fprintf(stderr, "usage: onyx-ml-bench-models DIR | --checks DIR | --compare EXPECTED_DIR ACTUAL_DIR [RTOL]\n");
    return 2;
  }
  return write_models(argv[1]);
}
