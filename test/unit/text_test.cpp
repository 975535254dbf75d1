// The text group: StringNormalizer, StringSplit, StringConcat, RegexFullMatch,
// TfIdfVectorizer and LabelEncoder on small hand-checked cases, plus bad
// inputs for each kind of failure.
#include <catch2/catch.hpp>

#include "kernels/cpu/text_kernels.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::sattr;
using strings = std::vector<std::string>;

namespace {
strings values(const tensor& t) { return {t.data<std::string>(), t.data<std::string>() + t.size()}; }
}  // namespace

TEST_CASE("StringNormalizer: stopwords, case, empty output", "[text]") {
  auto x = tensor::from(strings{"Monday", "tuesday", "", "MONDAY", "wednesday"}, {5});
  auto out = test::run_op<ops::StringNormalizer>(
      {x}, {attr("case_change_action", std::string("UPPER")), sattr("stopwords", {"monday"})});
  REQUIRE(out.ok());
  CHECK(values(out.value()[0]) == strings{"TUESDAY", "WEDNESDAY"});
  auto sens = test::run_op<ops::StringNormalizer>({x}, {attr("is_case_sensitive", 1), sattr("stopwords", {"monday"})});
  CHECK(values(sens.value()[0]) == strings{"Monday", "tuesday", "MONDAY", "wednesday"});
  auto all = test::run_op<ops::StringNormalizer>({tensor::from(strings{"a", "A"}, {1, 2})}, {sattr("stopwords", {"a"})});
  CHECK(all.value()[0].shape() == extents{1, 1});
  CHECK(!test::run_op<ops::StringNormalizer>({x}, {attr("case_change_action", std::string("TITLE"))}).ok());
}

TEST_CASE("StringSplit: delimiter, whitespace, maxsplit", "[text]") {
  auto x = tensor::from(strings{"a,,b", "c", ""}, {3});
  auto out = test::run_op<ops::StringSplit>({x}, {attr("delimiter", std::string(","))}, 2);
  REQUIRE(out.ok());
  CHECK(values(out.value()[0]) == strings{"a", "", "b", "c", "", "", "", "", ""});
  CHECK(out.value()[1].values<std::int64_t>()[0] == 3);
  auto ws = test::run_op<ops::StringSplit>({tensor::from(strings{"  x  y z "}, {1})}, {attr("maxsplit", 1)}, 2);
  REQUIRE(ws.ok());
  CHECK(values(ws.value()[0]) == strings{"x", "y z"});
  CHECK(!test::run_op<ops::StringSplit>({tensor::from(std::vector<float>{1.0f}, {1})}, {}, 2).ok());
}

TEST_CASE("StringConcat broadcasts; RegexFullMatch matches whole strings", "[text]") {
  auto cat = test::run_op<ops::StringConcat>(
      {tensor::from(strings{"a", "b", "c", "d"}, {2, 2}), tensor::from(strings{"1", "2"}, {2})});
  REQUIRE(cat.ok());
  CHECK(values(cat.value()[0]) == strings{"a1", "b2", "c1", "d2"});
  CHECK(!test::run_op<ops::StringConcat>({tensor::from(strings{"a", "b", "c"}, {3}), tensor::from(strings{"1", "2"}, {2})}).ok());

  auto re = test::run_op<ops::RegexFullMatch>({tensor::from(strings{"www.x.com", "www.x.comm", "abc"}, {3})},
                                              {attr("pattern", std::string(R"(www\.\w+\.com)"))});
  REQUIRE(re.ok());
  CHECK(re.value()[0].values<bool>()[0]);
  CHECK_FALSE(re.value()[0].values<bool>()[1]);
  CHECK_FALSE(re.value()[0].values<bool>()[2]);
  auto bad = test::run_op<ops::RegexFullMatch>({tensor::from(strings{"a"}, {1})}, {attr("pattern", std::string("(a"))});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("invalid pattern"));
}

TEST_CASE("TfIdfVectorizer: unigrams and skip bigrams", "[text]") {
  // pool: unigrams {2, 3}, bigrams {(2,3), (3,5)}; columns 0..3.
  std::vector<attribute> a{attr("min_gram_length", 1), attr("max_gram_length", 2), attr("max_skip_count", 1),
                                  attr("mode", std::string("TF")), attr("ngram_counts", std::vector<std::int64_t>{0, 2}),
                                  attr("ngram_indexes", std::vector<std::int64_t>{0, 1, 2, 3}),
                                  attr("pool_int64s", std::vector<std::int64_t>{2, 3, 2, 3, 3, 5})};
  auto x = tensor::from(std::vector<std::int64_t>{2, 3, 5, 2, 7, 3}, {2, 3});
  auto out = test::run_op<ops::TfIdfVectorizer>({x}, a);
  REQUIRE(out.ok());
  // row 0: 2,3,5 -> uni 2:1 3:1; bigrams skip0 (2,3) (3,5), skip1 (2,5): (2,3)=1 (3,5)=1
  // row 1: 2,7,3 -> uni 2:1 3:1; skip0 (2,7) (7,3), skip1 (2,3): (2,3)=1
  test::require_close(out.value()[0], std::vector<float>{1, 1, 1, 1, 1, 1, 1, 0}, 0, 0);
  a[3] = attr("mode", std::string("BM25"));
  CHECK(!test::run_op<ops::TfIdfVectorizer>({x}, a).ok());
}

TEST_CASE("LabelEncoder: string keys to int64 with a default", "[text]") {
  std::vector<attribute> a{sattr("keys_strings", {"a", "b", "c"}),
                                  attr("values_int64s", std::vector<std::int64_t>{10, 20, 30}),
                                  attr("default_int64", std::int64_t{-7})};
  auto out = test::run_op<ops::LabelEncoder>({tensor::from(strings{"c", "z", "a"}, {3})}, a);
  REQUIRE(out.ok());
  auto y = out.value()[0].values<std::int64_t>();
  CHECK(std::vector<std::int64_t>(y.begin(), y.end()) == std::vector<std::int64_t>{30, -7, 10});
  a[1] = attr("values_int64s", std::vector<std::int64_t>{10, 20});
  CHECK(!test::run_op<ops::LabelEncoder>({tensor::from(strings{"a"}, {1})}, a).ok());
}

TEST_CASE("LabelEncoder opset 1: classes_strings both ways with defaults", "[text]") {
  std::vector<attribute> a{sattr("classes_strings", {"x", "y", "x"}), attr("default_int64", std::int64_t{-5}),
                           attr("default_string", std::string("none"))};
  auto s = test::run_op<ops::LabelEncoder_v1>({tensor::from(strings{"y", "q", "x"}, {3})}, a);
  REQUIRE(s.ok());
  auto y = s.value()[0].values<std::int64_t>();
  CHECK(std::vector<std::int64_t>(y.begin(), y.end()) == std::vector<std::int64_t>{1, -5, 0});
  auto i = test::run_op<ops::LabelEncoder_v1>({tensor::from(std::vector<std::int64_t>{2, 3, -1}, {3})}, a);
  REQUIRE(i.ok());
  auto z = i.value()[0].values<std::string>();
  CHECK(std::vector<std::string>(z.begin(), z.end()) == std::vector<std::string>{"x", "none", "none"});
}
