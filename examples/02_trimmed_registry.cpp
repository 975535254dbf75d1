// 02: a trimmed, header-only build: only the ops ResNet-50 needs.
//
// The registry lists the ops; only their CPU kernels are instantiated in this
// program, which links neither the prebuilt kernel library nor any other op.
// (onyx-ops will write such lists from a model; here it is written by hand.)
#include <cstdio>

#include "kernels/cpu/constant_of_shape.hpp"
#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/flatten.hpp"
#include "kernels/cpu/gemm.hpp"
#include "kernels/cpu/mat_mul.hpp"
#include "kernels/cpu/normalization.hpp"
#include "kernels/cpu/pool.hpp"
#include "kernels/cpu/relu.hpp"
#include "kernels/cpu/shape.hpp"
#include "kernels/cpu/reshape.hpp"
#include "kernels/cpu/softmax.hpp"
#include "kernels/cpu/sum.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/ops/average_pool.hpp"
#include "onyx/ops/batch_normalization.hpp"
#include "onyx/ops/constant_of_shape.hpp"
#include "onyx/ops/flatten.hpp"
#include "onyx/ops/shape.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/gemm.hpp"
#include "onyx/ops/max_pool.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/reshape.hpp"
#include "onyx/ops/softmax.hpp"
#include "onyx/ops/sum.hpp"
#include "onyx/runtime/session.hpp"

namespace ops = onyx::ops;
using resnet_ops = onyx::op_list<ops::AveragePool, ops::BatchNormalization, ops::ConstantOfShape, ops::Conv,
                                 ops::Gemm, ops::MaxPool, ops::Relu, ops::Reshape, ops::Reshape_v1, ops::Softmax,
                                 ops::Softmax_v1, ops::Flatten, ops::Shape, ops::Sum>;
using resnet_registry = onyx::registry<resnet_ops, onyx::backend_list<onyx::cpu>>;

int main() {
  onyx::basic_session<resnet_registry> s{ONYX_EXAMPLE_MODELS "/resnet50.onnx", {.threads = 2}};
  auto x = onyx::tensor::zeros(onyx::dtype::float32, {1, 3, 224, 224});
  auto out = s.run({{s.inputs()[0].name, x}});
  std::printf("%zu nodes after optimization; output %s\n", s.nodes().size(),
              onyx::sym_shape(out[0].as_tensor().shape()).str().c_str());
  return out[0].as_tensor().size() == 1000 ? 0 : 1;
}
