// CPU kernels of the sequence and optional ops. Sequences hold tensors by
// value (shared buffers); only SplitToSequence and ConcatFromSequence move
// element data, by element width through copy_elements.
#pragma once

#include "kernels/cpu/control.hpp"
#include "onyx/ops/sequence_ops.hpp"

namespace onyx {

namespace kernels::cpu {

inline result<const sequence*> sequence_input(const kernel_call& c, int i) {
  if (!c.in_[i] || !c.in_[i]->is_sequence())
    return status(errc::invalid_argument, "input " + std::to_string(i) + " is not a sequence");
  return &c.in_[i]->as_sequence();
}

/// The owning copy of `t` a sequence may keep past this run's arena.
inline tensor kept(const tensor& t) { return t.owns() ? t : t.clone(); }

}  // namespace kernels::cpu

template <> struct kernel<ops::SequenceEmpty, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::SequenceEmpty>& c) {
    c.output_value(0) = sequence{static_cast<dtype>(c.attrs().dtype), {}};
    return ok();
  }
};

template <> struct kernel<ops::SequenceConstruct, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::SequenceConstruct>& c) {
    sequence s{c.input(0).type(), {}};
    for (int i = 0; i < c.input_count(); ++i) s.items.emplace_back(kernels::cpu::kept(c.input(i)));
    c.output_value(0) = std::move(s);
    return ok();
  }
};

template <> struct kernel<ops::SequenceInsert, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::SequenceInsert>& c) {
    ONYX_ASSIGN(const sequence* in, kernels::cpu::sequence_input(c, 0));
    sequence s = *in;
    if (s.elem_type == dtype::undefined) s.elem_type = c.input(1).type();
    auto n = static_cast<std::int64_t>(s.items.size());
    std::int64_t at = n;
    if (c.has_input(2)) {
      ONYX_ASSIGN(at, ops::detail::sequence_position(kernels::cpu::int64s(c.input(2)).at(0), n, 1));
    }
    s.items.insert(s.items.begin() + at, value(kernels::cpu::kept(c.input(1))));
    c.output_value(0) = std::move(s);
    return ok();
  }
};

template <> struct kernel<ops::SequenceAt, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::SequenceAt>& c) {
    ONYX_ASSIGN(const sequence* s, kernels::cpu::sequence_input(c, 0));
    ONYX_ASSIGN(std::int64_t at, ops::detail::sequence_position(kernels::cpu::int64s(c.input(1)).at(0),
                                                                static_cast<std::int64_t>(s->items.size()), 0));
    return kernels::cpu::set_output_value(c, 0, s->items[at]);
  }
};

template <> struct kernel<ops::SequenceErase, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::SequenceErase>& c) {
    ONYX_ASSIGN(const sequence* in, kernels::cpu::sequence_input(c, 0));
    sequence s = *in;
    auto n = static_cast<std::int64_t>(s.items.size());
    std::int64_t at = n - 1;
    if (c.has_input(1)) {
      ONYX_ASSIGN(at, ops::detail::sequence_position(kernels::cpu::int64s(c.input(1)).at(0), n, 0));
    }
    if (n == 0) return status(errc::out_of_range, "cannot erase from an empty sequence");
    s.items.erase(s.items.begin() + at);
    c.output_value(0) = std::move(s);
    return ok();
  }
};

template <> struct kernel<ops::SequenceLength, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::SequenceLength>& c) {
    ONYX_ASSIGN(const sequence* s, kernels::cpu::sequence_input(c, 0));
    return kernels::cpu::set_output_value(c, 0, tensor::scalar(static_cast<std::int64_t>(s->items.size())));
  }
};

template <> struct kernel<ops::ConcatFromSequence, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::ConcatFromSequence>& c) {
    ONYX_ASSIGN(const sequence* s, kernels::cpu::sequence_input(c, 0));
    if (s->items.empty()) return status(errc::invalid_argument, "cannot concatenate an empty sequence");
    const tensor& first = s->items[0].as_tensor();
    const bool stack = c.attrs().new_axis != 0;
    ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, first.rank() + (stack ? 1 : 0)));
    // Each piece is viewed as [outer, len * inner]; pieces sit side by side.
    extents shape = first.shape();
    if (stack) shape.insert(shape.begin() + axis, 0);
    shape[axis] = 0;
    const std::int64_t outer = element_count(std::span(shape).first(axis)),
                       inner = element_count(std::span(shape).subspan(axis + 1));
    for (std::size_t i = 0; i < s->items.size(); ++i) {
      const tensor& t = s->items[i].as_tensor();
      extents e = t.shape();
      if (stack) e.insert(e.begin() + axis, 1);
      bool fits = t.type() == first.type() && e.size() == shape.size();
      for (std::size_t d = 0; fits && d < e.size(); ++d) fits = static_cast<int>(d) == axis || e[d] == shape[d];
      if (!fits)
        return status(errc::invalid_argument, "tensor " + std::to_string(i) + " (" + to_string(t.shape()) +
                                                  ") does not fit tensor 0 (" + to_string(first.shape()) + ")");
      shape[axis] += e[axis];
    }
    tensor out = tensor::uninitialized(first.type(), shape);
    std::int64_t offset = 0;  // along the axis
    for (const auto& v : s->items) {
      const tensor& t = v.as_tensor();
      const std::int64_t len = stack ? 1 : t.dim(axis);
      for (std::int64_t o = 0; o < outer; ++o)
        kernels::cpu::copy_elements(t.type(), t.raw(), o * len * inner, out.raw(), (o * shape[axis] + offset) * inner,
                                    len * inner);
      offset += len;
    }
    return kernels::cpu::set_output_value(c, 0, std::move(out));
  }
};

template <> struct kernel<ops::SplitToSequence, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::SplitToSequence>& c) {
    const tensor& x = c.input(0);
    ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
    const std::int64_t len = x.dim(axis);
    std::vector<std::int64_t> lengths;
    bool squeeze = false;
    if (!c.has_input(1)) {
      lengths.assign(static_cast<std::size_t>(len), 1);
      squeeze = c.attrs().keepdims == 0;
    } else if (c.input(1).rank() == 0) {
      const std::int64_t chunk = kernels::cpu::int64s(c.input(1))[0];
      if (chunk <= 0) return status(errc::invalid_argument, "split " + std::to_string(chunk) + " must be positive");
      for (std::int64_t at = 0; at < len; at += chunk) lengths.push_back(std::min(chunk, len - at));
    } else {
      lengths = kernels::cpu::int64s(c.input(1));
      std::int64_t sum = 0;
      for (auto l : lengths) {
        if (l < 0) return status(errc::invalid_argument, "split lengths must not be negative");
        sum += l;
      }
      if (sum != len)
        return status(errc::invalid_argument, "split lengths sum to " + std::to_string(sum) + ", but axis " +
                                                  std::to_string(axis) + " has " + std::to_string(len));
    }
    const std::int64_t outer = element_count(std::span(x.shape()).first(axis)),
                       inner = element_count(std::span(x.shape()).subspan(axis + 1));
    sequence s{x.type(), {}};
    std::int64_t start = 0;
    for (auto l : lengths) {
      extents e = x.shape();
      e[axis] = l;
      tensor part = tensor::uninitialized(x.type(), e);
      for (std::int64_t o = 0; o < outer; ++o)
        kernels::cpu::copy_elements(x.type(), x.raw(), (o * len + start) * inner, part.raw(), o * l * inner, l * inner);
      if (squeeze) e.erase(e.begin() + axis), part = part.reshaped(e);
      s.items.emplace_back(std::move(part));
      start += l;
    }
    c.output_value(0) = std::move(s);
    return ok();
  }
};

template <> struct kernel<ops::Optional, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::Optional>& c) {
    value v = c.input_count() > 0 && c.in_[0] ? *c.in_[0] : value{};
    if (v.is_tensor()) v = kernels::cpu::kept(v.as_tensor());
    c.output_value(0) = value::optional(std::move(v));
    return ok();
  }
};

template <> struct kernel<ops::OptionalHasElement, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::OptionalHasElement>& c) {
    bool has = c.input_count() > 0 && c.in_[0] && !c.in_[0]->is_none();
    return kernels::cpu::set_output_value(c, 0, tensor::scalar(has));
  }
};

template <> struct kernel<ops::OptionalGetElement, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature> static status run(const call<ops::OptionalGetElement>& c) {
    if (!c.in_[0] || c.in_[0]->is_none()) return status(errc::invalid_argument, "the optional input is empty");
    value v = *c.in_[0];
    if (v.is_tensor()) return kernels::cpu::set_output_value(c, 0, v.as_tensor());
    c.output_value(0) = v.is_sequence() ? value(v.as_sequence()) : v;
    return ok();
  }
};

}  // namespace onyx
