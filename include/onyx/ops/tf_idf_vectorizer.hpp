// ops::TfIdfVectorizer: counts the n-grams of a pool in each row of X ([C] or
// [N, C], int32/int64/string): for each n in [min_gram_length,
// max_gram_length] and skip in [0, max_skip_count] (unigrams once), the
// n-gram X[i], X[i+skip+1], ... found in the pool adds 1 at its
// ngram_indexes entry. mode TF gives counts, IDF weights[idx] where the count
// is non-zero, TFIDF counts * weights (weights default to 1). Y is float32
// [max(ngram_indexes) + 1] or [N, that]. Opset 9-latest.
// Tested in test/unit/text_test.cpp and node/test_tfidfvectorizer_*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct TfIdfVectorizer {
  static constexpr std::string_view domain = "", name = "TfIdfVectorizer";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::string | dtypes::i32 | dtypes::i64;
  static constexpr dtype_set T1 = dtypes::f32;
  struct attributes {
    std::int64_t max_gram_length = 0, max_skip_count = 0, min_gram_length = 0;
    std::string mode;
    std::vector<std::int64_t> ngram_counts, ngram_indexes, pool_int64s;
    std::vector<std::string> pool_strings;
    std::vector<float> weights;
    static constexpr auto fields = std::tuple{
        field{"max_gram_length", &attributes::max_gram_length, true},
        field{"max_skip_count", &attributes::max_skip_count, true},
        field{"min_gram_length", &attributes::min_gram_length, true},
        field{"mode", &attributes::mode, true},
        field{"ngram_counts", &attributes::ngram_counts, true},
        field{"ngram_indexes", &attributes::ngram_indexes, true},
        field{"pool_int64s", &attributes::pool_int64s},
        field{"pool_strings", &attributes::pool_strings},
        field{"weights", &attributes::weights}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (a.mode != "TF" && a.mode != "IDF" && a.mode != "TFIDF")
      return c.fail("mode must be TF, IDF or TFIDF, got '" + a.mode + "'");
    if (a.min_gram_length < 1 || a.max_gram_length < a.min_gram_length || a.max_skip_count < 0)
      return c.fail("need 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0");
    if (static_cast<std::int64_t>(a.ngram_counts.size()) < a.max_gram_length)
      return c.fail("ngram_counts must have max_gram_length entries");
    if ((c.input_type(0) == dtype::string) != a.pool_int64s.empty())
      return c.fail("a string input needs pool_strings, an integer input pool_int64s");
    const std::size_t pool = a.pool_int64s.empty() ? a.pool_strings.size() : a.pool_int64s.size();
    for (std::size_t i = 0; i < a.ngram_counts.size(); ++i)
      if (a.ngram_counts[i] < 0 || static_cast<std::size_t>(a.ngram_counts[i]) > pool ||
          (i && a.ngram_counts[i] < a.ngram_counts[i - 1]))
        return c.fail("ngram_counts must be non-decreasing starts into the pool");
    std::int64_t width = 0;
    for (auto i : a.ngram_indexes) {
      if (i < 0) return c.fail("ngram_indexes must be non-negative, got " + std::to_string(i));
      width = std::max(width, i + 1);
    }
    if (!a.weights.empty() && a.weights.size() != a.ngram_indexes.size())
      return c.fail("weights must have one entry per ngram index");
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1 && x.rank() != 2) return c.fail("input must be [C] or [N, C], got " + x.str());
    if (!x.rank_known) return c.set_output(0, dtype::float32, sym_shape::unknown_rank()), ok();
    c.set_output(0, dtype::float32, x.rank() == 1 ? sym_shape({dim(width)}) : sym_shape({x[0], dim(width)}));
    return ok();
  }
};

}  // namespace onyx::ops
