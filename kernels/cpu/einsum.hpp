// kernel<ops::Einsum, cpu>: a direct loop over the labels. Each input gets a
// stride per label (the sum of the strides of its dims with that label, so a
// repeated label walks the diagonal; 0 where a size-1 dim broadcasts). Each
// output element (split over the pool) walks the summed labels with an
// odometer, adding the product of the inputs. Correct for every equation;
// O(output * summed-space * inputs), no transposes or GEMM.
#pragma once

#include <vector>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/einsum.hpp"

namespace onyx {

namespace kernels::cpu {

struct einsum_plan {
  std::vector<std::int64_t> out_sizes, sum_sizes;
  std::vector<std::vector<std::int64_t>> out_strides, sum_strides;  // [input][label position]
};

inline result<einsum_plan> plan_einsum(const kernel_call& c, const std::string& equation) {
  int n = c.input_count();
  std::vector<std::size_t> ranks;
  for (int i = 0; i < n; ++i) ranks.push_back(c.input(i).rank());
  ONYX_ASSIGN(auto s, ops::detail::parse_einsum(equation, ranks));
  std::vector<std::int64_t> size(s.label_count(), 1);
  for (int i = 0; i < n; ++i)
    for (std::size_t d = 0; d < s.inputs[i].size(); ++d) {
      int l = s.inputs[i][d];
      std::int64_t x = c.input(i).dim(d);
      if (x == 1) continue;
      if (size[l] != 1 && size[l] != x)
        return status(errc::invalid_argument, "einsum '" + equation + "': a label has sizes " +
                                                  std::to_string(size[l]) + " and " + std::to_string(x));
      size[l] = x;
    }
  std::vector<std::vector<std::int64_t>> stride(n, std::vector<std::int64_t>(s.label_count(), 0));
  for (int i = 0; i < n; ++i) {
    std::int64_t st = 1;
    for (std::size_t d = s.inputs[i].size(); d-- > 0;) {
      int l = s.inputs[i][d];
      if (c.input(i).dim(d) != 1) stride[i][l] += st;
      st *= c.input(i).dim(d);
    }
  }
  std::vector<bool> in_output(s.label_count(), false);
  for (int l : s.output) in_output[l] = true;
  std::vector<bool> used(s.label_count(), false);
  for (auto& labels : s.inputs)
    for (int l : labels) used[l] = true;
  einsum_plan p;
  p.out_strides.resize(n);
  p.sum_strides.resize(n);
  for (int l : s.output) {
    p.out_sizes.push_back(size[l]);
    for (int i = 0; i < n; ++i) p.out_strides[i].push_back(stride[i][l]);
  }
  for (int l = 0; l < s.label_count(); ++l) {
    if (in_output[l] || !used[l]) continue;
    p.sum_sizes.push_back(size[l]);
    for (int i = 0; i < n; ++i) p.sum_strides[i].push_back(stride[i][l]);
  }
  return p;
}

template <class T> status einsum(const kernel_call& c, const std::string& equation) {
  ONYX_ASSIGN(auto p, plan_einsum(c, equation));
  int n = c.input_count();
  using A = std::conditional_t<std::is_floating_point_v<decltype(load(T{}))>, double, T>;
  std::vector<const T*> xs(n);
  for (int i = 0; i < n; ++i) xs[i] = c.input(i).data<T>();
  tensor& y = c.output(0);
  T* ys = y.data<T>();
  std::int64_t total = element_count(p.out_sizes), summed = element_count(p.sum_sizes);
  std::size_t ro = p.out_sizes.size(), rs = p.sum_sizes.size();
  parallel_for(c.pool(), total, grain_for(summed * n),  // n loads per summed term
               [&](std::int64_t b, std::int64_t e) {
                 std::vector<std::int64_t> base(n), off(n), idx(rs);
                 for (std::int64_t o = b; o < e; ++o) {
                   std::fill(base.begin(), base.end(), 0);
                   for (std::int64_t rem = o, d = static_cast<std::int64_t>(ro) - 1; d >= 0; --d) {
                     std::int64_t v = rem % p.out_sizes[d];
                     rem /= p.out_sizes[d];
                     for (int i = 0; i < n; ++i) base[i] += v * p.out_strides[i][d];
                   }
                   off = base;
                   std::fill(idx.begin(), idx.end(), 0);
                   A acc{};
                   for (std::int64_t k = 0; k < summed; ++k) {
                     A prod = static_cast<A>(load(xs[0][off[0]]));
                     for (int i = 1; i < n; ++i) prod *= static_cast<A>(load(xs[i][off[i]]));
                     acc += prod;
                     for (std::size_t d = rs; d-- > 0;) {  // odometer step over the summed labels
                       for (int i = 0; i < n; ++i) off[i] += p.sum_strides[i][d];
                       if (++idx[d] < p.sum_sizes[d]) break;
                       for (int i = 0; i < n; ++i) off[i] -= p.sum_strides[i][d] * p.sum_sizes[d];
                       idx[d] = 0;
                     }
                   }
                   ys[o] = store<T>(acc);
                 }
               });
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::Einsum, cpu> {
  static constexpr std::array types{ops::Einsum::T};
  template <ops::signature S> static status run(const call<ops::Einsum>& c) {
    return kernels::cpu::einsum<storage_t<S[0]>>(c, c.attrs().equation);
  }
};

}  // namespace onyx
