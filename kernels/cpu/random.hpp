// kernel<X, cpu> for the random generator ops: RandomUniform, RandomNormal,
// RandomUniformLike, RandomNormalLike, Bernoulli, Multinomial.
//
// Each call draws from its own generator (kernels/cpu/random_generator.hpp):
// with a `seed` attribute every run draws the same values, without one each
// run draws anew. Uniform values are low + (high - low) * u with u uniform in [0, 1)
// in double precision, rounded to the output type; normal values come from
// std::normal_distribution<double>. The values differ from ONNX Runtime's
// (another generator): only their distribution is specified.
#pragma once

#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/random_generator.hpp"
#include "onyx/ops/bernoulli.hpp"
#include "onyx/ops/multinomial.hpp"
#include "onyx/ops/random_normal.hpp"
#include "onyx/ops/random_normal_like.hpp"
#include "onyx/ops/random_uniform.hpp"
#include "onyx/ops/random_uniform_like.hpp"

namespace onyx::kernels::cpu {

/// A float `seed` attribute as the generator's seed: its bits.
inline std::optional<std::uint64_t> seed_bits(const std::optional<float>& seed) {
  if (!seed) return std::nullopt;
  return std::bit_cast<std::uint32_t>(*seed);
}

/// Fills `y` with low + (high - low) * u, u uniform in [0, 1).
template <class T> void fill_uniform(tensor& y, double low, double high, std::mt19937_64& g) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  T* d = y.data<T>();
  for (std::int64_t i = 0; i < y.size(); ++i) {
    // Rounding to a narrow type may reach `high`: draw again (a few times at
    // most, then `low`) to keep the interval half-open.
    T s = store<T>(low);
    for (int tries = 0; tries < 16; ++tries) {
      T v = store<T>(low + (high - low) * u(g));
      if (!(high > low) || static_cast<double>(load(v)) < high) {
        s = v;
        break;
      }
    }
    d[i] = s;
  }
}

template <class T> void fill_normal(tensor& y, double mean, double scale, std::mt19937_64& g) {
  std::normal_distribution<double> n(mean, scale);
  T* d = y.data<T>();
  for (std::int64_t i = 0; i < y.size(); ++i) d[i] = store<T>(scale > 0 ? n(g) : mean);
}

}  // namespace onyx::kernels::cpu

namespace onyx {

template <> struct kernel<ops::RandomUniform, cpu> {
  static constexpr std::array types{ops::RandomUniform::T};
  template <ops::signature S> static status run(const call<ops::RandomUniform>& c) {
    auto g = kernels::cpu::random_generator(kernels::cpu::seed_bits(c.attrs().seed));
    kernels::cpu::fill_uniform<storage_t<S[0]>>(c.output(0), c.attrs().low, c.attrs().high, g);
    return ok();
  }
};

template <> struct kernel<ops::RandomNormal, cpu> {
  static constexpr std::array types{ops::RandomNormal::T};
  template <ops::signature S> static status run(const call<ops::RandomNormal>& c) {
    auto g = kernels::cpu::random_generator(kernels::cpu::seed_bits(c.attrs().seed));
    kernels::cpu::fill_normal<storage_t<S[0]>>(c.output(0), c.attrs().mean, c.attrs().scale, g);
    return ok();
  }
};

template <> struct kernel<ops::RandomUniformLike, cpu> {
  static constexpr std::array types{ops::RandomUniformLike::T2};
  template <ops::signature S> static status run(const call<ops::RandomUniformLike>& c) {
    auto g = kernels::cpu::random_generator(kernels::cpu::seed_bits(c.attrs().seed));
    kernels::cpu::fill_uniform<storage_t<S[0]>>(c.output(0), c.attrs().low, c.attrs().high, g);
    return ok();
  }
};

template <> struct kernel<ops::RandomNormalLike, cpu> {
  static constexpr std::array types{ops::RandomNormalLike::T2};
  template <ops::signature S> static status run(const call<ops::RandomNormalLike>& c) {
    auto g = kernels::cpu::random_generator(kernels::cpu::seed_bits(c.attrs().seed));
    kernels::cpu::fill_normal<storage_t<S[0]>>(c.output(0), c.attrs().mean, c.attrs().scale, g);
    return ok();
  }
};

template <> struct kernel<ops::Bernoulli, cpu> {
  static constexpr std::array types{ops::Bernoulli::T1, ops::Bernoulli::T2};
  template <ops::signature S> static status run(const call<ops::Bernoulli>& c) {
    using In = storage_t<S[0]>;
    using Out = storage_t<S[1]>;
    const tensor& p = c.input(0);
    tensor& y = c.output(0);
    auto g = kernels::cpu::random_generator(kernels::cpu::seed_bits(c.attrs().seed));
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const In* pd = p.data<In>();
    Out* d = y.data<Out>();
    for (std::int64_t i = 0; i < y.size(); ++i) {
      const double prob = static_cast<double>(load(pd[i]));
      if (!(prob >= 0 && prob <= 1))
        return status(errc::invalid_argument, "probability " + std::to_string(prob) + " at element " +
                                                  std::to_string(i) + " is outside [0, 1]");
      d[i] = store<Out>(u(g) < prob ? 1 : 0);
    }
    return ok();
  }
};

template <> struct kernel<ops::Multinomial, cpu> {
  static constexpr std::array types{ops::Multinomial::T1, ops::Multinomial::T2};
  template <ops::signature S> static status run(const call<ops::Multinomial>& c) {
    using In = storage_t<S[0]>;
    using Out = storage_t<S[1]>;
    const tensor& x = c.input(0);
    if (x.rank() != 2) return status(errc::invalid_argument, "input must be 2-D, got " + to_string(x.shape()));
    const std::int64_t batch = x.dim(0), classes = x.dim(1), samples = c.attrs().sample_size;
    if (classes < 1) return status(errc::invalid_argument, "input has no classes");
    auto g = kernels::cpu::random_generator(kernels::cpu::seed_bits(c.attrs().seed));
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<double> cdf(static_cast<std::size_t>(classes));
    const In* xd = x.data<In>();
    Out* d = c.output(0).data<Out>();
    for (std::int64_t b = 0; b < batch; ++b) {
      // Cumulative softmax of the row (shifted by its max, so exp stays finite).
      const In* row = xd + b * classes;
      double top = -INFINITY;
      for (std::int64_t k = 0; k < classes; ++k) top = std::max(top, static_cast<double>(load(row[k])));
      double sum = 0;
      for (std::int64_t k = 0; k < classes; ++k) cdf[k] = sum += std::exp(static_cast<double>(load(row[k])) - top);
      for (std::int64_t s = 0; s < samples; ++s) {
        const double r = u(g) * sum;
        std::int64_t k = std::upper_bound(cdf.begin(), cdf.end(), r) - cdf.begin();
        d[b * samples + s] = static_cast<Out>(std::min(k, classes - 1));
      }
    }
    return ok();
  }
};

}  // namespace onyx
