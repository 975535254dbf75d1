// onyx/core/value.hpp: what flows along a graph edge.
//
// A value is a tensor, a sequence of values, a map, or an optional (which may
// hold nothing). Only tensors are planned into the arena; the other kinds are
// produced by the few ops that build them.
#pragma once

#include <variant>
#include <vector>

#include "onyx/core/tensor.hpp"

namespace onyx {

class value;

struct sequence {
  dtype elem_type = dtype::undefined;
  std::vector<value> items;
};

/// ONNX map: keys (an int64 or string tensor) and one value per key.
struct map {
  tensor keys;
  std::vector<value> values;
};

enum class value_kind : std::uint8_t { none, tensor, sequence, map };

class value {
 public:
  value() = default;
  value(tensor t) : v_(std::move(t)) {}
  value(sequence s) : v_(std::move(s)) {}
  value(map m) : v_(std::move(m)) {}

  /// An optional that holds `inner` (or nothing, when `inner` is none).
  static value optional(value inner) {
    inner.optional_ = true;
    return inner;
  }

  value_kind kind() const { return static_cast<value_kind>(v_.index()); }
  bool is_tensor() const { return kind() == value_kind::tensor; }
  bool is_sequence() const { return kind() == value_kind::sequence; }
  bool is_map() const { return kind() == value_kind::map; }
  bool is_none() const { return kind() == value_kind::none; }
  bool is_optional() const { return optional_; }

  tensor& as_tensor() { return std::get<tensor>(v_); }
  const tensor& as_tensor() const { return std::get<tensor>(v_); }
  sequence& as_sequence() { return std::get<sequence>(v_); }
  const sequence& as_sequence() const { return std::get<sequence>(v_); }
  map& as_map() { return std::get<map>(v_); }
  const map& as_map() const { return std::get<map>(v_); }

 private:
  std::variant<std::monostate, tensor, sequence, map> v_;
  bool optional_ = false;
};

}  // namespace onyx
