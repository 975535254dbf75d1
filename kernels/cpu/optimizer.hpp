// kernels/cpu/optimizer.hpp: what the kernels of the training optimizers
// (Adagrad, Momentum, Adam) share: reading the scalars R and T, and checking
// that every input list's i-th tensor has the shape of X_i. Each update is
// computed in double per element and stored in the tensors' type.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/cpu/elementwise.hpp"

namespace onyx::kernels::cpu {

struct optimizer_step {
  int n = 0;           // tensors updated
  double R = 0;        // learning rate
  std::int64_t T = 0;  // update count
};

/// R, T and n for a node whose inputs are R, T and `lists` lists of n tensors.
template <dtype T1>
result<optimizer_step> optimizer_step_of(const kernel_call& c, int lists) {
  optimizer_step s;
  s.n = (c.input_count() - 2) / lists;
  if (c.input(0).size() != 1 || c.input(1).size() != 1)
    return status(errc::invalid_argument, "R and T must be scalars");
  s.R = static_cast<double>(c.input(0).data<storage_t<T1>>()[0]);
  s.T = c.input(1).data<std::int64_t>()[0];
  for (int i = 0; i < s.n; ++i)
    for (int l = 1; l < lists; ++l)
      if (c.input(2 + l * s.n + i).shape() != c.input(2 + i).shape())
        return status(errc::invalid_argument, "input " + std::to_string(2 + l * s.n + i) + " has shape " +
                                                  to_string(c.input(2 + l * s.n + i).shape()) + ", its X has " +
                                                  to_string(c.input(2 + i).shape()));
  return s;
}

}  // namespace onyx::kernels::cpu
