// TreeEnsemble, TreeEnsembleRegressor and TreeEnsembleClassifier against
// hand-computed results and a plain recursive reference written from the
// spec (random forests of full trees, every rule, NaN routing), on one thread
// and on a pool of 2 (rows split, and one row with the trees split); bad
// structures fail at session creation naming the node.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

#include "kernels/cpu/ml_kernels.hpp"
#include "onyx/core/thread_pool.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/runtime/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::sattr;

namespace {

attribute tattr(std::string name, tensor t) { return {std::move(name), std::move(t)}; }
tensor f32s(std::vector<float> v) { return tensor::from(v, {static_cast<std::int64_t>(v.size())}); }
tensor u8s(std::vector<std::uint8_t> v) { return tensor::from(v, {static_cast<std::int64_t>(v.size())}); }

/// A forest in TreeEnsemble's (opset 5) form, built from full trees of depth
/// `depth` over `features` features, with one reference evaluator.
struct forest_model {
  std::vector<std::int64_t> feature, true_id, false_id, true_leaf, false_leaf, missing, roots, leaf_target;
  std::vector<float> split, leaf_weight;
  std::vector<std::uint8_t> mode;
  std::int64_t targets = 1;

  forest_model(int trees, int depth, int features, std::int64_t n_targets, unsigned seed, bool mixed_rules) {
    targets = n_targets;
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> u(-1, 1);
    std::function<std::pair<bool, std::int64_t>(int)> grow = [&](int d) -> std::pair<bool, std::int64_t> {
      if (d == depth) {
        leaf_weight.push_back(std::round(u(gen) * 100) / 100);
        leaf_target.push_back(static_cast<std::int64_t>(gen() % static_cast<unsigned>(n_targets)));
        return {true, static_cast<std::int64_t>(leaf_weight.size()) - 1};
      }
      const std::int64_t i = static_cast<std::int64_t>(feature.size());
      feature.push_back(static_cast<std::int64_t>(gen() % static_cast<unsigned>(features)));
      split.push_back(std::round(u(gen) * 10) / 10);
      mode.push_back(mixed_rules ? static_cast<std::uint8_t>(gen() % 6) : 0);
      missing.push_back(gen() % 2);
      true_id.push_back(0), false_id.push_back(0), true_leaf.push_back(0), false_leaf.push_back(0);
      auto [tl, t] = grow(d + 1);
      auto [fl, f] = grow(d + 1);
      const auto k = static_cast<std::size_t>(i);
      true_leaf[k] = tl, true_id[k] = t, false_leaf[k] = fl, false_id[k] = f;
      return {false, i};
    };
    for (int t = 0; t < trees; ++t) roots.push_back(grow(0).second);
  }

  std::vector<attribute> attrs(std::int64_t aggregate, std::int64_t post) const {
    return {attr("aggregate_function", aggregate),
            attr("leaf_targetids", leaf_target),
            tattr("leaf_weights", f32s(leaf_weight)),
            attr("n_targets", targets),
            attr("nodes_falseleafs", false_leaf),
            attr("nodes_falsenodeids", false_id),
            attr("nodes_featureids", feature),
            attr("nodes_missing_value_tracks_true", missing),
            tattr("nodes_modes", u8s(mode)),
            tattr("nodes_splits", f32s(split)),
            attr("nodes_trueleafs", true_leaf),
            attr("nodes_truenodeids", true_id),
            attr("post_transform", post),
            attr("tree_roots", roots)};
  }

  /// The spec, directly: follow each tree to its leaf, aggregate.
  std::vector<double> predict(const float* x, std::int64_t aggregate) const {
    std::vector<double> out(static_cast<std::size_t>(targets), 0.0);
    std::vector<bool> seen(out.size(), false);
    for (std::int64_t r : roots) {
      std::int64_t i = r;
      for (;;) {
        const auto k = static_cast<std::size_t>(i);
        const float v = x[feature[k]], s = split[k];
        bool go = mode[k] == 0   ? v <= s
                  : mode[k] == 1 ? v < s
                  : mode[k] == 2 ? v >= s
                  : mode[k] == 3 ? v > s
                  : mode[k] == 4 ? v == s
                                 : v != s;
        if (std::isnan(v) && missing[k]) go = true;
        const bool leaf = go ? true_leaf[k] : false_leaf[k];
        i = go ? true_id[k] : false_id[k];
        if (leaf) break;
      }
      const auto l = static_cast<std::size_t>(i);
      const auto t = static_cast<std::size_t>(leaf_target[l]);
      const double w = leaf_weight[l];
      if (aggregate <= 1)
        out[t] += w;
      else if (aggregate == 2)
        out[t] = seen[t] ? std::min(out[t], w) : w;
      else
        out[t] = seen[t] ? std::max(out[t], w) : w;
      seen[t] = true;
    }
    if (aggregate == 0)
      for (auto& v : out) v /= static_cast<double>(roots.size());
    return out;
  }
};

std::vector<float> rows_with_nans(std::int64_t rows, int features, unsigned seed) {
  auto x = test::random_values<float>(static_cast<std::size_t>(rows * features), -1.2, 1.2, seed);
  for (std::size_t i = 0; i < x.size(); i += 7) x[i] = std::round(x[i] * 10) / 10;  // hit the splits exactly
  for (std::size_t i = 3; i < x.size(); i += 11) x[i] = std::nanf("");
  return x;
}

}  // namespace

TEST_CASE("TreeEnsemble: one tree by hand, every aggregate", "[ml][tree]") {
  // node 0: x0 <= 0.5 ? node 1 : leaf 2;  node 1: x1 < 2 ? leaf 0 : leaf 1.
  // tree 2 is a single leaf (3), written as node 2 with both branches leaf 3.
  std::vector<attribute> a{attr("leaf_targetids", std::vector<std::int64_t>{0, 1, 0, 1}),
                           tattr("leaf_weights", f32s({1.5f, 2.0f, -3.0f, 0.25f})),
                           attr("n_targets", std::int64_t{2}),
                           attr("nodes_featureids", std::vector<std::int64_t>{0, 1, 0}),
                           tattr("nodes_modes", u8s({0, 1, 0})),
                           tattr("nodes_splits", f32s({0.5f, 2.0f, 0.0f})),
                           attr("nodes_truenodeids", std::vector<std::int64_t>{1, 0, 3}),
                           attr("nodes_trueleafs", std::vector<std::int64_t>{0, 1, 1}),
                           attr("nodes_falsenodeids", std::vector<std::int64_t>{2, 1, 3}),
                           attr("nodes_falseleafs", std::vector<std::int64_t>{1, 1, 1}),
                           attr("tree_roots", std::vector<std::int64_t>{0, 2})};
  const tensor x = tensor::from(std::vector<float>{0.5f, 1.0f, 0.5f, 2.0f, 0.6f, 0.0f}, {3, 2});
  // Rows reach leaves (0, 3), (1, 3), (2, 3).
  auto with = [&](std::int64_t agg) {
    auto b = a;
    b.push_back(attr("aggregate_function", agg));
    return b;
  };
  auto sum = test::run_op<ops::TreeEnsemble>({x}, with(1));
  REQUIRE(sum.ok());
  REQUIRE((*sum)[0].shape() == extents{3, 2});
  test::require_close((*sum)[0], std::vector<float>{1.5f, 0.25f, 0.0f, 2.25f, -3.0f, 0.25f});
  auto avg = test::run_op<ops::TreeEnsemble>({x}, with(0));
  REQUIRE(avg.ok());
  test::require_close((*avg)[0], std::vector<float>{0.75f, 0.125f, 0.0f, 1.125f, -1.5f, 0.125f});
  auto mn = test::run_op<ops::TreeEnsemble>({x}, with(2));
  REQUIRE(mn.ok());
  test::require_close((*mn)[0], std::vector<float>{1.5f, 0.25f, 0.0f, 0.25f, -3.0f, 0.25f});
  auto mx = test::run_op<ops::TreeEnsemble>({x}, with(3));
  REQUIRE(mx.ok());
  test::require_close((*mx)[0], std::vector<float>{1.5f, 0.25f, 0.0f, 2.0f, -3.0f, 0.25f});
  // float16 (compared in float32), and float64 with a single row of rank 1.
  std::vector<float16_t> xh;
  for (float v : {0.5f, 1.0f, 0.5f, 2.0f, 0.6f, 0.0f}) xh.push_back(to_float16(v));
  auto h = test::run_op<ops::TreeEnsemble>({tensor::from(xh, {3, 2})}, with(1));
  REQUIRE(h.ok());
  REQUIRE((*h)[0].type() == dtype::float16);
  for (int i = 0; i < 6; ++i)
    CHECK(to_float((*h)[0].data<float16_t>()[i]) == std::vector<float>{1.5f, 0.25f, 0.0f, 2.25f, -3.0f, 0.25f}[i]);
  auto d = test::run_op<ops::TreeEnsemble>({tensor::from(std::vector<double>{0.6, 0.0}, {2})}, with(1));
  REQUIRE(d.ok());
  REQUIRE((*d)[0].shape() == extents{1, 2});
  test::require_close((*d)[0], std::vector<double>{-3.0, 0.25});
}

TEST_CASE("TreeEnsemble: post transforms by hand", "[ml][tree]") {
  std::vector<attribute> a{attr("leaf_targetids", std::vector<std::int64_t>{0, 1, 2}),
                           tattr("leaf_weights", f32s({1.0f, -2.0f, 0.0f})),
                           attr("n_targets", std::int64_t{3}),
                           attr("nodes_featureids", std::vector<std::int64_t>{0, 0}),
                           tattr("nodes_modes", u8s({0, 0})),
                           tattr("nodes_splits", f32s({10.0f, 10.0f})),
                           attr("nodes_truenodeids", std::vector<std::int64_t>{0, 1}),
                           attr("nodes_trueleafs", std::vector<std::int64_t>{1, 1}),
                           attr("nodes_falsenodeids", std::vector<std::int64_t>{2, 2}),
                           attr("nodes_falseleafs", std::vector<std::int64_t>{1, 1}),
                           attr("tree_roots", std::vector<std::int64_t>{0, 1})};
  // x = 0: both trees reach leaves 0 and 1: scores (1, -2, 0).
  const tensor x = tensor::from(std::vector<float>{0.0f}, {1, 1});
  auto set_weights = [](std::vector<attribute>& at, std::vector<float> w) {
    for (auto& v : at)
      if (v.name == "leaf_weights") v.data = f32s(std::move(w));
  };
  auto run = [&](std::int64_t post) {
    auto b = a;
    b.push_back(attr("post_transform", post));
    auto r = test::run_op<ops::TreeEnsemble>({x}, b);
    REQUIRE(r.ok());
    return (*r)[0];
  };
  const double e1 = std::exp(1.0), e2 = std::exp(-2.0), e0 = 1.0;
  test::require_close(run(0), std::vector<float>{1, -2, 0});
  test::require_close(
      run(1), std::vector<float>{float(e1 / (e1 + e2 + e0)), float(e2 / (e1 + e2 + e0)), float(e0 / (e1 + e2 + e0))});
  test::require_close(run(2),
                      std::vector<float>{float(1 / (1 + std::exp(-1.0))), float(1 / (1 + std::exp(2.0))), 0.5f});
  // SOFTMAX_ZERO: the zero score stays zero; others exp(v - max) / sum.
  const double z1 = 1.0, z2 = std::exp(-3.0);
  test::require_close(run(3), std::vector<float>{float(z1 / (z1 + z2)), float(z2 / (z1 + z2)), 0.0f});
  // PROBIT: sqrt(2) erfinv(2v - 1) by Winitzki's approximation, within 0.3% of the normal quantiles.
  set_weights(a, {0.3f, 0.9f, 0.5f});
  auto p = run(4);
  CHECK(p.data<float>()[0] == Approx(-0.52440).epsilon(0.003));
  CHECK(p.data<float>()[1] == Approx(1.28155).epsilon(0.003));
  CHECK(p.data<float>()[2] == 0.0f);
}

TEST_CASE("TreeEnsemble: random forests, every rule and NaNs, against the reference", "[ml][tree]") {
  thread_pool pool(2);
  for (bool mixed : {false, true})
    for (std::int64_t agg : {0, 1, 2, 3}) {
      forest_model m(37, 5, 9, 3, 7u + static_cast<unsigned>(agg), mixed);
      for (std::int64_t rows : {1, 5, 203}) {
        auto x = rows_with_nans(rows, 9, 100u + static_cast<unsigned>(rows));
        std::vector<float> expect;
        for (std::int64_t r = 0; r < rows; ++r)
          for (double v : m.predict(x.data() + r * 9, agg)) expect.push_back(static_cast<float>(v));
        for (const thread_pool* p :
             {static_cast<const thread_pool*>(nullptr), static_cast<const thread_pool*>(&pool)}) {
          INFO("mixed " << mixed << " aggregate " << agg << " rows " << rows << " pool " << (p != nullptr));
          auto r = test::run_op<ops::TreeEnsemble>({tensor::from(x, {rows, 9})}, m.attrs(agg, 0), 1, p);
          REQUIRE(r.ok());
          test::require_close((*r)[0], expect, 1e-5, 1e-5);
        }
      }
    }
}

TEST_CASE("TreeEnsemble: a big forest on one row splits the trees across the pool", "[ml][tree]") {
  thread_pool pool(2);
  forest_model m(600, 8, 20, 1, 5u, false);  // enough work per row for two chunks
  auto x = rows_with_nans(1, 20, 9u);
  const double expect = m.predict(x.data(), 1)[0];
  auto r = test::run_op<ops::TreeEnsemble>({tensor::from(x, {1, 20})}, m.attrs(1, 0), 1, &pool);
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<float>{static_cast<float>(expect)}, 1e-5, 1e-4);
}

namespace {

/// m in TreeEnsembleRegressor's / Classifier's node-list form: tree t's node
/// ids number its interior nodes and leaves in visiting order.
struct node_lists {
  std::vector<std::int64_t> treeids, nodeids, featureids, truenodeids, falsenodeids, missing;
  std::vector<std::string> modes;
  std::vector<float> values;
  std::vector<std::int64_t> w_tree, w_node, w_target;
  std::vector<float> weights;
  explicit node_lists(const forest_model& m, const std::vector<std::int64_t>& leaf_class = {}) {
    static const char* names[] = {"BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"};
    for (std::size_t t = 0; t < m.roots.size(); ++t) {
      std::int64_t next = 0;
      std::function<std::int64_t(bool, std::int64_t)> add = [&](bool leaf, std::int64_t i) -> std::int64_t {
        const std::int64_t id = next++;
        const auto at = treeids.size();
        treeids.push_back(static_cast<std::int64_t>(t)), nodeids.push_back(id);
        const auto k = static_cast<std::size_t>(i);
        if (leaf) {
          modes.push_back("LEAF"), featureids.push_back(0), values.push_back(0), truenodeids.push_back(0),
              falsenodeids.push_back(0), missing.push_back(0);
          w_tree.push_back(static_cast<std::int64_t>(t)), w_node.push_back(id);
          w_target.push_back(leaf_class.empty() ? m.leaf_target[k] : leaf_class[k]),
              weights.push_back(m.leaf_weight[k]);
          return id;
        }
        modes.push_back(names[m.mode[k]]), featureids.push_back(m.feature[k]), values.push_back(m.split[k]);
        missing.push_back(m.missing[k]), truenodeids.push_back(0), falsenodeids.push_back(0);
        const std::int64_t tid = add(m.true_leaf[k], m.true_id[k]);
        const std::int64_t fid = add(m.false_leaf[k], m.false_id[k]);
        truenodeids[at] = tid, falsenodeids[at] = fid;
        return id;
      };
      add(false, m.roots[t]);
    }
  }
  std::vector<attribute> common() const {
    return {attr("nodes_treeids", treeids),
            attr("nodes_nodeids", nodeids),
            attr("nodes_featureids", featureids),
            sattr("nodes_modes", modes),
            attr("nodes_values", values),
            attr("nodes_truenodeids", truenodeids),
            attr("nodes_falsenodeids", falsenodeids),
            attr("nodes_missing_value_tracks_true", missing)};
  }
};

std::vector<attribute> operator+(std::vector<attribute> a, const std::vector<attribute>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("TreeEnsembleRegressor: node lists, base values, aggregates, int and double inputs", "[ml][tree]") {
  thread_pool pool(2);
  forest_model m(23, 4, 6, 2, 3u, true);
  node_lists l(m);
  const char* aggs[] = {"AVERAGE", "SUM", "MIN", "MAX"};
  for (std::int64_t agg : {0, 1, 2, 3}) {
    auto a = l.common() + std::vector<attribute>{attr("aggregate_function", std::string(aggs[agg])),
                                                 attr("n_targets", std::int64_t{2}),
                                                 attr("target_treeids", l.w_tree),
                                                 attr("target_nodeids", l.w_node),
                                                 attr("target_ids", l.w_target),
                                                 attr("target_weights", l.weights),
                                                 attr("base_values", std::vector<float>{0.5f, -1.0f})};
    auto x = rows_with_nans(31, 6, 4u);
    std::vector<float> expect;
    for (std::int64_t r = 0; r < 31; ++r) {
      auto p = m.predict(x.data() + r * 6, agg);
      expect.push_back(static_cast<float>(p[0] + 0.5)), expect.push_back(static_cast<float>(p[1] - 1.0));
    }
    INFO("aggregate " << aggs[agg]);
    auto r = test::run_op<ops::TreeEnsembleRegressor>({tensor::from(x, {31, 6})}, a, 1, &pool);
    REQUIRE(r.ok());
    REQUIRE((*r)[0].type() == dtype::float32);
    test::require_close((*r)[0], expect, 1e-5, 1e-5);
    // float64 X compares in float64: the same values widened give the same leaves.
    std::vector<double> xd(x.begin(), x.end());
    auto rd = test::run_op<ops::TreeEnsembleRegressor>({tensor::from(xd, {31, 6})}, a);
    REQUIRE(rd.ok());
    test::require_close((*rd)[0], expect, 1e-5, 1e-5);
  }
  // int64 X: compared as float.
  forest_model s(5, 3, 2, 1, 11u, false);
  node_lists sl(s);
  auto a = sl.common() + std::vector<attribute>{attr("target_treeids", sl.w_tree), attr("target_nodeids", sl.w_node),
                                                attr("target_ids", sl.w_target), attr("target_weights", sl.weights),
                                                attr("post_transform", std::string("LOGISTIC"))};
  std::vector<std::int64_t> xi{-1, 0, 1, 1, 0, -1};
  std::vector<float> xf(xi.begin(), xi.end()), expect;
  for (int r = 0; r < 3; ++r)
    expect.push_back(static_cast<float>(1 / (1 + std::exp(-s.predict(xf.data() + 2 * r, 1)[0]))));
  auto ri = test::run_op<ops::TreeEnsembleRegressor>({tensor::from(xi, {3, 2})}, a);
  REQUIRE(ri.ok());
  test::require_close((*ri)[0], expect, 1e-5, 1e-6);
}

TEST_CASE("TreeEnsembleClassifier: multi-class labels and scores; the binary case as ORT", "[ml][tree]") {
  forest_model m(17, 4, 5, 3, 21u, false);
  node_lists l(m);
  auto a = l.common() + std::vector<attribute>{attr("class_treeids", l.w_tree), attr("class_nodeids", l.w_node),
                                               attr("class_ids", l.w_target), attr("class_weights", l.weights),
                                               attr("classlabels_int64s", std::vector<std::int64_t>{10, 20, 30})};
  auto x = rows_with_nans(40, 5, 8u);
  auto r = test::run_op<ops::TreeEnsembleClassifier>({tensor::from(x, {40, 5})}, a, 2);
  REQUIRE(r.ok());
  REQUIRE((*r)[0].shape() == extents{40});
  REQUIRE((*r)[1].shape() == extents{40, 3});
  std::vector<float> scores;
  for (std::int64_t i = 0; i < 40; ++i) {
    auto p = m.predict(x.data() + i * 5, 1);
    // Classes no leaf reached cannot win (ORT); the first of equal scores wins.
    std::vector<bool> reached(3, false);
    forest_model probe = m;
    for (auto& w : probe.leaf_weight) w = 1;
    auto hits = probe.predict(x.data() + i * 5, 1);
    int best = -1;
    for (int k = 0; k < 3; ++k)
      if (hits[static_cast<std::size_t>(k)] > 0 &&
          (best < 0 || p[static_cast<std::size_t>(k)] > p[static_cast<std::size_t>(best)]))
        best = k;
    CHECK((*r)[0].data<std::int64_t>()[i] == 10 * (best + 1));
    for (double v : p) scores.push_back(static_cast<float>(v));
  }
  test::require_close((*r)[1], scores, 1e-5, 1e-5);

  // String labels and SOFTMAX.
  auto s = l.common() + std::vector<attribute>{attr("class_treeids", l.w_tree),
                                               attr("class_nodeids", l.w_node),
                                               attr("class_ids", l.w_target),
                                               attr("class_weights", l.weights),
                                               sattr("classlabels_strings", std::vector<std::string>{"a", "b", "c"}),
                                               attr("post_transform", std::string("SOFTMAX"))};
  auto rs = test::run_op<ops::TreeEnsembleClassifier>({tensor::from(x, {40, 5})}, s, 2);
  REQUIRE(rs.ok());
  for (std::int64_t i = 0; i < 40; ++i) {
    const auto lab = (*r)[0].data<std::int64_t>()[i];
    CHECK((*rs)[0].data<std::string>()[i] == std::string(1, static_cast<char>('a' + lab / 10 - 1)));
  }

  // Binary (every weight on class 0, as exporters of boosted trees write it).
  // All weights >= 0: Z = (1 - s, s), label 1 when s > 0.5. Mixed signs with
  // LOGISTIC: Z = (logistic(-s), logistic(s)), label 1 when s > 0.
  for (bool mixed : {false, true}) {
    forest_model bm(3, 2, 2, 1, 2u, false);
    if (!mixed)
      for (auto& w : bm.leaf_weight) w = std::abs(w) / 3;
    node_lists bl(bm, std::vector<std::int64_t>(bm.leaf_weight.size(), 0));
    auto b = bl.common() + std::vector<attribute>{attr("class_treeids", bl.w_tree),
                                                  attr("class_nodeids", bl.w_node),
                                                  attr("class_ids", bl.w_target),
                                                  attr("class_weights", bl.weights),
                                                  attr("classlabels_int64s", std::vector<std::int64_t>{4, 7}),
                                                  attr("post_transform", std::string(mixed ? "LOGISTIC" : "NONE"))};
    auto xb = rows_with_nans(12, 2, 5u);
    auto rb = test::run_op<ops::TreeEnsembleClassifier>({tensor::from(xb, {12, 2})}, b, 2);
    REQUIRE(rb.ok());
    std::vector<float> zb;
    for (std::int64_t i = 0; i < 12; ++i) {
      const double sc = bm.predict(xb.data() + i * 2, 1)[0];
      INFO("mixed " << mixed << " row " << i << " score " << sc);
      CHECK((*rb)[0].data<std::int64_t>()[i] == (sc > (mixed ? 0.0 : 0.5) ? 7 : 4));
      if (mixed)
        zb.push_back(static_cast<float>(1 / (1 + std::exp(sc)))),
            zb.push_back(static_cast<float>(1 / (1 + std::exp(-sc))));
      else
        zb.push_back(static_cast<float>(1 - sc)), zb.push_back(static_cast<float>(sc));
    }
    test::require_close((*rb)[1], zb, 1e-5, 1e-6);
  }
}

namespace {

std::string open_error(graph::model_builder& b, const std::string& name) {
  auto p = test::temp_path("tree_ensemble_" + name + ".onnx");
  REQUIRE(b.save(p).ok());
  auto s = basic_session<prebuilt_registry<op_list<ops::TreeEnsemble, ops::TreeEnsembleRegressor>, backend_list<cpu>>>::open(p);
  REQUIRE_FALSE(s.ok());
  return s.error().message();
}

graph::model_builder one_node(std::vector<attribute> a, const char* op = "TreeEnsemble", int version = 5) {
  graph::model_builder b{21};
  b.import("ai.onnx.ml", version);
  auto x = b.input("x", dtype::float32, {"N", 2});
  graph::graph_builder::attributes attrs;
  for (auto& at : a)
    std::visit(
        [&](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, std::string>)
            attrs.emplace_back(at.name, graph::graph_builder::attribute_value(v.c_str()));
          else if constexpr (std::is_constructible_v<graph::graph_builder::attribute_value, const V&>)
            attrs.emplace_back(at.name, graph::graph_builder::attribute_value(v));
        },
        at.data);
  b.output(b.node({"ai.onnx.ml", op}, {x}, attrs));
  return b;
}

std::vector<attribute> good_tree() {
  return {attr("leaf_targetids", std::vector<std::int64_t>{0, 0}),
          tattr("leaf_weights", f32s({1.0f, 2.0f})),
          attr("n_targets", std::int64_t{1}),
          attr("nodes_featureids", std::vector<std::int64_t>{1}),
          tattr("nodes_modes", u8s({0})),
          tattr("nodes_splits", f32s({0.0f})),
          attr("nodes_truenodeids", std::vector<std::int64_t>{0}),
          attr("nodes_trueleafs", std::vector<std::int64_t>{1}),
          attr("nodes_falsenodeids", std::vector<std::int64_t>{1}),
          attr("nodes_falseleafs", std::vector<std::int64_t>{1}),
          attr("tree_roots", std::vector<std::int64_t>{0})};
}

void set(std::vector<attribute>& a, attribute v) {
  for (auto& x : a)
    if (x.name == v.name) x = std::move(v);
}

}  // namespace

TEST_CASE("TreeEnsemble ops: bad structures fail at session creation, naming the node", "[ml][tree]") {
  {
    auto b = one_node(good_tree());
    auto p = test::temp_path("tree_ensemble_good.onnx");
    REQUIRE(b.save(p).ok());
    REQUIRE(basic_session<prebuilt_registry<op_list<ops::TreeEnsemble>, backend_list<cpu>>>::open(p).ok());
  }
  auto a = good_tree();
  set(a, attr("nodes_falseleafs", std::vector<std::int64_t>{0}));  // false branch: node 1 of 1
  auto e = open_error(*std::make_unique<graph::model_builder>(one_node(a)), "node_out");
  CHECK_THAT(e, Catch::Contains("n0") && Catch::Contains("node 0's false branch points to node 1"));

  a = good_tree();
  set(a, attr("nodes_truenodeids", std::vector<std::int64_t>{5}));
  e = open_error(*std::make_unique<graph::model_builder>(one_node(a)), "leaf_out");
  CHECK_THAT(e, Catch::Contains("n0") && Catch::Contains("leaf 5"));

  a = good_tree();
  set(a, attr("nodes_featureids", std::vector<std::int64_t>{2}));
  e = open_error(*std::make_unique<graph::model_builder>(one_node(a)), "feature");
  CHECK_THAT(e, Catch::Contains("n0") && Catch::Contains("feature 2") && Catch::Contains("2 features"));

  a = good_tree();
  set(a, tattr("nodes_splits", f32s({0.0f, 1.0f})));
  e = open_error(*std::make_unique<graph::model_builder>(one_node(a)), "lengths");
  CHECK_THAT(e, Catch::Contains("n0") && Catch::Contains("nodes_splits has 2 entries"));

  a = good_tree();
  set(a, attr("nodes_falseleafs", std::vector<std::int64_t>{0}));
  set(a, attr("nodes_falsenodeids", std::vector<std::int64_t>{0}));  // a cycle back to the root
  e = open_error(*std::make_unique<graph::model_builder>(one_node(a)), "cycle");
  CHECK_THAT(e, Catch::Contains("n0") && Catch::Contains("reached twice"));

  // The node-list form: a child id absent from its tree, mismatched lists.
  std::vector<attribute> r{attr("nodes_treeids", std::vector<std::int64_t>{0, 0, 0}),
                           attr("nodes_nodeids", std::vector<std::int64_t>{0, 1, 2}),
                           attr("nodes_featureids", std::vector<std::int64_t>{0, 0, 0}),
                           sattr("nodes_modes", std::vector<std::string>{"BRANCH_LEQ", "LEAF", "LEAF"}),
                           attr("nodes_values", std::vector<float>{0, 0, 0}),
                           attr("nodes_truenodeids", std::vector<std::int64_t>{1, 0, 0}),
                           attr("nodes_falsenodeids", std::vector<std::int64_t>{9, 0, 0}),
                           attr("target_treeids", std::vector<std::int64_t>{0, 0}),
                           attr("target_nodeids", std::vector<std::int64_t>{1, 2}),
                           attr("target_ids", std::vector<std::int64_t>{0, 0}),
                           attr("target_weights", std::vector<float>{1, 2})};
  e = open_error(*std::make_unique<graph::model_builder>(one_node(r, "TreeEnsembleRegressor", 3)), "list_child");
  CHECK_THAT(e, Catch::Contains("n0") && Catch::Contains("node id 9"));
  set(r, attr("nodes_falsenodeids", std::vector<std::int64_t>{2, 0, 0}));
  set(r, attr("target_weights", std::vector<float>{1}));
  e = open_error(*std::make_unique<graph::model_builder>(one_node(r, "TreeEnsembleRegressor", 3)), "list_lengths");
  CHECK_THAT(e, Catch::Contains("n0") && Catch::Contains("different lengths"));
}
