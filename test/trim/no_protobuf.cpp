// A trimmed program with no protobuf at all: its graph is built in C++ as
// onyx's IR (no .onnx file), its registry lists two ops, and it links
// onyx_headers, which carries no loader. check_no_protobuf.sh then proves
// that neither the binary's libraries nor its symbols reach protobuf.

#include "kernels/cpu/add.hpp"
#include "kernels/cpu/relu.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/runtime/session.hpp"
#include "relu_plus_x.hpp"

using two_ops = onyx::registry<onyx::op_list<onyx::ops::Relu, onyx::ops::Add>, onyx::backend_list<onyx::cpu>>;

/// y = Relu(x) + x over float32 [2, 3], as graph IR.
onyx::graph::model relu_plus_x() {
  using namespace onyx;
  auto g = std::make_shared<graph::graph>();
  const value_type t{value_kind::tensor, dtype::float32, sym_shape(extents{2, 3})};
  const int x = g->add_value("x", t), r = g->add_value("r"), y = g->add_value("y");
  g->inputs = {x};
  g->outputs = {y};
  auto node = [&](std::string op, std::vector<int> in, int out) {
    graph::node n;
    n.name = op;
    n.op_type = std::move(op);
    n.inputs = std::move(in);
    n.outputs = {out};
    g->nodes.push_back(std::move(n));
  };
  node("Relu", {x}, r);
  node("Add", {r, x}, y);
  graph::model m;
  m.main = std::move(g);
  m.opsets[""] = 21;
  return m;
}

int main() {
  onyx::basic_session<two_ops> s{relu_plus_x(), {.threads = 1}};
  return check_relu_plus_x(s, "from a graph built in C++ with no protobuf");
}
