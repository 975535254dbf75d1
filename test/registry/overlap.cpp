// Must not compile: two ops named Relu whose opset ranges overlap
// (test/CMakeLists.txt expects the static_assert's message).
#include "onyx/ops/add.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/registry/registry.hpp"

struct relu_since_14 : onyx::ops::Relu {
  static constexpr int since = 14;
};

using overlapping = onyx::registry<onyx::op_list<onyx::ops::Add, onyx::ops::Relu, relu_since_14>,
                                   onyx::backend_list<onyx::cpu>>;

int main() { return static_cast<int>(overlapping::table().ops.size()); }
