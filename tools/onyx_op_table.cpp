// onyx-op-table: the table of supported operators, read from the compiled
// registry (onyx::session::all_ops()), as Markdown.
//
//   onyx-op-table [--write FILE | --check FILE]
//
// One row per registered op version: domain, op, opset range, and per
// backend the element types its kernels take, slot by slot (the union over
// its kernels' type signatures: `in0: float32 float64; in1: int32 int64`),
// "any" for a kernel keyed by no type (If, Shape, ...), "expanded" for an op
// that runs as its decomposition, "-" where the backend has no kernel.
// Without options the table goes to stdout. --write writes it to FILE;
// --check compares FILE with it and fails (exit 1) when they differ, so the
// checked-in docs/ops.md cannot go stale: ctest runs `--check` (ops.table).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "onyx/session.hpp"

namespace {

/// A backend's cell: the dtypes per signature slot across its kernels.
std::string types_cell(const onyx::op_info& op, const onyx::backend_kernels* k) {
  if (!k || k->entries.empty()) return op.expand ? "expanded" : "-";
  if (op.signature.empty()) return "any";
  std::string cell;
  for (std::size_t s = 0; s < op.signature.size(); ++s) {
    std::vector<onyx::dtype> seen;
    for (const auto& e : k->entries) {
      const onyx::dtype t = e.sig.t[s];
      if (t != onyx::dtype::undefined && std::find(seen.begin(), seen.end(), t) == seen.end()) seen.push_back(t);
    }
    std::sort(seen.begin(), seen.end());
    const auto& slot = op.signature[s];
    cell += (s ? "; " : "") + std::string(slot.output ? "out" : "in") + std::to_string(slot.index) + ":";
    for (onyx::dtype t : seen) cell += " " + std::string(onyx::name(t));
  }
  return cell;
}

std::string table() {
  const onyx::op_table all = onyx::session::all_ops();
  std::vector<const onyx::op_info*> ops;
  for (const auto& op : all.ops) ops.push_back(&op);
  std::sort(ops.begin(), ops.end(), [](const onyx::op_info* a, const onyx::op_info* b) {
    if (a->domain != b->domain) return a->domain < b->domain;
    if (a->name != b->name) return a->name < b->name;
    return a->since < b->since;
  });
  std::ostringstream o;
  o << "# Supported operators\n\n"
    << "Generated from the compiled registry by `onyx-op-table --write docs/ops.md` (tools/onyx_op_table.cpp);\n"
    << "do not edit by hand. ctest (`ops.table`) fails when this file differs from the registry.\n\n"
    << "One row per op version. Per backend: the element types its kernels take, by input (`in`) or output\n"
    << "(`out`) slot of the kernel's type signature; `any`: a kernel keyed by no type; `expanded`: the op\n"
    << "runs as its decomposition; `-`: no kernel on that backend.\n\n";
  std::map<std::string, int> per_domain;
  for (const auto* op : ops) ++per_domain[op->domain.empty() ? "ai.onnx" : std::string(op->domain)];
  o << "| domain | op versions |\n|---|---|\n";
  for (const auto& [d, n] : per_domain) o << "| " << d << " | " << n << " |\n";
  o << "\n| domain | op | opsets |";
  for (const auto* b : all.backends) o << " " << b->name << " |";
  o << "\n|---|---|---|";
  for (std::size_t i = 0; i < all.backends.size(); ++i) o << "---|";
  o << "\n";
  for (const auto* op : ops) {
    o << "| " << (op->domain.empty() ? "ai.onnx" : std::string(op->domain)) << " | " << op->name << " | "
      << op->since << "-" << (op->until >= onyx::ops::latest ? std::string("latest") : std::to_string(op->until))
      << " |";
    for (const auto* b : all.backends) {
      const onyx::backend_kernels* k = nullptr;
      for (const auto& bk : op->kernels)
        if (bk.backend == b) k = &bk;
      o << " " << types_cell(*op, k) << " |";
    }
    o << "\n";
  }
  return o.str();
}

int usage() {
  std::fputs("usage: onyx-op-table [--write FILE | --check FILE]\n", stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string t = table();
  if (argc == 1) return std::fputs(t.c_str(), stdout) < 0;
  if (argc != 3) return usage();
  const std::string mode = argv[1], path = argv[2];
  if (mode == "--write") {
    std::ofstream f(path, std::ios::binary);
    f << t;
    if (!f) return std::fprintf(stderr, "onyx-op-table: cannot write %s\n", path.c_str()), 1;
    return 0;
  }
  if (mode != "--check") return usage();
  std::ifstream f(path, std::ios::binary);
  std::stringstream have;
  have << f.rdbuf();
  if (f && have.str() == t) return 0;
  std::fprintf(stderr,
               "onyx-op-table: %s differs from the compiled registry; regenerate it with\n"
               "  onyx-op-table --write %s\n",
               path.c_str(), path.c_str());
  return 1;
}
