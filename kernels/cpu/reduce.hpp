// kernels/cpu/reduce.hpp: the one reduce engine behind every Reduce op.
//
// The input's dims are split into kept and reduced ones; size-1 dims are
// dropped and neighbours with the same role merged. Two loop shapes remain:
//  - last group kept (reducing a middle or leading axis): for each output row
//    a vector of `inner` accumulators walks every reduced offset and adds a
//    contiguous row, so the inner loop is unit-stride and vectorizes;
//  - last group reduced: one accumulator per output walks the reduced
//    offsets, each a contiguous run of `run` elements.
// The (outer x inner-block) space is split over the pool; a full reduction
// to one scalar runs on one thread. Each op is a policy: init / step /
// finish over an accumulator in `compute_t` (float for half types and float,
// int64/uint64 for integers, so integer sums wrap as in the input type).
#pragma once

#include <cmath>
#include <limits>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/reduce.hpp"

namespace onyx::kernels::cpu {

template <class T> struct compute_of {
  using type = std::conditional_t<std::is_floating_point_v<T>, T,
                                  std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;
};
template <> struct compute_of<float16_t> { using type = float; };
template <> struct compute_of<bfloat16_t> { using type = float; };
template <class T> using compute_t = typename compute_of<T>::type;

/// The floating type the transcendental reductions work in.
template <class A> using real_t = std::conditional_t<std::is_floating_point_v<A>, A, double>;

template <class A> constexpr A lowest() {
  if constexpr (std::numeric_limits<A>::has_infinity) return -std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::lowest();
}
template <class A> constexpr A highest() {
  if constexpr (std::numeric_limits<A>::has_infinity) return std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::max();
}

template <class A> constexpr bool is_nan(A x) {
  if constexpr (std::is_floating_point_v<A>) return std::isnan(x);
  else return false;
}

template <class A> struct sum_policy {
  using acc = A;
  static acc init() { return A(0); }
  static acc step(acc a, A x) { return a + x; }
  static auto finish(acc a, std::int64_t) { return a; }
};
template <class A> struct mean_policy : sum_policy<A> {
  static auto finish(A a, std::int64_t n) { return static_cast<real_t<A>>(a) / static_cast<real_t<A>>(n); }
};
template <class A> struct max_policy {
  using acc = A;
  static acc init() { return lowest<A>(); }
  static acc step(acc a, A x) { return (x > a || is_nan(x)) ? x : a; }  // NaN propagates
  static auto finish(acc a, std::int64_t) { return a; }
};
template <class A> struct min_policy {
  using acc = A;
  static acc init() { return highest<A>(); }
  static acc step(acc a, A x) { return (x < a || is_nan(x)) ? x : a; }
  static auto finish(acc a, std::int64_t) { return a; }
};
template <class A> struct prod_policy {
  using acc = A;
  static acc init() { return A(1); }
  static acc step(acc a, A x) { return a * x; }
  static auto finish(acc a, std::int64_t) { return a; }
};
template <class A> struct l1_policy : sum_policy<A> {
  static A step(A a, A x) {
    if constexpr (std::is_unsigned_v<A>) return a + x;
    else return a + (x < 0 ? -x : x);
  }
};
template <class A> struct sum_square_policy : sum_policy<A> {
  static A step(A a, A x) { return a + x * x; }
};
template <class A> struct l2_policy : sum_square_policy<A> {
  static auto finish(A a, std::int64_t) { return std::sqrt(static_cast<real_t<A>>(a)); }
};
template <class A> struct log_sum_policy : sum_policy<A> {
  static auto finish(A a, std::int64_t) { return std::log(static_cast<real_t<A>>(a)); }
};
/// Running max m and sum s of exp(x - m): one pass, no overflow for large x.
template <class A> struct log_sum_exp_policy {
  using R = real_t<A>;
  struct acc {
    R m, s;
  };
  static acc init() { return {-std::numeric_limits<R>::infinity(), 0}; }
  static acc step(acc a, A v) {
    R x = static_cast<R>(v);
    if (x > a.m) {
      a.s = a.s * std::exp(a.m - x) + 1;
      a.m = x;
    } else if (x == a.m) {
      a.s += 1;  // also covers -inf == -inf, where x - m is NaN
    } else {
      a.s += std::exp(x - a.m);
    }
    return a;
  }
  static R finish(acc a, std::int64_t) { return a.m + std::log(a.s); }
};

/// The loop structure of one reduction, from the input shape and the axes.
struct reduce_plan {
  std::int64_t outer = 1, inner = 1, run = 1, count = 1;
  extents kept_dims, red_dims;                     // odometers for outer rows and reduced offsets
  std::vector<std::int64_t> kept_strides, red_strides;

  reduce_plan(const extents& shape, const std::vector<bool>& reduced) {
    struct group {
      std::int64_t size, stride;
      bool reduced;
    };
    auto strides = strides_of(shape);
    std::vector<group> g;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      if (reduced[i]) count *= shape[i];
      if (shape[i] == 1) continue;
      if (!g.empty() && g.back().reduced == reduced[i]) {
        g.back().size *= shape[i];
        g.back().stride = strides[i];
      } else {
        g.push_back({shape[i], strides[i], reduced[i]});
      }
    }
    if (!g.empty()) {
      if (g.back().reduced) run = g.back().size;
      else inner = g.back().size;
      g.pop_back();
    }
    for (auto& x : g) {
      (x.reduced ? red_dims : kept_dims).push_back(x.size);
      (x.reduced ? red_strides : kept_strides).push_back(x.stride);
    }
    outer = element_count(kept_dims);
  }
};

/// Offset of multi-index number `i` of `dims` under `strides`.
inline std::int64_t offset_of(std::int64_t i, const extents& dims, const std::vector<std::int64_t>& strides) {
  std::int64_t off = 0;
  for (std::size_t k = dims.size(); k-- > 0;) {
    off += (i % dims[k]) * strides[k];
    i /= dims[k];
  }
  return off;
}

template <template <class> class Policy, class T>
void reduce(const T* x, T* y, const reduce_plan& p, const thread_pool* pool) {
  using A = compute_t<T>;
  using P = Policy<A>;
  using acc = typename P::acc;
  const std::int64_t reds = element_count(p.red_dims);
  std::vector<std::int64_t> red_off(static_cast<std::size_t>(reds));
  for (std::int64_t r = 0; r < reds; ++r) red_off[r] = offset_of(r, p.red_dims, p.red_strides);

  if (p.inner > 1) {
    constexpr std::int64_t block = 256;
    const std::int64_t blocks = (p.inner + block - 1) / block;
    parallel_for(pool, p.outer * blocks, 1, [&](std::int64_t b, std::int64_t e) {
      acc a[block];
      for (std::int64_t t = b; t < e; ++t) {
        const std::int64_t o = t / blocks, j0 = (t % blocks) * block, n = std::min(block, p.inner - j0);
        const T* base = x + offset_of(o, p.kept_dims, p.kept_strides) + j0;
        for (std::int64_t j = 0; j < n; ++j) a[j] = P::init();
        for (std::int64_t r = 0; r < reds; ++r) {
          const T* row = base + red_off[r];
          for (std::int64_t j = 0; j < n; ++j) a[j] = P::step(a[j], static_cast<A>(load(row[j])));
        }
        T* out = y + o * p.inner + j0;
        for (std::int64_t j = 0; j < n; ++j) out[j] = store<T>(P::finish(a[j], p.count));
      }
    });
  } else {
    parallel_for(pool, p.outer, grain_for(reds * p.run),  // an accumulate per element
                 [&](std::int64_t b, std::int64_t e) {
                   for (std::int64_t o = b; o < e; ++o) {
                     const T* base = x + offset_of(o, p.kept_dims, p.kept_strides);
                     acc a = P::init();
                     for (std::int64_t r = 0; r < reds; ++r) {
                       const T* row = base + red_off[r];
                       for (std::int64_t j = 0; j < p.run; ++j) a = P::step(a, static_cast<A>(load(row[j])));
                     }
                     y[o] = store<T>(P::finish(a, p.count));
                   }
                 });
  }
}

/// Runs a Reduce op: resolves axes, handles the noop and empty cases, then
/// the engine.
template <template <class> class Policy, class T, class Op> status run_reduce(const call<Op>& c) {
  const tensor& x = c.input(0);
  tensor& y = c.output(0);
  std::vector<std::int64_t> axes;
  if (c.has_input(1)) axes = int64s(c.input(1));
  if (axes.empty() && c.attrs().noop_with_empty_axes) return copy_input<T>(c);
  std::vector<bool> reduced(x.rank(), axes.empty());
  for (auto a : axes) {
    ONYX_ASSIGN(int k, ops::normalize_axis(a, x.rank()));
    reduced[k] = true;
  }
  if (y.size() == 0) return ok();
  reduce_plan p(x.shape(), reduced);
  if (p.count == 0) {
    using P = Policy<compute_t<T>>;
    std::fill_n(y.data<T>(), y.size(), store<T>(P::finish(P::init(), 0)));
    return ok();
  }
  reduce<Policy>(x.data<T>(), y.data<T>(), p, c.pool());
  return ok();
}

/// The kernel every Reduce op specializes to, with its policy.
template <class Op, template <class> class Policy> struct reduce_kernel {
  static constexpr std::array types{Op::T};
  template <ops::signature S> static status run(const call<Op>& c) { return run_reduce<Policy, storage_t<S[0]>>(c); }
};

}  // namespace onyx::kernels::cpu

namespace onyx {

// clang-format off

template <> struct kernel<ops::ReduceSum, cpu> : kernels::cpu::reduce_kernel<ops::ReduceSum, kernels::cpu::sum_policy> {};
template <> struct kernel<ops::ReduceMean, cpu> : kernels::cpu::reduce_kernel<ops::ReduceMean, kernels::cpu::mean_policy> {};
template <> struct kernel<ops::ReduceMax, cpu> : kernels::cpu::reduce_kernel<ops::ReduceMax, kernels::cpu::max_policy> {};
template <> struct kernel<ops::ReduceMin, cpu> : kernels::cpu::reduce_kernel<ops::ReduceMin, kernels::cpu::min_policy> {};
template <> struct kernel<ops::ReduceProd, cpu> : kernels::cpu::reduce_kernel<ops::ReduceProd, kernels::cpu::prod_policy> {};
template <> struct kernel<ops::ReduceL1, cpu> : kernels::cpu::reduce_kernel<ops::ReduceL1, kernels::cpu::l1_policy> {};
template <> struct kernel<ops::ReduceL2, cpu> : kernels::cpu::reduce_kernel<ops::ReduceL2, kernels::cpu::l2_policy> {};
template <> struct kernel<ops::ReduceLogSum, cpu> : kernels::cpu::reduce_kernel<ops::ReduceLogSum, kernels::cpu::log_sum_policy> {};
template <> struct kernel<ops::ReduceLogSumExp, cpu> : kernels::cpu::reduce_kernel<ops::ReduceLogSumExp, kernels::cpu::log_sum_exp_policy> {};
template <> struct kernel<ops::ReduceSumSquare, cpu> : kernels::cpu::reduce_kernel<ops::ReduceSumSquare, kernels::cpu::sum_square_policy> {};
// clang-format on

}  // namespace onyx
