// onyx-ops: models -> the optimized compact models and the op list a trimmed
// build needs.
//
//   onyx-ops MODEL.onnx [MORE.onnx]... [--out-dir DIR] [--header FILE]
//            [--namespace NAME] [--keep-float16]
//
// Each model is optimized against every op and backend of the full build
// (runtime::optimize_model, the pipeline a session's creation runs, subgraph
// bodies included) and written as DIR/<model name>.onyx (graph/compact.hpp).
// Then a C++ header is printed (or written to FILE): the includes, the
// onyx::op_list of with_signatures<Op, signatures...> entries those optimized graphs
// run (only those type signatures are instantiated), `registry` over the
// CPU backend, the `manifest` of every (op, version, type signature), and
// `fit_check<R>`, whose static_asserts name each kernel registry R lacks.
// When the optimized models hold no subgraph, the header first defines
// ONYX_NO_SUBGRAPHS, so a program that includes it before onyx's runtime
// headers (as onyx_add_inference_executable's does) links no subgraph support;
// when every input has a static shape, ONYX_NO_PROPAGATION.
// A program built from that list reads the .onyx files with
// graph::compact::loader and runs no passes, so it never needs a kernel that
// only constant folding or a fusion used.
#include <cstdio>
#include <map>
#include <set>

#include "onyx/graph/compact.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/runtime/optimize.hpp"
#include "onyx/session.hpp"
#include "op_catalog.hpp"

namespace {

int fail(const std::string& msg) {
  std::fprintf(stderr, "onyx-ops: %s\n", msg.c_str());
  return 1;
}

const char* usage =
    "usage: onyx-ops MODEL.onnx [MORE.onnx]... [--out-dir DIR] [--header FILE] [--namespace NAME] [--keep-float16]\n";

/// `onyx::dtype::float32`: the enumerator, which is dtype's name but for bool.
std::string dtype_expr(onyx::dtype t) {
  return "onyx::dtype::" + std::string(t == onyx::dtype::boolean ? "boolean" : onyx::name(t));
}

std::string sig_expr(const onyx::ops::signature& s) {
  std::string r = "onyx::sig(";
  for (int i = 0; i < s.n; ++i) r += (i ? ", " : "") + dtype_expr(s.t[i]);
  return r + ")";
}

struct op_entry {
  const onyx::tools::catalog_entry* where;
  std::vector<onyx::ops::signature> sigs;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> models;
  std::filesystem::path out_dir = ".", header_path;
  std::string ns = "onyx_model";
  onyx::graph::passes::pass_options passes;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        fail(a + " needs a value");
        std::exit(1);
      }
      return argv[++i];
    };
    if (a == "--out-dir") out_dir = value();
    else if (a == "--header") header_path = value();
    else if (a == "--namespace") ns = value();
    else if (a == "--keep-float16") passes.compute_float16_in_float32 = false;
    else if (a == "-h" || a == "--help") return std::fputs(usage, stdout), 0;
    else if (a.starts_with("-")) return fail("unknown option " + a + "\n" + usage);
    else models.emplace_back(a);
  }
  if (models.empty()) return fail(std::string("no model given\n") + usage);
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);

  const onyx::op_table all = onyx::session::all_ops();
  std::vector<onyx::runtime::kernel_use> uses;
  std::string sources;
  bool subgraphs = false;      // whether any optimized model holds one
  bool static_inputs = true;   // whether every input of every optimized model has a static shape
  for (const auto& path : models) {
    auto loaded = onyx::graph::load_model(path, all);
    if (!loaded.ok()) return fail(loaded.error().message());
    const std::size_t nodes_before = loaded->main->nodes.size();
    auto optimized = onyx::runtime::optimize_model(std::move(loaded).value(), all, passes);
    if (!optimized.ok()) return fail(path.filename().string() + ": " + optimized.error().message());
    const auto out = out_dir / (path.stem().string() + ".onyx");
    if (auto st = onyx::graph::compact::write_file(optimized->model, out); !st.ok()) return fail(st.message());
    const auto& g = *optimized->model.main;
    for (const auto& n : g.nodes) subgraphs = subgraphs || !n.subgraphs.empty();
    for (int id : g.inputs)
      static_inputs = static_inputs && g.values[id].type.kind == onyx::value_kind::tensor && g.values[id].type.shape.concrete();
    for (const auto& u : optimized->kernels)
      if (std::find(uses.begin(), uses.end(), u) == uses.end()) uses.push_back(u);
    std::fprintf(stderr, "onyx-ops: %s: %zu nodes, %zu after optimization, %zu kernels; wrote %s (%.1f MB)\n",
                 path.filename().string().c_str(), nodes_before, optimized->model.main->nodes.size(),
                 optimized->kernels.size(), out.string().c_str(),
                 static_cast<double>(std::filesystem::file_size(out)) / 1e6);
    sources += (sources.empty() ? "" : ", ") + path.filename().string();
  }

  // Group the kernels by op struct, in a stable order.
  std::map<std::string, op_entry> by_struct;
  for (const auto& u : uses) {
    const onyx::tools::catalog_entry* where = nullptr;
    for (const auto& c : onyx::tools::op_catalog())
      if (c.domain == u.op->domain && c.name == u.op->name && c.since == u.op->since) where = &c;
    if (!where) return fail("no op struct in ops.manifest for " + u.op->qualified_name());
    if (u.backend->name != "cpu") return fail("backend '" + std::string(u.backend->name) + "' has no op list form yet");
    auto& e = by_struct[std::string(where->op_struct)];
    e.where = where;
    if (std::find(e.sigs.begin(), e.sigs.end(), u.sig) == e.sigs.end()) e.sigs.push_back(u.sig);
  }

  std::string h;
  h += "// Generated by onyx-ops from " + sources + "; do not edit.\n";
  h += "// The ops, and their type signatures, that the optimized model";
  h += models.size() > 1 ? "s run" : " runs";
  h += " on the CPU: a registry of\n// this list instantiates only those kernels.\n#pragma once\n\n";
  if (!subgraphs)
    h += "// The optimized model" + std::string(models.size() > 1 ? "s hold" : " holds") +
         " no subgraph: a program that includes this header\n// before onyx's runtime headers runs none "
         "(ONYX_NO_SUBGRAPHS, onyx/runtime/session.hpp).\n#ifndef ONYX_NO_SUBGRAPHS\n#define ONYX_NO_SUBGRAPHS\n#endif\n\n";
  if (static_inputs)
    h += "// Every input has a static shape, so the optimizer folded every value inference\n"
         "// could propagate: the program leaves propagation out (ONYX_NO_PROPAGATION).\n"
         "#ifndef ONYX_NO_PROPAGATION\n#define ONYX_NO_PROPAGATION\n#endif\n\n";
  std::set<std::string> includes{"onyx/registry/registry.hpp"};
  for (const auto& [name, e] : by_struct) {
    includes.insert("onyx/ops/" + std::string(e.where->op_header));
    if (e.where->kernel_header != "-") includes.insert("kernels/cpu/" + std::string(e.where->kernel_header));
  }
  for (const auto& inc : includes) h += "#include \"" + inc + "\"\n";
  h += "\nnamespace " + ns + " {\n\n// clang-format off\nusing ops = onyx::op_list<\n";
  std::size_t k = 0;
  for (const auto& [name, e] : by_struct) {
    h += "    onyx::with_signatures<onyx::ops::" + name;
    for (const auto& s : e.sigs) h += ",\n                " + sig_expr(s);
    h += std::string(">") + (++k < by_struct.size() ? "," : "") + "\n";
  }
  h += "  >;\nusing registry = onyx::registry<ops, onyx::backend_list<onyx::cpu>>;\n\n";
  h += "/// Every (op, op version, type signature) the model needs.\ninline constexpr onyx::required_kernel manifest[] = {\n";
  std::vector<std::string> asserts;
  std::size_t index = 0;
  for (const auto& [name, e] : by_struct)
    for (const auto& s : e.sigs) {
      const std::string op = (e.where->domain.empty() ? "" : std::string(e.where->domain) + ".") + std::string(e.where->name);
      h += "    {\"" + std::string(e.where->domain) + "\", \"" + std::string(e.where->name) + "\", " +
           std::to_string(e.where->since) + ", " + sig_expr(s) + "},\n";
      asserts.push_back("  static_assert(onyx::provides<Registry>(manifest[" + std::to_string(index++) +
                        "]),\n                \"the model needs " + op + " (op version " + std::to_string(e.where->since) +
                        ") for " + onyx::ops::to_string(s) + ", which this registry lacks\");\n");
    }
  h += "};\n\n/// The compile-time fit check: `fit_check<R>{}` fails to compile, naming\n";
  h += "/// each kernel of the manifest that registry R lacks.\ntemplate <class Registry> struct fit_check {\n";
  for (const auto& a : asserts) h += a;
  h += "};\n// clang-format on\n\n}  // namespace " + ns + "\n";

  if (header_path.empty()) {
    std::fputs(h.c_str(), stdout);
  } else if (auto st = onyx::graph::write_file_bytes(header_path, h); !st.ok()) {
    return fail(st.message());
  }
  return 0;
}
