// onyx/core/shape.hpp: concrete extents and symbolic dims.
//
// A `dim` is a known int64 or a symbolic expression over named symbols
// (sums, products, floor-divisions), so inference can say "N*3" where the
// batch size is not known. Arithmetic on two known dims folds to a number.
// `sym_shape` is what inference produces; `extents` is what a tensor has.
#pragma once

#include <cstdint>
#include <memory>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "onyx/core/message.hpp"

namespace onyx {

using extents = std::vector<std::int64_t>;

/// The product of the extents; int64's maximum when it overflows (a size
/// every allocation check then refuses), 0 when a dim is 0.
inline std::int64_t element_count(std::span<const std::int64_t> e) {
  std::int64_t n = 1;
  bool overflow = false;
  for (std::int64_t d : e) {
    if (d == 0) return 0;
    overflow = overflow || __builtin_mul_overflow(n, d, &n);
  }
  return overflow ? std::numeric_limits<std::int64_t>::max() : n;
}

inline std::string to_string(std::span<const std::int64_t> e) {
  if (e.empty()) return "scalar";
  std::string s;
  for (std::size_t i = 0; i < e.size(); ++i) s += message(i ? "x" : "", e[i]);
  return s;
}

class dim {
 public:
  dim() : dim(symbol("?")) {}
  dim(std::int64_t v) : value_(v) {}

  static dim symbol(std::string name) {
    dim d(-1);
    d.expr_ = std::make_shared<const node>(node{op::symbol, std::move(name), nullptr, nullptr});
    return d;
  }
  /// A fresh unknown dim (distinct from every other).
  static dim unknown() { return symbol("?"); }

  bool known() const { return !expr_; }
  std::int64_t value() const { return value_; }
  bool is_unknown() const { return expr_ && expr_->kind == op::symbol && expr_->name == "?"; }

  std::string str() const { return known() ? message(value_) : expr_->str(); }

  // Known dims whose sum, difference or product overflows int64 saturate:
  // an extent that large fails every later size check (a model's shape
  // arithmetic may overflow; found by the model fuzzer).
  static std::int64_t saturated(bool negative) {
    return negative ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
  }
  friend dim operator+(const dim& a, const dim& b) {
    if (a.known() && b.known()) {
      std::int64_t r;
      return __builtin_add_overflow(a.value_, b.value_, &r) ? saturated(a.value_ < 0) : r;
    }
    if (a.known() && a.value_ == 0) return b;
    if (b.known() && b.value_ == 0) return a;
    return combine(op::add, a, b);
  }
  friend dim operator-(const dim& a, const dim& b) {
    if (a.known() && b.known()) {
      std::int64_t r;
      return __builtin_sub_overflow(a.value_, b.value_, &r) ? saturated(a.value_ < 0) : r;
    }
    if (b.known() && b.value_ == 0) return a;
    return combine(op::sub, a, b);
  }
  friend dim operator*(const dim& a, const dim& b) {
    if (a.known() && b.known()) {
      std::int64_t r;
      return __builtin_mul_overflow(a.value_, b.value_, &r) ? saturated((a.value_ < 0) != (b.value_ < 0)) : r;
    }
    if (a.known() && a.value_ == 1) return b;
    if (b.known() && b.value_ == 1) return a;
    if ((a.known() && a.value_ == 0) || (b.known() && b.value_ == 0)) return 0;
    return combine(op::mul, a, b);
  }
  /// Floor division, as ONNX shape formulas use it.
  friend dim floordiv(const dim& a, const dim& b) {
    if (a.known() && b.known() && b.value_ != 0) {
      if (b.value_ == -1 && a.value_ == std::numeric_limits<std::int64_t>::min()) return saturated(false);
      auto q = a.value_ / b.value_;
      return (a.value_ % b.value_ != 0 && ((a.value_ < 0) != (b.value_ < 0))) ? q - 1 : q;
    }
    if (b.known() && b.value_ == 1) return a;
    return combine(op::div, a, b);
  }
  /// Structural equality: two unknowns are never equal, two copies of one symbol are.
  friend bool operator==(const dim& a, const dim& b) {
    if (a.known() != b.known()) return false;
    if (a.known()) return a.value_ == b.value_;
    if (a.is_unknown() || b.is_unknown()) return a.expr_ == b.expr_;
    return a.expr_ == b.expr_ || a.str() == b.str();
  }

 private:
  enum class op { symbol, add, sub, mul, div };
  struct node {
    op kind;
    std::string name;
    std::shared_ptr<const node> lhs, rhs;
    std::string str() const {
      if (kind == op::symbol) return name;
      const char* sign = kind == op::add ? "+" : kind == op::sub ? "-" : kind == op::mul ? "*" : "//";
      return message("(", lhs->str(), sign, rhs->str(), ")");
    }
  };
  static std::shared_ptr<const node> as_node(const dim& d) {
    return d.known() ? std::make_shared<const node>(node{op::symbol, std::to_string(d.value_), nullptr, nullptr})
                     : d.expr_;
  }
  static dim combine(op k, const dim& a, const dim& b) {
    if (a.is_unknown() || b.is_unknown()) return unknown();
    dim d(-1);
    d.expr_ = std::make_shared<const node>(node{k, {}, as_node(a), as_node(b)});
    return d;
  }

  std::int64_t value_ = -1;
  std::shared_ptr<const node> expr_;
};

/// A shape whose dims may be symbolic; `rank_known == false` means nothing is known.
struct sym_shape {
  std::vector<dim> dims;
  bool rank_known = true;

  sym_shape() = default;
  sym_shape(std::vector<dim> d) : dims(std::move(d)) {}
  sym_shape(std::span<const std::int64_t> e) : dims(e.begin(), e.end()) {}
  static sym_shape unknown_rank() {
    sym_shape s;
    s.rank_known = false;
    return s;
  }

  std::size_t rank() const { return dims.size(); }
  bool concrete() const {
    if (!rank_known) return false;
    for (auto& d : dims)
      if (!d.known()) return false;
    return true;
  }
  /// The extents, when every dim is known.
  std::optional<extents> concrete_extents() const {
    if (!concrete()) return std::nullopt;
    extents e;
    for (auto& d : dims) e.push_back(d.value());
    return e;
  }
  std::string str() const {
    if (!rank_known) return "[?]";
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) s += message(i ? "," : "", dims[i].str());
    return s += "]";
  }
  const dim& operator[](std::size_t i) const { return dims[i]; }
  dim& operator[](std::size_t i) { return dims[i]; }
};

}  // namespace onyx
