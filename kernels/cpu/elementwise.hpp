// kernels/cpu/elementwise.hpp: kernel skeletons the elementwise ops share.
//
// An elementwise kernel is a functor over arithmetic values plus one of these
// skeletons: `binary_kernel` (broadcasting, output of the input type),
// `predicate_kernel` (broadcasting, bool output), `variadic_kernel`
// (Sum/Max/Min/Mean), `unary_kernel`. Half types (float16, bfloat16) are
// computed in float per element: widened on load, rounded on store.
#pragma once

#include <cstring>

#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/isa/isa.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu {

/// The C++ type an element of T is stored as: storage_t, and std::string for strings.
template <dtype T> struct stored_as {
  using type = storage_t<T>;
};
template <> struct stored_as<dtype::string> {
  using type = std::string;
};
template <dtype T> using stored_t = typename stored_as<T>::type;

/// A functor for one node: built from the op's attributes when it takes them.
template <class F, class Attrs> F make_fn(const Attrs& a) {
  if constexpr (std::is_constructible_v<F, const Attrs&>)
    return F(a);
  else
    return F{};
}

/// Elements per parallel chunk: F::grain, else the cheap-op grain.
template <class F> constexpr std::int64_t grain_of() {
  if constexpr (requires { F::grain; })
    return F::grain;
  else
    return elementwise_grain;
}

/// y = F(a, b) with broadcasting, y of the inputs' type.
template <class Op, class F, dtype_set Types> struct binary_kernel {
  static constexpr std::array types{Types};
  template <ops::signature S> static status run(const call<Op>& c) {
    using T = storage_t<S[0]>;
    return broadcast_binary<T, T, T>(c.input(0), c.input(1), c.output(0), F{}, c.pool());
  }
};

/// y = F(a, b) with broadcasting, y bool (comparisons, logic).
template <class Op, class F, dtype_set Types> struct predicate_kernel {
  static constexpr std::array types{Types};
  template <ops::signature S> static status run(const call<Op>& c) {
    using T = stored_t<S[0]>;
    return broadcast_binary<bool, T, T>(c.input(0), c.input(1), c.output(0), F{}, c.pool());
  }
};

/// y = F(x) elementwise, y of type Out (default: the input's). For float32,
/// a functor with `static isa::f32_unary_fn f32_isa(const isa::table&)` runs
/// that micro-kernel instead when the table has one.
template <class Op, class F, dtype_set Types, dtype Out = dtype::undefined> struct unary_kernel {
  static constexpr std::array types{Types};
  template <ops::signature S> static status run(const call<Op>& c) {
    using T = storage_t<S[0]>;
    using O = storage_t<Out == dtype::undefined ? S[0] : Out>;
    const tensor& x = c.input(0);
    tensor& y = c.output(0);
    if constexpr (std::is_same_v<T, float> && std::is_same_v<O, float> && requires { F::f32_isa(isa::active()); }) {
      if (isa::f32_unary_fn fn = F::f32_isa(isa::active())) {
        const float* xs = x.data<float>();
        float* ys = y.data<float>();
        parallel_for(c.pool(), x.size(), transcendental_grain,
                     [&](std::int64_t b, std::int64_t e) { fn(xs + b, ys + b, e - b); });
        return ok();
      }
    }
    map_unary(x.data<T>(), y.template data<O>(), x.size(), make_fn<F>(c.attrs()), c.pool(), grain_of<F>());
    return ok();
  }
};

/// Copies `from` into `to` (same dtype and element count), strings included.
inline void copy_elements(const tensor& from, tensor& to) {
  if (from.raw() == to.raw()) return;
  if (from.type() == dtype::string)
    std::copy_n(from.data<std::string>(), from.size(), to.data<std::string>());
  else
    std::memcpy(to.raw(), from.raw(), from.bytes());
}

/// y = broadcast of F over every present input, left to right; the first two
/// are combined in one pass, each later one accumulated into y. Finish(y, n)
/// runs last (Mean divides by the count).
template <class Op, class F, dtype_set Types> struct variadic_kernel {
  static constexpr std::array types{Types};
  template <ops::signature S> static status run(const call<Op>& c) {
    using T = storage_t<S[0]>;
    tensor& y = c.output(0);
    // The present inputs in order, except that the first one from the third
    // on that aliases y (in-place planning) swaps places with the first: it
    // must be consumed in the first pass, before y is written. F is
    // commutative. Positions are counted, not listed: run allocates nothing.
    auto present = [&](int k) -> const tensor& {  // the k-th present input
      int i = 0;
      for (int seen = 0;; ++i)
        if (c.has_input(i) && seen++ == k) break;
      return c.input(i);
    };
    int count = 0;
    for (int i = 0; i < c.input_count(); ++i) count += c.has_input(i) ? 1 : 0;
    int alias = -1;
    for (int k = 2; k < count && alias < 0; ++k)
      if (present(k).raw() == y.raw()) alias = k;
    auto in = [&](int k) -> const tensor& { return present(alias < 0 ? k : k == 0 ? alias : k == alias ? 0 : k); };
    if (count == 1) {
      if (in(0).shape() != y.shape())
        return status(errc::invalid_argument,
                      "output shape " + to_string(y.shape()) + " differs from the input's " + to_string(in(0).shape()));
      copy_elements(in(0), y);
    } else {
      ONYX_TRY((broadcast_binary<T, T, T>(in(0), in(1), y, F{}, c.pool())));
      for (int k = 2; k < count; ++k) ONYX_TRY(accumulate_broadcast<T>(y, in(k), F{}, c.pool()));
    }
    if constexpr (requires(T* p) { F::finish(p, std::int64_t{}, 0, c.pool()); })
      F::finish(y.data<T>(), y.size(), count, c.pool());
    return ok();
  }
};

}  // namespace onyx::kernels::cpu
