// kernels/cpu/loss.hpp: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
//
// The typed run<S> only widens the input to double and the targets to int64;
// the loss itself (log-softmax over the class axis for SCE, the gather, the
// weights and the reduction) is one untyped routine over [N, C, D] with D the
// product of the trailing dims. Sums are in double.
#pragma once

#include <cmath>
#include <vector>

#include "onyx/core/float_convert.hpp"
#include "onyx/ops/negative_log_likelihood_loss.hpp"
#include "onyx/ops/softmax_cross_entropy_loss.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::loss_detail {

/// Loss of log-probabilities `logp` [N, C, D] against `target` [N, D].
inline status nll(const kernel_call& c, const std::vector<double>& logp, std::int64_t N, std::int64_t C,
                  std::int64_t D, std::optional<std::int64_t> ignore, const std::string& reduction) {
  const tensor& t = c.input(1);
  std::vector<std::int64_t> target(static_cast<std::size_t>(t.size()));
  if (t.type() == dtype::int32)
    std::copy_n(t.data<std::int32_t>(), target.size(), target.begin());
  else
    std::copy_n(t.data<std::int64_t>(), target.size(), target.begin());
  if (static_cast<std::int64_t>(target.size()) != N * D)
    return status(errc::invalid_argument, "target " + to_string(t.shape()) + " does not match the input's [N, d...]");
  std::vector<double> weight;
  if (c.has_input(2)) {
    weight.resize(static_cast<std::size_t>(c.input(2).size()));
    onyx::widen(c.input(2), std::span<double>(weight));
    if (static_cast<std::int64_t>(weight.size()) != C)
      return status(errc::invalid_argument, "weight must have C = " + std::to_string(C) + " values");
  }
  std::vector<double> loss(target.size());
  double wsum = 0;
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t d = 0; d < D; ++d) {
      const std::size_t i = static_cast<std::size_t>(n * D + d);
      const std::int64_t k = target[i];
      if (ignore && k == *ignore) {
        loss[i] = 0;
        continue;
      }
      if (k < 0 || k >= C)
        return status(errc::out_of_range, "target " + std::to_string(k) + " at position " + std::to_string(i) +
                                              " is outside the classes [0, " + std::to_string(C) + ")");
      const double w = weight.empty() ? 1.0 : weight[static_cast<std::size_t>(k)];
      loss[i] = -logp[static_cast<std::size_t>((n * C + k) * D + d)] * w;
      wsum += w;
    }
  tensor& out = c.output(0);
  if (reduction == "none") {
    onyx::narrow(std::span<const double>(loss), out);
  } else {
    double sum = 0;
    for (double v : loss) sum += v;
    const double reduced = reduction == "sum" ? sum : sum / wsum;
    onyx::narrow(std::span<const double>(&reduced, 1), out);
  }
  return ok();
}

/// [N, C, D] of the input: N, C and the product of the trailing dims.
inline void split_shape(const tensor& x, std::int64_t& N, std::int64_t& C, std::int64_t& D) {
  N = x.dim(0), C = x.dim(1), D = 1;
  for (std::size_t i = 2; i < x.rank(); ++i) D *= x.dim(i);
}

inline status nll_loss(const call<ops::NegativeLogLikelihoodLoss>& c) {
  std::int64_t N, C, D;
  split_shape(c.input(0), N, C, D);
  std::vector<double> x(static_cast<std::size_t>(c.input(0).size()));
  onyx::widen(c.input(0), std::span<double>(x));
  return nll(c, x, N, C, D, c.attrs().ignore_index, c.attrs().reduction);
}

inline status sce_loss(const call<ops::SoftmaxCrossEntropyLoss>& c) {
  std::int64_t N, C, D;
  split_shape(c.input(0), N, C, D);
  std::vector<double> x(static_cast<std::size_t>(c.input(0).size()));
  onyx::widen(c.input(0), std::span<double>(x));
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t d = 0; d < D; ++d) {
      double* base = x.data() + n * C * D + d;
      double m = -INFINITY, sum = 0;
      for (std::int64_t k = 0; k < C; ++k) m = std::max(m, base[k * D]);
      for (std::int64_t k = 0; k < C; ++k) sum += std::exp(base[k * D] - m);
      const double ls = m + std::log(sum);
      for (std::int64_t k = 0; k < C; ++k) base[k * D] -= ls;
    }
  if (c.has_output(1)) onyx::narrow(std::span<const double>(x), c.output(1));
  return nll(c, x, N, C, D, c.attrs().ignore_index, c.attrs().reduction);
}

}  // namespace onyx::kernels::cpu::loss_detail

namespace onyx {

template <> struct kernel<ops::NegativeLogLikelihoodLoss, cpu> {
  static constexpr std::array types{dtypes::floats, dtypes::indices};
  template <ops::signature S> static status run(const call<ops::NegativeLogLikelihoodLoss>& c) {
    return kernels::cpu::loss_detail::nll_loss(c);
  }
};

template <> struct kernel<ops::SoftmaxCrossEntropyLoss, cpu> {
  static constexpr std::array types{dtypes::floats, dtypes::indices};
  template <ops::signature S> static status run(const call<ops::SoftmaxCrossEntropyLoss>& c) {
    return kernels::cpu::loss_detail::sce_loss(c);
  }
};

}  // namespace onyx
