// onyx/graph/dump.hpp: the graph IR as readable text, for looking at the
// pipeline one stage at a time (`onyx-run --dump-stages DIR`).
//
//   graph 'main': 1 input, 1 output, 2 nodes
//   input  x: float32[1,3,7,9]
//   node   'conv1' onyx.fused.Conv (Conv+Relu): x: float32[1,3,7,9], w: float32[4,3,3,3] const,
//          b: float32[4] const -> y: float32[1,4,7,9]                        (one line in the file)
//   node   'shape' Reshape: y: float32[1,4,7,9], s: int64[2] const = {4, -1} -> z: float32[4,63]
//   output z: float32[4,63]
//
// One line per graph input, node and graph output. A value reads
// `name: dtype[shape]` (`seq<dtype>`, `map<dtype>`, `optional` where it is
// not a tensor; `_` for an omitted optional input; `?` before inference when
// the model declared nothing), with the types inference gave it when `st` is
// given and those the model declared otherwise. A
// constant is marked `const`; a value of at most 8 elements whose contents
// are known (a constant, or a value inference propagated) shows them. A node
// made by a rewrite shows the label the pass gave it (Conv+Relu) after the op.
// Subgraph bodies follow their node, indented. Writing the text to a file
// uses <cstdio>: no iostream in runtime headers. Tested in
// test/unit/dump_test.cpp.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "onyx/graph/infer.hpp"

namespace onyx::graph {

namespace dump_detail {

/// Element `i` of `t` as text, for the dtypes whose values read as numbers.
inline std::string element_text(const tensor& t, std::int64_t i) {
  auto number = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::string(buf);
  };
  switch (t.type()) {
    case dtype::float32:
      return number(t.data<float>()[i]);
    case dtype::float64:
      return number(t.data<double>()[i]);
    case dtype::float16:
      return number(to_float(t.data<float16_t>()[i]));
    case dtype::int8:
      return std::to_string(t.data<std::int8_t>()[i]);
    case dtype::uint8:
      return std::to_string(t.data<std::uint8_t>()[i]);
    case dtype::int16:
      return std::to_string(t.data<std::int16_t>()[i]);
    case dtype::uint16:
      return std::to_string(t.data<std::uint16_t>()[i]);
    case dtype::int32:
      return std::to_string(t.data<std::int32_t>()[i]);
    case dtype::uint32:
      return std::to_string(t.data<std::uint32_t>()[i]);
    case dtype::int64:
      return std::to_string(t.data<std::int64_t>()[i]);
    case dtype::uint64:
      return std::to_string(t.data<std::uint64_t>()[i]);
    case dtype::boolean:
      return t.data<bool>()[i] ? "true" : "false";
    default:
      return {};
  }
}

/// `{1, -1}` for a tensor of at most `limit` printable elements on the host, else "".
inline std::string contents(const tensor& t, std::int64_t limit = 8) {
  if (t.size() > limit || t.where().kind != device_kind::cpu) return {};
  std::string s = "{";
  for (std::int64_t i = 0; i < t.size(); ++i) {
    std::string e = element_text(t, i);
    if (e.empty()) return {};
    s += (i ? ", " : "") + e;
  }
  return s + "}";
}

inline std::string type_text(const value_type& t) {
  if (t.kind == value_kind::tensor && t.type == dtype::undefined && !t.shape.rank_known)
    return "?";  // not inferred yet
  std::string s;
  if (t.optional) s += "optional ";
  switch (t.kind) {
    case value_kind::none:
      return s + "none";
    case value_kind::tensor:
      return s + std::string(name(t.type)) + t.shape.str();
    case value_kind::sequence:
      return s + "seq<" + std::string(name(t.type)) + ">" + t.shape.str();
    case value_kind::map:
      return s + "map<" + std::string(name(t.type)) + ">";
  }
  return s;
}

struct printer {
  std::string out;

  void value(const graph& g, const inferred* st, int id) {
    if (id < 0) {
      out += "_";
      return;
    }
    const auto& v = g.values[id];
    const bool typed = st && static_cast<std::size_t>(id) < st->types.size();
    value_type t = typed ? st->types[id] : v.type;
    if (!typed && v.constant) t = {value_kind::tensor, v.constant->type(), sym_shape(v.constant->shape())};
    out += v.name + ": " + type_text(t);
    const tensor* known = v.constant ? &*v.constant : nullptr;
    if (!known && st && static_cast<std::size_t>(id) < st->known.size() && st->known[id]) known = &*st->known[id];
    if (v.constant) out += " const";
    if (known)
      if (std::string c = contents(*known); !c.empty()) out += " = " + c;
  }

  void values(const graph& g, const inferred* st, const std::vector<int>& ids) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (i) out += ", ";
      value(g, st, ids[i]);
    }
  }

  void graph_lines(const graph& g, const inferred* st, const std::string& indent) {
    auto count = [](std::size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
    out += indent + "graph '" + g.name + "': " + count(g.inputs.size(), "input") + ", " +
           count(g.outputs.size(), "output") + ", " + count(g.nodes.size(), "node") + "\n";
    for (int id : g.inputs) {
      out += indent + "input  ";
      value(g, st, id);
      out += "\n";
    }
    for (const auto& n : g.nodes) {
      const std::string op = n.op ? n.op->qualified_name() : (n.domain.empty() ? "" : n.domain + ".") + n.op_type;
      out += indent + "node   '" + n.name + "' " + op;
      if (n.op && n.op_type != n.op->name) out += " (" + n.op_type + ")";
      out += ": ";
      values(g, st, n.inputs);
      out += " -> ";
      values(g, st, n.outputs);
      out += "\n";
      for (const auto& body : n.subgraphs) {
        const inferred* body_st = nullptr;
        if (st)
          if (auto it = st->bodies.find(body.get()); it != st->bodies.end()) body_st = it->second.get();
        graph_lines(*body, body_st, indent + "    ");
      }
    }
    for (int id : g.outputs) {
      out += indent + "output ";
      value(g, st, id);
      out += "\n";
    }
  }
};

}  // namespace dump_detail

/// `g` as text, one line per input, node and output; `st` (optional) gives
/// the inferred types and known values.
inline std::string dump(const graph& g, const inferred* st = nullptr) {
  dump_detail::printer p;
  p.graph_lines(g, st, "");
  return std::move(p.out);
}

/// Writes the graph after each pipeline stage to `dir` as `00_load.txt`,
/// `01_normalize.txt`, `02_infer.txt`, `03_<pass>.txt`, ...: numbered in
/// the order the stages ran. An empty `dir` writes nothing.
class stage_dumper {
 public:
  explicit stage_dumper(std::filesystem::path dir) : dir_(std::move(dir)) {}

  bool enabled() const { return !dir_.empty(); }

  /// Writes `NN_<stage>.txt` (creating `dir` when needed); fails naming the file.
  status operator()(std::string_view stage, const graph& g, const inferred* st = nullptr) {
    if (!enabled()) return ok();
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%02d_", next_++);
    const auto file = dir_ / (prefix + std::string(stage) + ".txt");
    const std::string text = dump(g, st);
    std::FILE* f = std::fopen(file.c_str(), "wb");
    bool written = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (f && std::fclose(f) != 0) written = false;
    if (!written) return status(errc::io, "cannot write the stage dump '" + file.string() + "'");
    return ok();
  }

 private:
  std::filesystem::path dir_;
  int next_ = 0;
};

}  // namespace onyx::graph
