// graph::passes rewrite vocabulary: match<Op> compares op identity (domain,
// name, opset range) and gives the typed attributes; readers counts readers.
#include <catch2/catch.hpp>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/batch_normalization.hpp"
#include "onyx/ops/fused/conv.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/session.hpp"

namespace {

using namespace onyx;
using graph::passes::find_op;
using graph::passes::match;

}  // namespace

TEST_CASE("match: op identity, latest semantics only, typed attributes") {
  const op_table ops = session::all_ops();
  const op_info* mul = find_op<ops::Mul>(ops);
  const op_info* mul_v1 = find_op<ops::Mul_v1>(ops);
  const op_info* bn = find_op<ops::BatchNormalization>(ops);
  const op_info* conv = find_op<ops::Conv>(ops);
  const op_info* fused = find_op<ops::fused::Conv>(ops);
  REQUIRE((mul && mul_v1 && bn && conv && fused));
  CHECK(mul != mul_v1);
  CHECK(conv != fused);

  graph::node n;
  n.op = mul;
  CHECK(!match<ops::Mul>(n));  // no parsed attributes: nothing to give
  n.attrs = mul->parse({}).value();
  CHECK(match<ops::Mul>(n));
  n.op = mul_v1;  // Mul at opsets 1-6 (broadcast attribute): another op
  CHECK(!match<ops::Mul>(n));

  graph::node b;
  b.op = bn;
  b.attrs = bn->parse({attribute{"epsilon", 0.25f}}).value();
  const auto* a = match<ops::BatchNormalization>(b);
  REQUIRE(a);
  CHECK(a->epsilon == 0.25f);
  CHECK(a->training_mode == 0);
  CHECK(!match<ops::Mul>(b));

  graph::node c;
  c.op = fused;
  c.attrs = fused->parse({}).value();
  CHECK(match<ops::fused::Conv>(c));
  CHECK(!match<ops::Conv>(c));  // same name, another domain
}

TEST_CASE("readers: a value's sole reader, or none") {
  graph::graph g;
  const int x = g.add_value("x"), y = g.add_value("y"), z = g.add_value("z");
  graph::node a, b;
  a.inputs = {x};
  a.outputs = {y};
  b.inputs = {y, x};
  b.outputs = {z};
  g.nodes = {a, b};
  g.outputs = {z};
  const graph::passes::readers r(g);
  CHECK(r.sole(y) == 1);
  CHECK(r.sole(x) == -1);  // two readers
  CHECK(r.sole(z) == -1);  // a graph output
}
