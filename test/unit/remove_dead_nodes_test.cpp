// graph::passes::remove_dead_nodes: nodes no graph output depends on go, and
// constants only they read are released; values a subgraph captures stay.
#include <catch2/catch.hpp>

#include "onyx/graph/passes/remove_dead_nodes.hpp"

namespace {

using namespace onyx;

graph::node make_node(std::string name, std::vector<int> in, std::vector<int> out) {
  graph::node n;
  n.name = n.op_type = std::move(name);
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

std::vector<std::string> names(const graph::graph& g) {
  std::vector<std::string> v;
  for (const auto& n : g.nodes) v.push_back(n.name);
  return v;
}

}  // namespace

TEST_CASE("remove_dead_nodes: drops what no output reads, keeps what a body captures") {
  graph::graph g;
  const int x = g.add_value("x"), w = g.add_value("w"), a = g.add_value("a"), b = g.add_value("b");
  const int c = g.add_value("c"), d = g.add_value("d");
  g.values[w].constant = tensor::from<float>({1, 2}, {2});
  g.inputs = {x};
  g.nodes.push_back(make_node("A", {x}, {a}));     // read by C
  g.nodes.push_back(make_node("B", {x, w}, {b}));  // read by nothing, unless captured
  g.nodes.push_back(make_node("C", {a}, {c}));     // a graph output
  g.nodes.push_back(make_node("D", {a}, {d}));     // read by nothing

  SECTION("no capture: B and D go, and w's constant with them") {
    g.outputs = {c};
    auto st = graph::initial_state(g);
    graph::passes::remove_dead_nodes(g, st);
    CHECK(names(g) == std::vector<std::string>{"A", "C"});
    CHECK(!g.values[w].constant);
    CHECK(!st.known[w]);
  }
  SECTION("C's body captures b: B stays") {
    auto body = std::make_shared<graph::graph>();
    body->captures = {body->add_value("b")};
    g.nodes[2].subgraphs = {body};
    g.outputs = {c};
    auto st = graph::initial_state(g);
    graph::passes::remove_dead_nodes(g, st);
    CHECK(names(g) == std::vector<std::string>{"A", "B", "C"});
    CHECK(g.values[w].constant);
  }
}
