// A program built with ONYX_NO_SUBGRAPHS (what onyx-ops' op list defines
// for a model without subgraphs): it runs a model without subgraphs, and
// refuses one whose If node holds two, naming the node and the switch,
// although its registry lists If; the compact reader refuses such a model's
// file too.

#include <cstring>

#include "kernels/cpu/add.hpp"
#include "kernels/cpu/if.hpp"
#include "kernels/cpu/relu.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/if.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/graph/compact.hpp"
#include "onyx/graph/resolve.hpp"
#include "onyx/runtime/session.hpp"
#include "relu_plus_x.hpp"

#if !defined(ONYX_NO_SUBGRAPHS)
#error "built with ONYX_NO_SUBGRAPHS (test/CMakeLists.txt)"
#endif
static_assert(!onyx::graph::subgraphs_enabled);

using with_if_op = onyx::registry<onyx::op_list<onyx::ops::Relu, onyx::ops::Add, onyx::ops::If>, onyx::backend_list<onyx::cpu>>;

namespace {

using namespace onyx;

graph::node make_node(std::string op, std::vector<int> in, int out) {
  graph::node n;
  n.name = op + "_node";
  n.op_type = std::move(op);
  n.inputs = std::move(in);
  n.outputs = {out};
  return n;
}

/// y = Relu(x) + x over float32 [2, 3].
graph::model relu_plus_x() {
  auto g = std::make_shared<graph::graph>();
  const value_type t{value_kind::tensor, dtype::float32, sym_shape(extents{2, 3})};
  const int x = g->add_value("x", t), r = g->add_value("r"), y = g->add_value("y");
  g->inputs = {x};
  g->outputs = {y};
  g->nodes.push_back(make_node("Relu", {x}, r));
  g->nodes.push_back(make_node("Add", {r, x}, y));
  graph::model m;
  m.main = std::move(g);
  m.opsets[""] = 21;
  return m;
}

/// y = If(c) then Relu(x) else x, the branches reading x from the main graph.
graph::model if_model() {
  const value_type t{value_kind::tensor, dtype::float32, sym_shape(extents{2, 3})};
  auto branch = [&](bool relu) {
    auto b = std::make_shared<graph::graph>();
    b->name = relu ? "then" : "else";
    const int x = b->add_value("x", t), o = b->add_value(relu ? "relu_x" : "x_out");
    b->captures = {x};
    b->outputs = {o};
    b->nodes.push_back(make_node(relu ? "Relu" : "Add", relu ? std::vector<int>{x} : std::vector<int>{x, x}, o));
    return std::shared_ptr<const graph::graph>(std::move(b));
  };
  auto g = std::make_shared<graph::graph>();
  const int c = g->add_value("c", {value_kind::tensor, dtype::boolean, sym_shape(extents{})});
  const int x = g->add_value("x", t), y = g->add_value("y");
  g->inputs = {c, x};
  g->outputs = {y};
  auto n = make_node("If", {c}, y);
  n.raw_attrs = {{"then_branch", branch(true)}, {"else_branch", branch(false)}};
  n.subgraphs = {std::get<std::shared_ptr<const graph::graph>>(n.raw_attrs[0].data),
                 std::get<std::shared_ptr<const graph::graph>>(n.raw_attrs[1].data)};
  g->nodes.push_back(std::move(n));
  graph::model m;
  m.main = std::move(g);
  m.opsets[""] = 21;
  return m;
}

}  // namespace

int main() {
  auto plain = basic_session<with_if_op>::open(relu_plus_x(), {.threads = 1});
  if (!plain.ok()) {
    std::printf("a model without subgraphs was refused: %s\n", plain.error().message().c_str());
    return 1;
  }
  if (check_relu_plus_x(**plain, "without subgraph support") != 0) return 1;
  auto with_if = basic_session<with_if_op>::open(if_model(), {.threads = 1});
  if (with_if.ok()) {
    std::printf("a model with an If node was accepted\n");
    return 1;
  }
  const status err = with_if.error();
  const std::string& msg = err.message();
  std::printf("refused: %s\n", msg.c_str());
  const bool names_it = msg.find("If 'If_node'") != std::string::npos && msg.find("ONYX_NO_SUBGRAPHS") != std::string::npos;
  if (err.code() != errc::unsupported || !names_it) return 1;

  // The same model as a compact file (every node bound, bodies included).
  const op_table table = with_if_op::table();
  graph::model m = if_model();
  for (auto& n : m.main->nodes) {
    if (!graph::bind_op(n, *table.find("", n.op_type, 21)).ok()) return 1;
    for (const auto& body : n.subgraphs)
      for (auto& b : const_cast<graph::graph&>(*body).nodes)
        if (!graph::bind_op(b, *table.find("", b.op_type, 21)).ok()) return 1;
  }
  auto bytes = graph::compact::write(m);
  if (!bytes.ok()) {
    std::printf("cannot write the compact model: %s\n", bytes.error().message().c_str());
    return 1;
  }
  auto read = graph::compact::read(std::as_bytes(std::span(*bytes)), nullptr, table);
  if (read.ok()) {
    std::printf("the compact reader accepted a model with subgraphs\n");
    return 1;
  }
  const status read_err = read.error();
  std::printf("compact reader: %s\n", read_err.message().c_str());
  return read_err.code() == errc::invalid_model && read_err.message().find("ONYX_NO_SUBGRAPHS") != std::string::npos
             ? 0
             : 1;
}
