// Must not compile: a registry that lists an op twice
// (test/CMakeLists.txt expects the static_assert's message).
#include "onyx/ops/add.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/registry/registry.hpp"

using listed_twice = onyx::registry<onyx::op_list<onyx::ops::Relu, onyx::ops::Add, onyx::ops::Relu>,
                                    onyx::backend_list<onyx::cpu>>;

int main() { return static_cast<int>(listed_twice::table().ops.size()); }
