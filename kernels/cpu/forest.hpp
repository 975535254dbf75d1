// kernels/cpu/forest.hpp: the tree-ensemble engine shared by TreeEnsemble,
// TreeEnsembleRegressor and TreeEnsembleClassifier.
//
// Each op's prepare translates its attributes into a `forest_spec` (global
// node and leaf tables, children as (leaf?, index), one root per tree) and
// `build_forest` checks it and flattens it:
//   - nodes are renumbered per tree in depth-first order into one array of
//     16-byte (float) or 24-byte (double) records {split, feature|mode bits,
//     next[false], next[true]}; a negative `next` is ~leaf. A step is one
//     load of the node, one load of the feature and an indexed select of the
//     child, with no branch on the comparison's outcome;
//   - every leaf owns a run of (target, weight) pairs.
// Comparisons happen in E (float, or double when the input or the thresholds
// are double), which reproduces ORT's mixed-type comparisons exactly: it
// compares the input against the threshold in the wider of the two types.
//
// Evaluation: rows in blocks of `block_rows`, each block walked tree by tree
// (the tree's nodes stay in cache across the block's rows), 8 rows in
// lockstep so their dependent load chains overlap; leftover rows walk 8
// trees in lockstep instead. Batches are split
// by rows across the pool; a few rows with many trees are split by trees, each
// chunk aggregating into its own scores, merged in chunk order. Scores are
// aggregated in double.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "onyx/core/parallel.hpp"
#include "onyx/core/status.hpp"

namespace onyx::kernels::cpu::forest {

/// Branch rules, numbered as TreeEnsemble's nodes_modes.
enum class rule : std::uint8_t { leq = 0, lt = 1, gte = 2, gt = 3, eq = 4, neq = 5, member = 6 };
/// Aggregate functions, numbered as TreeEnsemble's aggregate_function.
enum class aggregate : std::uint8_t { average = 0, sum = 1, min = 2, max = 3 };

/// A child: a node or a leaf, by index into the spec's tables.
struct child {
  bool leaf = false;
  std::int64_t index = 0;
};

/// An ensemble as an op's attributes describe it, before checking.
template <class E>
struct forest_spec {
  std::vector<E> split;
  std::vector<std::int64_t> feature;
  std::vector<rule> mode;
  std::vector<std::uint8_t> missing_true;                            // empty: all false
  std::vector<child> on_true, on_false;                              // per node
  std::vector<std::vector<E>> members;                               // per node with rule::member
  std::vector<std::vector<std::pair<std::int64_t, double>>> leaves;  // (target, weight) per leaf
  std::vector<child> roots;
  std::int64_t n_targets = 1;
  aggregate agg = aggregate::sum;
};

template <class E>
struct flat_node {
  E split;
  std::uint32_t bits;    // feature (low 24 bits) | rule << 24 | missing_true << 28
  std::int32_t next[2];  // [false, true]; negative: ~leaf
};

inline constexpr std::uint32_t feature_mask = (1u << 24) - 1;
inline constexpr std::uint32_t missing_bit = 1u << 28;

template <class E>
struct flat_forest {
  std::vector<flat_node<E>> nodes;
  std::vector<std::int32_t> roots;       // per tree: node index or ~leaf
  std::vector<std::int32_t> leaf_begin;  // leaves + 1 entries into the pairs
  std::vector<std::int32_t> pair_target;
  std::vector<double> pair_weight;
  std::vector<std::vector<E>> member_sets;  // sorted; a member node's split holds its set number
  std::int64_t n_targets = 1, width = 0;    // width: max feature + 1
  aggregate agg = aggregate::sum;
  rule uniform = rule::leq;  // the one rule of every node, when is_uniform
  bool is_uniform = true, any_missing = false;
  std::int64_t max_depth = 0;
};

namespace detail {

template <class E>
inline bool compare(rule r, E x, E s, const flat_forest<E>& f) {
  switch (r) {
    case rule::leq:
      return x <= s;
    case rule::lt:
      return x < s;
    case rule::gte:
      return x >= s;
    case rule::gt:
      return x > s;
    case rule::eq:
      return x == s;
    case rule::neq:
      return x != s;
    case rule::member: {
      const auto& set = f.member_sets[static_cast<std::size_t>(s)];
      return std::binary_search(set.begin(), set.end(), x);
    }
  }
  return false;
}

}  // namespace detail

/// Checks `s` and flattens it. Errors name `what` (the op) and the node or
/// attribute at fault; `width` is the input's feature count when known (else -1).
template <class E>
result<flat_forest<E>> build_forest(const forest_spec<E>& s, std::int64_t width) {
  flat_forest<E> f;
  const std::int64_t n_nodes = static_cast<std::int64_t>(s.split.size());
  const std::int64_t n_leaves = static_cast<std::int64_t>(s.leaves.size());
  auto bad = [](std::string m) { return status(errc::invalid_graph, std::move(m)); };
  if (s.n_targets < 1) return bad("n_targets must be at least 1, got " + std::to_string(s.n_targets));
  if (s.roots.empty()) return bad("the ensemble has no trees");
  if (n_nodes > std::numeric_limits<std::int32_t>::max() / 2 || n_leaves > std::numeric_limits<std::int32_t>::max() / 2)
    return bad("too many nodes");
  f.n_targets = s.n_targets;
  f.agg = s.agg;
  // Leaves: (target, weight) runs.
  f.leaf_begin.reserve(static_cast<std::size_t>(n_leaves) + 1);
  for (std::int64_t l = 0; l < n_leaves; ++l) {
    f.leaf_begin.push_back(static_cast<std::int32_t>(f.pair_target.size()));
    for (auto [t, w] : s.leaves[static_cast<std::size_t>(l)]) {
      if (t < 0 || t >= s.n_targets)
        return bad("leaf " + std::to_string(l) + " has target " + std::to_string(t) + ", outside [0, " +
                   std::to_string(s.n_targets) + ")");
      f.pair_target.push_back(static_cast<std::int32_t>(t));
      f.pair_weight.push_back(w);
    }
  }
  f.leaf_begin.push_back(static_cast<std::int32_t>(f.pair_target.size()));
  // Nodes, depth first from each root; a node reached twice is an error.
  std::vector<std::int32_t> placed(static_cast<std::size_t>(n_nodes), -1);
  std::int64_t max_feature = -1;
  auto check_child = [&](std::int64_t from, const child& c, const char* side) -> status {
    if (c.leaf ? (c.index < 0 || c.index >= n_leaves) : (c.index < 0 || c.index >= n_nodes))
      return bad("node " + std::to_string(from) + "'s " + side + " branch points to " + (c.leaf ? "leaf " : "node ") +
                 std::to_string(c.index) + ", outside the " + std::to_string(c.leaf ? n_leaves : n_nodes) +
                 (c.leaf ? " leaves" : " nodes"));
    return ok();
  };
  struct frame {
    std::int64_t node;
    std::int32_t parent;  // flat index, or -1 for a root
    int side;             // which of the parent's `next` to fill
    std::int64_t depth;
  };
  std::vector<frame> stack;
  for (std::size_t t = 0; t < s.roots.size(); ++t) {
    const child& r = s.roots[t];
    if (r.leaf ? (r.index < 0 || r.index >= n_leaves) : (r.index < 0 || r.index >= n_nodes))
      return bad("tree " + std::to_string(t) + "'s root " + std::to_string(r.index) + " is outside the " +
                 std::to_string(r.leaf ? n_leaves : n_nodes) + (r.leaf ? " leaves" : " nodes"));
    if (r.leaf) {
      f.roots.push_back(~static_cast<std::int32_t>(r.index));
      continue;
    }
    f.roots.push_back(static_cast<std::int32_t>(f.nodes.size()));
    stack.push_back({r.index, -1, 0, 1});
    while (!stack.empty()) {
      frame fr = stack.back();
      stack.pop_back();
      const auto i = static_cast<std::size_t>(fr.node);
      if (placed[i] >= 0)
        return bad("node " + std::to_string(fr.node) + " is reached twice (from two parents, a cycle or two trees)");
      const auto at = static_cast<std::int32_t>(f.nodes.size());
      placed[i] = at;
      if (fr.parent >= 0) f.nodes[static_cast<std::size_t>(fr.parent)].next[fr.side] = at;
      f.max_depth = std::max(f.max_depth, fr.depth);
      const std::int64_t feat = s.feature[i];
      if (feat < 0 || feat > static_cast<std::int64_t>(feature_mask))
        return bad("node " + std::to_string(fr.node) + " reads feature " + std::to_string(feat));
      if (width >= 0 && feat >= width)
        return bad("node " + std::to_string(fr.node) + " reads feature " + std::to_string(feat) +
                   " but the input has " + std::to_string(width) + " features");
      max_feature = std::max(max_feature, feat);
      const rule m = s.mode[i];
      const bool miss = !s.missing_true.empty() && s.missing_true[i];
      flat_node<E> n{};
      n.split = s.split[i];
      if (m == rule::member) {
        auto set = s.members[i];
        std::sort(set.begin(), set.end());
        n.split = static_cast<E>(f.member_sets.size());
        f.member_sets.push_back(std::move(set));
      }
      n.bits = static_cast<std::uint32_t>(feat) | (static_cast<std::uint32_t>(m) << 24) | (miss ? missing_bit : 0u);
      if (f.nodes.empty()) f.uniform = m;
      if (m != f.uniform) f.is_uniform = false;
      f.any_missing = f.any_missing || miss;
      ONYX_TRY(check_child(fr.node, s.on_true[i], "true"));
      ONYX_TRY(check_child(fr.node, s.on_false[i], "false"));
      if (s.on_true[i].leaf) n.next[1] = ~static_cast<std::int32_t>(s.on_true[i].index);
      if (s.on_false[i].leaf) n.next[0] = ~static_cast<std::int32_t>(s.on_false[i].index);
      f.nodes.push_back(n);
      // Push false first so the true subtree is laid out right after its parent.
      if (!s.on_false[i].leaf) stack.push_back({s.on_false[i].index, at, 0, fr.depth + 1});
      if (!s.on_true[i].leaf) stack.push_back({s.on_true[i].index, at, 1, fr.depth + 1});
    }
  }
  if (f.is_uniform && f.uniform == rule::member) f.is_uniform = false;
  f.width = max_feature + 1;
  return f;
}

namespace detail {

inline constexpr std::int64_t block_rows = 64;
inline constexpr int lockstep_rows = 8;

/// Whether node n sends value v to its true branch.
template <class E, rule R, bool Uniform, bool Missing>
inline bool goes_true(const flat_forest<E>& f, const flat_node<E>& n, E v) {
  bool go;
  if constexpr (Uniform) {
    if constexpr (R == rule::leq)
      go = v <= n.split;
    else if constexpr (R == rule::lt)
      go = v < n.split;
    else if constexpr (R == rule::gte)
      go = v >= n.split;
    else if constexpr (R == rule::gt)
      go = v > n.split;
    else if constexpr (R == rule::eq)
      go = v == n.split;
    else
      go = v != n.split;
  } else {
    go = compare(static_cast<rule>((n.bits >> 24) & 15u), v, n.split, f);
  }
  if constexpr (Missing) go = go || ((n.bits & missing_bit) && std::isnan(v));
  return go;
}

/// The leaves that `G` rows reach in the tree rooted at `root`, walked in
/// lockstep: each step advances every row that is still at a node, so the G
/// dependent load chains overlap (a finished row re-reads node 0 and keeps
/// its leaf). leaves[r] = ~leaf.
template <int G, class E, rule R, bool Uniform, bool Missing>
inline void descend(const flat_forest<E>& f, const flat_node<E>* nodes, std::int32_t root, const E* x,
                    std::int64_t width, std::int32_t* leaves) {
  for (int r = 0; r < G; ++r) leaves[r] = root;
  for (bool any = root >= 0; any;) {
    any = false;
    for (int r = 0; r < G; ++r) {
      const std::int32_t i = leaves[r];
      const flat_node<E>& n = nodes[i < 0 ? 0 : i];
      const E v = x[r * width + (n.bits & feature_mask)];
      const std::int32_t next = n.next[goes_true<E, R, Uniform, Missing>(f, n, v)];
      leaves[r] = i < 0 ? i : next;
      any = any || leaves[r] >= 0;
    }
  }
}

/// The leaves one row reaches in the G trees rooted at roots[0..G), walked in
/// lockstep as above (for a few rows and many trees).
template <int G, class E, rule R, bool Uniform, bool Missing>
inline void descend_trees(const flat_forest<E>& f, const flat_node<E>* nodes, const std::int32_t* roots, const E* x,
                          std::int32_t* leaves) {
  bool any = false;
  for (int k = 0; k < G; ++k) leaves[k] = roots[k], any = any || roots[k] >= 0;
  while (any) {
    any = false;
    for (int k = 0; k < G; ++k) {
      const std::int32_t i = leaves[k];
      const flat_node<E>& n = nodes[i < 0 ? 0 : i];
      const std::int32_t next = n.next[goes_true<E, R, Uniform, Missing>(f, n, x[n.bits & feature_mask])];
      leaves[k] = i < 0 ? i : next;
      any = any || leaves[k] >= 0;
    }
  }
}

/// Adds leaf `l`'s pairs into `acc` (n_targets scores) and `has` (set flags).
template <class E>
inline void gather(const flat_forest<E>& f, std::int32_t l, double* acc, unsigned char* has) {
  for (std::int32_t p = f.leaf_begin[l], e = f.leaf_begin[l + 1]; p < e; ++p) {
    const std::int32_t t = f.pair_target[p];
    const double w = f.pair_weight[p];
    switch (f.agg) {
      case aggregate::sum:
      case aggregate::average:
        acc[t] += w;
        break;
      case aggregate::min:
        acc[t] = has[t] && acc[t] <= w ? acc[t] : w;
        break;
      case aggregate::max:
        acc[t] = has[t] && acc[t] >= w ? acc[t] : w;
        break;
    }
    has[t] = 1;
  }
}

/// Rows [r0, r1) through trees [t0, t1), aggregated into acc/has (row-major,
/// n_targets per row, rows counted from r0).
template <class E, rule R, bool Uniform, bool Missing>
void walk(const flat_forest<E>& f, const E* x, std::int64_t width, std::int64_t r0, std::int64_t r1, std::size_t t0,
          std::size_t t1, double* acc, unsigned char* has) {
  const flat_node<E>* nodes = f.nodes.data();
  const std::int64_t nt = f.n_targets;
  const bool sums = f.agg == aggregate::sum || f.agg == aggregate::average;
  const bool single = sums && f.pair_target.size() + 1 == f.leaf_begin.size();  // every leaf holds one pair
  auto add = [&](std::int64_t r, std::int32_t leaf) {
    const std::int32_t l = ~leaf;
    double* a = acc + (r - r0) * nt;
    unsigned char* h = has + (r - r0) * nt;
    if (single) {
      const std::int32_t p = f.leaf_begin[l];
      a[f.pair_target[p]] += f.pair_weight[p];
      h[f.pair_target[p]] = 1;
    } else if (sums) {
      for (std::int32_t p = f.leaf_begin[l], pe = f.leaf_begin[l + 1]; p < pe; ++p) {
        a[f.pair_target[p]] += f.pair_weight[p];
        h[f.pair_target[p]] = 1;
      }
    } else {
      gather(f, l, a, h);
    }
  };
  std::int32_t leaves[lockstep_rows];
  for (std::int64_t b = r0; b < r1; b += block_rows) {
    const std::int64_t e = std::min(r1, b + block_rows);
    const std::int64_t full = b + (e - b) / lockstep_rows * lockstep_rows;
    for (std::size_t t = t0; t < t1; ++t)
      for (std::int64_t r = b; r < full; r += lockstep_rows) {
        descend<lockstep_rows, E, R, Uniform, Missing>(f, nodes, f.roots[t], x + r * width, width, leaves);
        for (int k = 0; k < lockstep_rows; ++k) add(r + k, leaves[k]);
      }
    // The rows left over: one at a time, trees in lockstep groups.
    for (std::int64_t r = full; r < e; ++r) {
      std::size_t t = t0;
      for (; t + lockstep_rows <= t1; t += lockstep_rows) {
        descend_trees<lockstep_rows, E, R, Uniform, Missing>(f, nodes, f.roots.data() + t, x + r * width, leaves);
        for (int k = 0; k < lockstep_rows; ++k) add(r, leaves[k]);
      }
      for (; t < t1; ++t) {
        descend_trees<1, E, R, Uniform, Missing>(f, nodes, f.roots.data() + t, x + r * width, leaves);
        add(r, leaves[0]);
      }
    }
  }
}

template <class E>
using walk_fn = void (*)(const flat_forest<E>&, const E*, std::int64_t, std::int64_t, std::int64_t, std::size_t,
                         std::size_t, double*, unsigned char*);

template <class E, bool Missing>
walk_fn<E> pick_rule(const flat_forest<E>& f) {
  if (!f.is_uniform) return &walk<E, rule::leq, false, Missing>;
  switch (f.uniform) {
    case rule::leq:
      return &walk<E, rule::leq, true, Missing>;
    case rule::lt:
      return &walk<E, rule::lt, true, Missing>;
    case rule::gte:
      return &walk<E, rule::gte, true, Missing>;
    case rule::gt:
      return &walk<E, rule::gt, true, Missing>;
    case rule::eq:
      return &walk<E, rule::eq, true, Missing>;
    case rule::neq:
      return &walk<E, rule::neq, true, Missing>;
    default:
      return &walk<E, rule::leq, false, Missing>;
  }
}

}  // namespace detail

/// The walk specialized for f's rules (one rule everywhere or mixed) and
/// whether any node sends missing values to its true branch.
template <class E>
detail::walk_fn<E> pick_walk(const flat_forest<E>& f) {
  return f.any_missing ? detail::pick_rule<E, true>(f) : detail::pick_rule<E, false>(f);
}

/// Aggregates `rows` rows of `x` (row stride `width`) through every tree into
/// `acc` (rows x n_targets) and `has` (1 where some leaf reached the target).
template <class E>
void evaluate(const flat_forest<E>& f, const E* x, std::int64_t rows, std::int64_t width, double* acc,
              unsigned char* has, const thread_pool* pool) {
  const std::int64_t nt = f.n_targets;
  std::fill(acc, acc + rows * nt, 0.0);
  std::fill(has, has + rows * nt, 0);
  const auto walk = pick_walk(f);
  const std::size_t trees = f.roots.size();
  const std::int64_t per_row = static_cast<std::int64_t>(trees) * std::max<std::int64_t>(f.max_depth, 1);
  const int threads = pool ? pool->size() : 1;
  if (rows >= 2 * threads || threads == 1) {
    parallel_for(pool, rows, grain_for(per_row), [&](std::int64_t b, std::int64_t e) {
      walk(f, x, width, b, e, 0, trees, acc + b * nt, has + b * nt);
    });
    return;
  }
  // Few rows: split the trees; each chunk aggregates into its own scores.
  const std::int64_t work = per_row * rows;
  const std::int64_t chunks = std::min<std::int64_t>(threads, std::max<std::int64_t>(1, work / parallel_grain_work));
  if (chunks <= 1) {
    walk(f, x, width, 0, rows, 0, trees, acc, has);
    return;
  }
  const std::int64_t cells = rows * nt;
  std::vector<double> part_acc(static_cast<std::size_t>(cells * chunks), 0.0);
  std::vector<unsigned char> part_has(static_cast<std::size_t>(cells * chunks), 0);
  parallel_for(pool, chunks, 1, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t k = b; k < e; ++k) {
      const std::size_t t0 = trees * static_cast<std::size_t>(k) / static_cast<std::size_t>(chunks);
      const std::size_t t1 = trees * static_cast<std::size_t>(k + 1) / static_cast<std::size_t>(chunks);
      walk(f, x, width, 0, rows, t0, t1, part_acc.data() + k * cells, part_has.data() + k * cells);
    }
  });
  for (std::int64_t k = 0; k < chunks; ++k)
    for (std::int64_t i = 0; i < cells; ++i) {
      const double v = part_acc[static_cast<std::size_t>(k * cells + i)];
      const bool h = part_has[static_cast<std::size_t>(k * cells + i)];
      if (!h) continue;
      switch (f.agg) {
        case aggregate::sum:
        case aggregate::average:
          acc[i] += v;
          break;
        case aggregate::min:
          acc[i] = has[i] && acc[i] <= v ? acc[i] : v;
          break;
        case aggregate::max:
          acc[i] = has[i] && acc[i] >= v ? acc[i] : v;
          break;
      }
      has[i] = 1;
    }
}

}  // namespace onyx::kernels::cpu::forest

#include "kernels/cpu/ml_inputs.hpp"
#include "onyx/core/tensor.hpp"

namespace onyx::kernels::cpu::forest {

/// Element i of a numeric tensor as double (float types, integers, uint8).
inline double element(const tensor& t, std::int64_t i) {
  return visit_numeric(
      t.type(), [&](auto z) { return static_cast<double>(load(t.data<decltype(z)>()[i])); }, [] { return 0.0; });
}

/// The rows and width of X (N x F, or one row of F).
inline std::pair<std::int64_t, std::int64_t> rows_and_width(const tensor& x) {
  if (x.rank() == 1) return {1, x.dim(0)};
  return {x.dim(0), x.dim(1)};
}

using ml::known_width;

/// Aggregated scores of every row of `x` (converted to E where its type
/// differs): acc and has hold rows x n_targets; AVERAGE is divided by the
/// tree count, targets no leaf reached are 0 (ORT).
template <class E>
status score_rows(const flat_forest<E>& f, const tensor& x, std::vector<double>& acc, std::vector<unsigned char>& has,
                  const thread_pool* pool) {
  if (x.rank() != 1 && x.rank() != 2)
    return status(errc::invalid_argument, "X must have rank 1 or 2, got rank " + std::to_string(x.rank()));
  const auto [rows, width] = rows_and_width(x);
  if (f.width > width)
    return status(errc::invalid_argument, "the trees read feature " + std::to_string(f.width - 1) + " but X has " +
                                              std::to_string(width) + " features");
  acc.resize(static_cast<std::size_t>(rows * f.n_targets));
  has.resize(acc.size());
  std::vector<E> converted;
  const E* xp = nullptr;
  if (x.type() == dtype_of<E>) {
    xp = x.data<E>();
  } else {
    converted.resize(static_cast<std::size_t>(x.size()));
    for (std::int64_t i = 0; i < x.size(); ++i) converted[static_cast<std::size_t>(i)] = static_cast<E>(element(x, i));
    xp = converted.data();
  }
  evaluate(f, xp, rows, width, acc.data(), has.data(), pool);
  if (f.agg == aggregate::average)
    for (auto& v : acc) v /= static_cast<double>(f.roots.size());
  return ok();
}

}  // namespace onyx::kernels::cpu::forest

#include <unordered_map>
#include <unordered_set>

namespace onyx::kernels::cpu::forest {

/// The node lists of TreeEnsembleRegressor/Classifier (opsets 1-3): nodes
/// named by (tree id, node id), rules as strings ("BRANCH_LEQ", ..., "LEAF"),
/// leaf weights as (tree id, node id, target, weight) lists.
template <class E>
struct node_lists {
  const std::vector<std::int64_t>& treeids;
  const std::vector<std::int64_t>& nodeids;
  const std::vector<std::string>& modes;
  const std::vector<std::int64_t>& featureids;
  std::vector<E> values;
  const std::vector<std::int64_t>& truenodeids;
  const std::vector<std::int64_t>& falsenodeids;
  const std::vector<std::int64_t>& missing_true;
  const std::vector<std::int64_t>& w_treeids;
  const std::vector<std::int64_t>& w_nodeids;
  const std::vector<std::int64_t>& w_ids;
  std::vector<double> weights;
};

/// The spec of `l` (roots: each tree's first node in list order, as ORT and
/// ONNX's reference), with array lengths and references checked.
template <class E>
result<forest_spec<E>> from_node_lists(const node_lists<E>& l, std::int64_t n_targets, aggregate agg) {
  auto bad = [](std::string m) { return status(errc::invalid_graph, std::move(m)); };
  const std::size_t n = l.nodeids.size();
  auto len = [&](const char* what, std::size_t got) -> status {
    if (got == n) return ok();
    return bad(std::string(what) + " has " + std::to_string(got) + " entries but nodes_nodeids has " +
               std::to_string(n));
  };
  ONYX_TRY(len("nodes_treeids", l.treeids.size()));
  ONYX_TRY(len("nodes_modes", l.modes.size()));
  ONYX_TRY(len("nodes_featureids", l.featureids.size()));
  ONYX_TRY(len("nodes_values", l.values.size()));
  ONYX_TRY(len("nodes_truenodeids", l.truenodeids.size()));
  ONYX_TRY(len("nodes_falsenodeids", l.falsenodeids.size()));
  if (!l.missing_true.empty()) ONYX_TRY(len("nodes_missing_value_tracks_true", l.missing_true.size()));
  const std::size_t w = l.w_ids.size();
  if (l.w_treeids.size() != w || l.w_nodeids.size() != w || l.weights.size() != w)
    return bad("the leaf weight lists have different lengths (tree ids " + std::to_string(l.w_treeids.size()) +
               ", node ids " + std::to_string(l.w_nodeids.size()) + ", targets " + std::to_string(w) + ", weights " +
               std::to_string(l.weights.size()) + ")");
  struct pair_hash {
    std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& p) const {
      return std::hash<std::int64_t>()(p.first * 0x9E3779B97F4A7C15LL ^ p.second);
    }
  };
  std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::size_t, pair_hash> index;
  index.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    if (!index.emplace(std::pair{l.treeids[i], l.nodeids[i]}, i).second)
      return bad("node (tree " + std::to_string(l.treeids[i]) + ", id " + std::to_string(l.nodeids[i]) +
                 ") is listed twice");
  forest_spec<E> s;
  s.n_targets = n_targets;
  s.agg = agg;
  std::vector<std::int64_t> leaf_of(n, -1), node_of(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (l.modes[i] == "LEAF") {
      leaf_of[i] = static_cast<std::int64_t>(s.leaves.size());
      s.leaves.emplace_back();
      continue;
    }
    rule r;
    if (l.modes[i] == "BRANCH_LEQ")
      r = rule::leq;
    else if (l.modes[i] == "BRANCH_LT")
      r = rule::lt;
    else if (l.modes[i] == "BRANCH_GTE")
      r = rule::gte;
    else if (l.modes[i] == "BRANCH_GT")
      r = rule::gt;
    else if (l.modes[i] == "BRANCH_EQ")
      r = rule::eq;
    else if (l.modes[i] == "BRANCH_NEQ")
      r = rule::neq;
    else
      return bad("node " + std::to_string(i) + " has mode '" + l.modes[i] + "'");
    node_of[i] = static_cast<std::int64_t>(s.split.size());
    s.split.push_back(l.values[i]);
    s.feature.push_back(l.featureids[i]);
    s.mode.push_back(r);
    s.missing_true.push_back(!l.missing_true.empty() && l.missing_true[i] ? 1 : 0);
  }
  s.on_true.resize(s.split.size());
  s.on_false.resize(s.split.size());
  s.members.resize(s.split.size());
  auto child_of = [&](std::size_t i, std::int64_t id, const char* side) -> result<child> {
    auto it = index.find({l.treeids[i], id});
    if (it == index.end())
      return bad("node (tree " + std::to_string(l.treeids[i]) + ", id " + std::to_string(l.nodeids[i]) + ")'s " + side +
                 " branch points to node id " + std::to_string(id) + ", absent from that tree");
    const std::size_t j = it->second;
    return leaf_of[j] >= 0 ? child{true, leaf_of[j]} : child{false, node_of[j]};
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (node_of[i] < 0) continue;
    ONYX_ASSIGN(s.on_true[static_cast<std::size_t>(node_of[i])], child_of(i, l.truenodeids[i], "true"));
    ONYX_ASSIGN(s.on_false[static_cast<std::size_t>(node_of[i])], child_of(i, l.falsenodeids[i], "false"));
  }
  for (std::size_t k = 0; k < w; ++k) {
    auto it = index.find({l.w_treeids[k], l.w_nodeids[k]});
    if (it == index.end() || leaf_of[it->second] < 0)
      return bad("leaf weight " + std::to_string(k) + " names (tree " + std::to_string(l.w_treeids[k]) + ", id " +
                 std::to_string(l.w_nodeids[k]) + "), which is not a LEAF node");
    s.leaves[static_cast<std::size_t>(leaf_of[it->second])].push_back({l.w_ids[k], l.weights[k]});
  }
  std::unordered_set<std::int64_t> seen;
  for (std::size_t i = 0; i < n; ++i) {
    if (!seen.insert(l.treeids[i]).second) continue;
    s.roots.push_back(leaf_of[i] >= 0 ? child{true, leaf_of[i]} : child{false, node_of[i]});
  }
  return s;
}

}  // namespace onyx::kernels::cpu::forest
