// ops::Einsum: output[out-term] = sum over the other labels of the product of
// the inputs[term_i], by the `equation` ("ij,jk->ik", implicit output when
// there is no "->", "..." for broadcast dims, a repeated label in one term
// taking a diagonal).
// Opsets 12-latest. Labels: letters are distinct per case; the dims an
// ellipsis stands for get labels of their own, right-aligned across inputs
// and broadcast like numpy (a size-1 dim stretches).
// Kernel (kernels/cpu/einsum.hpp): float32, float64, float16/bfloat16 (in
// float), int32, int64, uint32, uint64; floats accumulate in double.
// Tested in test/unit/einsum_test.cpp.
#pragma once

#include <string>
#include <vector>

#include "onyx/ops/op.hpp"

namespace onyx::ops {

namespace detail {

/// An equation resolved against input ranks: one label id per dim.
/// Letters A-Z are 0-25, a-z 26-51; ellipsis dim k (of E) is 52 + k.
struct einsum_spec {
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;
  int ellipsis_rank = 0;
  static constexpr int ellipsis_label = 52;
  int label_count() const { return ellipsis_label + ellipsis_rank; }
};

inline int einsum_letter(char ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return 26 + (ch - 'a');
  return -1;
}

/// Splits one term into letter ids, -1 marking where "..." stands.
inline result<std::vector<int>> einsum_term(const std::string& t) {
  std::vector<int> out;
  bool ellipsis = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t.compare(i, 3, "...") == 0) {
      if (ellipsis) return status(errc::invalid_graph, "equation term '" + t + "' has two ellipses");
      ellipsis = true;
      out.push_back(-1);
      i += 2;
      continue;
    }
    int l = einsum_letter(t[i]);
    if (l < 0) return status(errc::invalid_graph, "equation term '" + t + "' has character '" + t[i] + "'");
    out.push_back(l);
  }
  return out;
}

inline result<einsum_spec> parse_einsum(const std::string& equation, const std::vector<std::size_t>& ranks) {
  std::string eq;
  for (char ch : equation)
    if (ch != ' ') eq += ch;
  std::string lhs = eq, rhs;
  bool explicit_output = false;
  if (auto arrow = eq.find("->"); arrow != std::string::npos) {
    lhs = eq.substr(0, arrow);
    rhs = eq.substr(arrow + 2);
    explicit_output = true;
  }
  std::vector<std::vector<int>> terms;
  for (std::size_t b = 0;;) {
    auto e = lhs.find(',', b);
    ONYX_ASSIGN(auto t, einsum_term(lhs.substr(b, e == std::string::npos ? std::string::npos : e - b)));
    terms.push_back(std::move(t));
    if (e == std::string::npos) break;
    b = e + 1;
  }
  if (terms.size() != ranks.size())
    return status(errc::invalid_graph, "equation '" + equation + "' has " + std::to_string(terms.size()) +
                                           " terms for " + std::to_string(ranks.size()) + " inputs");
  einsum_spec s;
  std::vector<int> ellipsis_dims(terms.size(), 0);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    bool has = std::find(terms[i].begin(), terms[i].end(), -1) != terms[i].end();
    std::size_t letters = terms[i].size() - (has ? 1 : 0);
    if (has ? ranks[i] < letters : ranks[i] != letters)
      return status(errc::invalid_graph, "input " + std::to_string(i) + " has rank " + std::to_string(ranks[i]) +
                                             " but its equation term names " + std::to_string(letters) + " dims");
    ellipsis_dims[i] = static_cast<int>(ranks[i] - letters);
    s.ellipsis_rank = std::max(s.ellipsis_rank, ellipsis_dims[i]);
  }
  int counts[52] = {};
  for (std::size_t i = 0; i < terms.size(); ++i) {
    std::vector<int> labels;
    for (int l : terms[i]) {
      if (l >= 0) {
        labels.push_back(l);
        ++counts[l];
      } else {
        for (int k = 0; k < ellipsis_dims[i]; ++k)
          labels.push_back(einsum_spec::ellipsis_label + s.ellipsis_rank - ellipsis_dims[i] + k);
      }
    }
    s.inputs.push_back(std::move(labels));
  }
  if (explicit_output) {
    ONYX_ASSIGN(auto out, einsum_term(rhs));
    for (int l : out) {
      if (l < 0) {
        for (int k = 0; k < s.ellipsis_rank; ++k) s.output.push_back(einsum_spec::ellipsis_label + k);
        continue;
      }
      if (!counts[l]) {
        char ch = static_cast<char>(l < 26 ? 'A' + l : 'a' + (l - 26));
        return status(errc::invalid_graph,
                      "output label '" + std::string(1, ch) + "' of equation '" + equation + "' appears in no input");
      }
      if (std::count(s.output.begin(), s.output.end(), l))
        return status(errc::invalid_graph, "equation '" + equation + "' repeats an output label");
      s.output.push_back(l);
    }
  } else {
    for (int k = 0; k < s.ellipsis_rank; ++k) s.output.push_back(einsum_spec::ellipsis_label + k);
    for (int l = 0; l < 52; ++l)
      if (counts[l] == 1) s.output.push_back(l);
  }
  return s;
}

}  // namespace detail

struct Einsum {
  static constexpr std::string_view domain = "", name = "Einsum";
  static constexpr int since = 12, until = latest;
  static constexpr arity inputs{1, variadic}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats | dtypes::i32 | dtypes::i64 | dtypes::u32 | dtypes::u64;
  struct attributes {
    std::string equation;
    static constexpr auto fields = std::tuple{field{"equation", &attributes::equation, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    std::vector<std::size_t> ranks;
    for (int i = 0; i < c.input_count(); ++i) {
      ONYX_TRY(require_type(c, i, T, "T"));
      if (c.input_type(i) != c.input_type(0)) return c.fail("inputs must share one type");
      if (!c.input_shape(i).rank_known) {
        c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
        return ok();
      }
      ranks.push_back(c.input_shape(i).rank());
    }
    ONYX_ASSIGN(auto s, detail::parse_einsum(a.equation, ranks));
    // A label's size: its first dim that is not known to be 1 (or 1).
    std::vector<dim> size(s.label_count(), dim(1));
    std::vector<bool> set(s.label_count(), false);
    for (int i = 0; i < c.input_count(); ++i)
      for (std::size_t d = 0; d < s.inputs[i].size(); ++d) {
        int l = s.inputs[i][d];
        const dim& x = c.input_shape(i)[d];
        if (x.known() && x.value() == 1) continue;
        if (set[l] && x.known() && size[l].known() && x.value() != size[l].value())
          return c.fail("equation '" + a.equation + "': a label has sizes " + std::to_string(size[l].value()) +
                        " and " + std::to_string(x.value()));
        if (!set[l]) size[l] = x, set[l] = true;
      }
    std::vector<dim> out;
    for (int l : s.output) out.push_back(size[l]);
    c.set_output(0, c.input_type(0), sym_shape(std::move(out)));
    return ok();
  }
};

}  // namespace onyx::ops
