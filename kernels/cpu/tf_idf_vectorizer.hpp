// kernels/cpu/tf_idf_vectorizer.hpp: TfIdfVectorizer (9+).
//
// prepare turns the pool into token ids (strings get dense ids; an input
// string outside the pool gets -1 and can match nothing) and one map per
// n-gram length from the id sequence to its output column. run walks each
// row once per (n, skip) and counts hits, then applies the mode's weights.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "onyx/ops/tf_idf_vectorizer.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx::kernels::cpu::tfidf_detail {

struct tables {
  std::unordered_map<std::string, std::int64_t> vocab;       // string input only
  std::vector<std::map<std::vector<std::int64_t>, std::int64_t>> grams;  // [n - 1]: ids -> column
  std::int64_t width = 0;
};

inline result<tables> build(const ops::TfIdfVectorizer::attributes& a) {
  tables t;
  const bool strings = !a.pool_strings.empty();
  std::vector<std::int64_t> pool;
  for (const auto& s : a.pool_strings) pool.push_back(t.vocab.try_emplace(s, static_cast<std::int64_t>(t.vocab.size())).first->second);
  if (!strings) pool = a.pool_int64s;
  for (auto i : a.ngram_indexes) t.width = std::max(t.width, i + 1);
  t.grams.resize(static_cast<std::size_t>(a.max_gram_length));
  std::size_t ordinal = 0;
  for (std::int64_t n = 1; n <= a.max_gram_length; ++n) {
    const auto begin = static_cast<std::size_t>(a.ngram_counts[static_cast<std::size_t>(n - 1)]);
    const auto end = n < static_cast<std::int64_t>(a.ngram_counts.size())
                         ? static_cast<std::size_t>(a.ngram_counts[static_cast<std::size_t>(n)])
                         : pool.size();
    for (std::size_t p = begin; p + static_cast<std::size_t>(n) <= end; p += static_cast<std::size_t>(n), ++ordinal) {
      if (ordinal >= a.ngram_indexes.size())
        return status(errc::invalid_argument, "TfIdfVectorizer: more pool n-grams than ngram_indexes");
      t.grams[static_cast<std::size_t>(n - 1)][std::vector<std::int64_t>(pool.begin() + p, pool.begin() + p + n)] =
          a.ngram_indexes[ordinal];
    }
  }
  return t;
}

inline status vectorize(const call<ops::TfIdfVectorizer>& c) {
  const auto& a = c.attrs();
  const tables& t = c.state<tables>();
  const tensor& x = c.input(0);
  const std::int64_t rows = x.rank() == 2 ? x.dim(0) : 1, C = x.rank() == 2 ? x.dim(1) : x.dim(0);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(x.size()));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (x.type() == dtype::string) {
      auto it = t.vocab.find(x.data<std::string>()[i]);
      ids[i] = it == t.vocab.end() ? -1 : it->second;
    } else {
      ids[i] = x.type() == dtype::int32 ? x.data<std::int32_t>()[i] : x.data<std::int64_t>()[i];
    }
  }
  float* y = c.output(0).data<float>();
  std::fill_n(y, rows * t.width, 0.0f);
  parallel_for(c.pool(), rows, 1, [&](std::int64_t lo, std::int64_t hi) {
    std::vector<std::int64_t> key;
    for (std::int64_t r = lo; r < hi; ++r) {
      const std::int64_t* row = ids.data() + r * C;
      float* out = y + r * t.width;
      for (std::int64_t n = a.min_gram_length; n <= a.max_gram_length; ++n) {
        const auto& grams = t.grams[static_cast<std::size_t>(n - 1)];
        if (grams.empty()) continue;
        const std::int64_t skips = n == 1 ? 0 : a.max_skip_count;
        for (std::int64_t skip = 0; skip <= skips; ++skip) {
          const std::int64_t step = skip + 1;
          for (std::int64_t i = 0; i + (n - 1) * step < C; ++i) {
            key.clear();
            for (std::int64_t k = 0; k < n; ++k) key.push_back(row[i + k * step]);
            auto it = grams.find(key);
            if (it != grams.end()) out[it->second] += 1.0f;
          }
        }
      }
    }
  });
  if (a.mode != "TF") {
    std::vector<float> w(static_cast<std::size_t>(t.width), 1.0f);
    for (std::size_t i = 0; i < a.weights.size(); ++i) w[static_cast<std::size_t>(a.ngram_indexes[i])] = a.weights[i];
    for (std::int64_t i = 0; i < rows * t.width; ++i) {
      const float wi = w[static_cast<std::size_t>(i % t.width)];
      y[i] = a.mode == "IDF" ? (y[i] > 0 ? wi : 0.0f) : y[i] * wi;
    }
  }
  return ok();
}

}  // namespace onyx::kernels::cpu::tfidf_detail

namespace onyx {

template <> struct kernel<ops::TfIdfVectorizer, cpu> {
  static constexpr std::array types{dtypes::string | dtypes::i32 | dtypes::i64};
  using state = kernels::cpu::tfidf_detail::tables;
  template <ops::signature S> static result<state> prepare(const prepare_info<ops::TfIdfVectorizer>& p) {
    return kernels::cpu::tfidf_detail::build(p.attrs());
  }
  template <ops::signature S> static status run(const call<ops::TfIdfVectorizer>& c) {
    return kernels::cpu::tfidf_detail::vectorize(c);
  }
};

}  // namespace onyx
