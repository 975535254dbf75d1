// onyx/graph/compact.hpp: onyx's own model file (.onyx), read without protobuf.
//
// An optimized graph (runtime/optimize.hpp) written as one flat file: a fixed
// header, a structure section (the graphs: values, nodes, attributes,
// subgraphs) and a data section holding every tensor's bytes, each 64-byte
// aligned. Reading decodes the structure into graph IR and binds each node to
// the op table by (domain, op name, op version); tensor data is not copied:
// constants view the mapped file (or the bytes embedded in a program), which
// the tensors keep alive. A model read from this form is marked `optimized`,
// so a session runs no passes over it and needs only the kernels its nodes
// name.
//
// Layout, little-endian, version 1:
//   header   char magic[8] = "onyx.cmf", u32 version, u32 header bytes (64),
//            u64 file bytes, u64 structure offset, u64 structure bytes,
//            u64 data offset, u64 data bytes, zero padding to 64
//   model    i64 ir_version, str producer, u32 n {str domain, i64 opset}, graph
//   graph    str name, u32 n {value}, u32 n {node}, ids inputs, ids outputs, ids captures
//   value    str name, type, u8 declared_shape, u8 has_constant [tensor]
//   type     u8 kind, u8 dtype, u8 optional, u8 rank_known, u32 rank {dim}
//   dim      u8 0 + i64 value | u8 1 + str symbol | u8 2 (unknown)
//   tensor   u8 dtype, u32 rank {i64 extent}, then strings: {str} per element;
//            others: u64 offset into the data section, u64 bytes
//   node     str name, str op_type (as shown), str domain, str op, i32 op since,
//            str expanded_from, ids inputs, ids outputs, u32 n {attribute}
//   attr     str name, u8 kind (attribute::data's index), its payload
//   ids      u32 n {i32}; str: u32 bytes, then the bytes
// Every count, offset and id is checked against the bytes that remain and the
// values that exist, so a truncated or corrupt file is an errc::invalid_model
// naming what is wrong, never a read out of bounds. Tested in
// test/unit/compact_test.cpp.
#pragma once

#include <bit>
#include <cstring>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "onyx/graph/ir.hpp"
#include "onyx/graph/mapped_file.hpp"
#include "onyx/graph/resolve.hpp"
#include "onyx/graph/tensor_file.hpp"

namespace onyx::graph::compact {

static_assert(std::endian::native == std::endian::little, "the compact form is little-endian");

inline constexpr char magic[8] = {'o', 'n', 'y', 'x', '.', 'c', 'm', 'f'};
inline constexpr std::uint32_t version = 1;
inline constexpr std::size_t header_bytes = 64;
inline constexpr std::size_t alignment = 64;
inline constexpr int max_depth = 64;                                  // subgraph nesting
inline constexpr std::int64_t max_elements = std::int64_t{1} << 56;  // keeps byte counts in range

namespace detail {

// --- writing -----------------------------------------------------------------

class writer {
 public:
  template <class T> void put(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&v);
    s_.append(p, sizeof v);
  }
  void str(std::string_view v) {
    put(static_cast<std::uint32_t>(v.size()));
    s_.append(v.data(), v.size());
  }
  void ids(const std::vector<int>& v) {
    put(static_cast<std::uint32_t>(v.size()));
    for (int id : v) put(static_cast<std::int32_t>(id));
  }
  void type(const value_type& t) {
    put(static_cast<std::uint8_t>(t.kind));
    put(static_cast<std::uint8_t>(t.type));
    put(static_cast<std::uint8_t>(t.optional));
    put(static_cast<std::uint8_t>(t.shape.rank_known));
    put(static_cast<std::uint32_t>(t.shape.rank_known ? t.shape.rank() : 0));
    if (!t.shape.rank_known) return;
    for (const auto& d : t.shape.dims) {
      const std::string s = d.known() ? std::string() : d.str();
      if (d.known()) {
        put(std::uint8_t{0});
        put(d.value());
      } else if (d.is_unknown() || s.find('(') != std::string::npos) {
        put(std::uint8_t{2});  // unknown, or an expression inference will derive again
      } else {
        put(std::uint8_t{1});
        str(s);
      }
    }
  }
  void tensor_(const tensor& t) {
    put(static_cast<std::uint8_t>(t.type()));
    put(static_cast<std::uint32_t>(t.rank()));
    for (auto e : t.shape()) put(static_cast<std::int64_t>(e));
    if (t.type() == dtype::string) {
      for (const auto& s : t.values<std::string>()) str(s);
      return;
    }
    data_.resize((data_.size() + alignment - 1) / alignment * alignment, '\0');
    put(static_cast<std::uint64_t>(data_.size()));
    put(static_cast<std::uint64_t>(t.bytes()));
    data_.append(static_cast<const char*>(t.raw()), t.bytes());
  }
  // One attribute value of each alternative of attribute::data; lists are a
  // count then each element (the reader mirrors these).
  status one(std::int64_t v) { return put(v), ok(); }
  status one(float v) { return put(v), ok(); }
  status one(const std::string& v) { return str(v), ok(); }
  status one(const value_type& v) { return type(v), ok(); }
  status one(const tensor& v) {
    if (!v.raw() && v.size() > 0) return status(errc::internal, "an attribute holds a released tensor");
    return tensor_(v), ok();
  }
  status one(const std::shared_ptr<const graph>& v) { return graph_(*v); }
  template <class T> status one(const std::vector<T>& v) {
    put(static_cast<std::uint32_t>(v.size()));
    for (const auto& x : v) ONYX_TRY(one(x));
    return ok();
  }
  status attr(const attribute& a);
  status graph_(const graph& g);

  std::string& structure() { return s_; }
  std::string& data() { return data_; }

 private:
  std::string s_, data_;
};

inline status writer::attr(const attribute& a) {
  str(a.name);
  put(static_cast<std::uint8_t>(a.data.index()));
  return std::visit([&](const auto& v) { return one(v).with_context("attribute '" + a.name + "'"); }, a.data);
}

inline status writer::graph_(const graph& g) {
  str(g.name);
  put(static_cast<std::uint32_t>(g.values.size()));
  for (const auto& v : g.values) {
    str(v.name);
    type(v.type);
    put(static_cast<std::uint8_t>(v.declared_shape));
    put(static_cast<std::uint8_t>(v.constant.has_value()));
    if (v.constant) {
      if (!v.constant->raw() && v.constant->size() > 0)
        return status(errc::internal, "constant '" + v.name + "' was released before writing");
      tensor_(*v.constant);
    }
  }
  put(static_cast<std::uint32_t>(g.nodes.size()));
  for (const auto& n : g.nodes) {
    if (!n.op) return status(errc::internal, n.label() + ": not bound to an op; resolve the model first");
    str(n.name);
    str(n.op_type);
    str(n.op->domain);
    str(n.op->name);
    put(static_cast<std::int32_t>(n.op->since));
    str(n.expanded_from);
    ids(n.inputs);
    ids(n.outputs);
    put(static_cast<std::uint32_t>(n.raw_attrs.size()));
    for (const auto& a : n.raw_attrs) ONYX_TRY(attr(a));
  }
  ids(g.inputs);
  ids(g.outputs);
  ids(g.captures);
  return ok();
}

// --- reading -----------------------------------------------------------------

/// A bounds-checked reader over the structure section.
class reader {
 public:
  reader(std::span<const std::byte> structure, std::span<const std::byte> data, std::shared_ptr<const void> owner,
         const op_table& ops)
      : s_(structure), data_(data), owner_(std::move(owner)), ops_(ops) {}

  template <class T> status get(T& v) {
    if (s_.size() - pos_ < sizeof v) return truncated();
    std::memcpy(&v, s_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return ok();
  }
  status str(std::string& v) {
    std::uint32_t n = 0;
    ONYX_TRY(get(n));
    if (s_.size() - pos_ < n) return truncated();
    v.assign(reinterpret_cast<const char*>(s_.data() + pos_), n);
    pos_ += n;
    return ok();
  }
  /// A count of items that each take at least `min_bytes`: never more than
  /// the bytes left could hold (an absurd count is an error, not an allocation).
  status count(std::uint32_t& n, std::size_t min_bytes) {
    ONYX_TRY(get(n));
    if (static_cast<std::size_t>(n) * min_bytes > s_.size() - pos_) return bad("a count of " + std::to_string(n) + " exceeds the file");
    return ok();
  }
  status ids(std::vector<int>& v, std::size_t values) {
    std::uint32_t n = 0;
    ONYX_TRY(count(n, 4));
    v.resize(n);
    for (auto& id : v) {
      std::int32_t x = 0;
      ONYX_TRY(get(x));
      if (x < -1 || x >= static_cast<std::int64_t>(values))
        return bad("value id " + std::to_string(x) + " is outside the graph's " + std::to_string(values) + " values");
      id = x;
    }
    return ok();
  }
  status type(value_type& t) {
    std::uint8_t kind = 0, dt = 0, optional = 0, rank_known = 0;
    std::uint32_t rank = 0;
    ONYX_TRY(get(kind));
    ONYX_TRY(get(dt));
    ONYX_TRY(get(optional));
    ONYX_TRY(get(rank_known));
    ONYX_TRY(count(rank, 1));
    if (kind > static_cast<std::uint8_t>(value_kind::map)) return bad("unknown value kind " + std::to_string(kind));
    if (dt != 0 && !is_valid(dt)) return bad("unknown dtype " + std::to_string(dt));
    t.kind = static_cast<value_kind>(kind);
    t.type = static_cast<dtype>(dt);
    t.optional = optional != 0;
    t.shape = rank_known ? sym_shape() : sym_shape::unknown_rank();
    for (std::uint32_t i = 0; i < rank; ++i) {
      std::uint8_t tag = 0;
      ONYX_TRY(get(tag));
      if (tag == 0) {
        std::int64_t v = 0;
        ONYX_TRY(get(v));
        if (v < 0) return bad("negative dim " + std::to_string(v));
        t.shape.dims.emplace_back(v);
      } else if (tag == 1) {
        std::string s;
        ONYX_TRY(str(s));
        t.shape.dims.push_back(dim::symbol(std::move(s)));
      } else if (tag == 2) {
        t.shape.dims.push_back(dim::unknown());
      } else {
        return bad("unknown dim tag " + std::to_string(tag));
      }
    }
    return ok();
  }
  status tensor_(tensor& out) {
    std::uint8_t dt = 0;
    std::uint32_t rank = 0;
    ONYX_TRY(get(dt));
    ONYX_TRY(count(rank, 8));
    if (!is_valid(dt)) return bad("tensor of unknown dtype " + std::to_string(dt));
    const auto t = static_cast<dtype>(dt);
    extents shape(rank);
    std::int64_t n = 1;
    for (auto& e : shape) {
      ONYX_TRY(get(e));
      if (e < 0) return bad("tensor with a negative extent");
      if (__builtin_mul_overflow(n, e, &n) || n > max_elements) return bad("tensor with too many elements");
    }
    if (t == dtype::string) {
      if (static_cast<std::size_t>(n) * 4 > s_.size() - pos_) return bad("string tensor exceeds the file");
      out = tensor::zeros(t, shape);
      for (auto& s : out.values<std::string>()) ONYX_TRY(str(s));
      return ok();
    }
    std::uint64_t offset = 0, bytes = 0;
    ONYX_TRY(get(offset));
    ONYX_TRY(get(bytes));
    if (bytes != storage_bytes(t, n))
      return bad("tensor data of " + std::to_string(bytes) + " bytes, expected " +
                 std::to_string(storage_bytes(t, n)) + " for " + std::string(name(t)) + " " + to_string(shape));
    if (offset > data_.size() || bytes > data_.size() - offset) return bad("tensor data outside the data section");
    auto* p = const_cast<std::byte*>(data_.data() + offset);
    if (owner_)
      out = tensor::adopt(std::const_pointer_cast<void>(owner_), p, t, std::move(shape));
    else
      out = tensor::view(p, t, std::move(shape));  // bytes with static storage (embedded)
    return ok();
  }
  // One attribute value of each alternative of attribute::data, as the
  // writer's `one` wrote it; a list's count is bounded by the least bytes an
  // element takes (min_bytes).
  status one(std::int64_t& v, int) { return get(v); }
  status one(float& v, int) { return get(v); }
  status one(std::string& v, int) { return str(v); }
  status one(value_type& v, int) { return type(v); }
  status one(tensor& v, int) { return tensor_(v); }
  status one(std::shared_ptr<const graph>& v, int depth) {
    ONYX_ASSIGN(v, graph_(depth + 1));
    return ok();
  }
  template <class T> status one(std::vector<T>& v, int depth) {
    std::uint32_t n = 0;
    ONYX_TRY(count(n, min_bytes<T>()));
    v.resize(n);
    for (auto& x : v) ONYX_TRY(one(x, depth));
    return ok();
  }
  template <class T> static constexpr std::size_t min_bytes() {
    if constexpr (std::is_same_v<T, std::int64_t>) return 8;
    else if constexpr (std::is_same_v<T, tensor>) return 5;   // dtype, rank
    else if constexpr (std::is_same_v<T, std::shared_ptr<const graph>>) return 16;
    else return 4;  // a float; a string's length
  }
  /// Reads alternative `kind` of attribute::data into `a`.
  template <std::size_t I = 0> status attr_value(std::size_t kind, attribute& a, int depth) {
    using data = decltype(attribute::data);
    if constexpr (I == std::variant_size_v<data>) {
      return bad("attribute '" + a.name + "' of unknown kind " + std::to_string(kind));
    } else {
      if (kind != I) return attr_value<I + 1>(kind, a, depth);
      std::variant_alternative_t<I, data> v{};
      ONYX_TRY(one(v, depth));
      a.data = std::move(v);
      return ok();
    }
  }
  status attr(attribute& a, int depth) {
    std::uint8_t kind = 0;
    ONYX_TRY(str(a.name));
    ONYX_TRY(get(kind));
    return attr_value(kind, a, depth);
  }
  result<std::shared_ptr<graph>> graph_(int depth);

  const op_table& ops() const { return ops_; }
  std::set<std::string>& missing() { return missing_; }
  bool done() const { return pos_ == s_.size(); }

 private:
  status truncated() const { return status(errc::invalid_model, "compact model: truncated at byte " + std::to_string(pos_)); }
  status bad(const std::string& why) const {
    return status(errc::invalid_model, "compact model: " + why + " (at byte " + std::to_string(pos_) + ")");
  }

  std::span<const std::byte> s_, data_;
  std::size_t pos_ = 0;
  std::shared_ptr<const void> owner_;
  const op_table& ops_;
  std::set<std::string> missing_;
};

inline result<std::shared_ptr<graph>> reader::graph_(int depth) {
  if (depth > max_depth) return bad("subgraphs nest more than " + std::to_string(max_depth) + " deep");
  auto g = std::make_shared<graph>();
  ONYX_TRY(str(g->name));
  std::uint32_t n = 0;
  ONYX_TRY(count(n, 14));
  g->values.resize(n);
  for (auto& v : g->values) {
    ONYX_TRY(str(v.name));
    ONYX_TRY(type(v.type));
    std::uint8_t declared = 0, has_constant = 0;
    ONYX_TRY(get(declared));
    ONYX_TRY(get(has_constant));
    v.declared_shape = declared != 0;
    if (has_constant) {
      tensor t;
      ONYX_TRY(tensor_(t));
      v.constant = std::move(t);
    }
  }
  const std::size_t values = g->values.size();
  ONYX_TRY(count(n, 40));
  g->nodes.resize(n);
  for (auto& nd : g->nodes) {
    std::string op_name;
    std::int32_t since = 0;
    ONYX_TRY(str(nd.name));
    ONYX_TRY(str(nd.op_type));
    ONYX_TRY(str(nd.domain));
    ONYX_TRY(str(op_name));
    ONYX_TRY(get(since));
    ONYX_TRY(str(nd.expanded_from));
    ONYX_TRY(ids(nd.inputs, values));
    ONYX_TRY(ids(nd.outputs, values));
    ONYX_TRY(count(n, 6));
    nd.raw_attrs.resize(n);
    for (auto& a : nd.raw_attrs) {
      ONYX_TRY(attr(a, depth));
      if (auto* sg = std::get_if<std::shared_ptr<const graph>>(&a.data)) nd.subgraphs.push_back(*sg);
      if (auto* v = std::get_if<std::vector<std::shared_ptr<const graph>>>(&a.data))
        nd.subgraphs.insert(nd.subgraphs.end(), v->begin(), v->end());
    }
    const op_info* op = ops_.find(nd.domain, op_name, since);
    if (!op) {
      missing_.insert((nd.domain.empty() ? "" : nd.domain + ".") + op_name + " (opset " + std::to_string(since) + ")");
      continue;
    }
    ONYX_TRY(bind_op(nd, *op));
  }
  ONYX_TRY(ids(g->inputs, values));
  ONYX_TRY(ids(g->outputs, values));
  ONYX_TRY(ids(g->captures, values));

  // Each value a node reads is a constant, a graph input, a capture, or the
  // output of an earlier node: the executor may rely on that order.
  std::vector<char> defined(values, 0);
  for (std::size_t id = 0; id < values; ++id) defined[id] = g->values[id].constant.has_value();
  for (int id : g->inputs)
    if (id >= 0) defined[id] = 1;
  for (int id : g->captures)
    if (id >= 0) defined[id] = 1;
  for (const auto& nd : g->nodes) {
    for (int id : nd.inputs)
      if (id >= 0 && !defined[id])
        return bad(nd.label() + " reads value '" + g->values[id].name + "' before any node defines it");
    for (int id : nd.outputs)
      if (id >= 0) {
        if (defined[id]) return bad(nd.label() + " defines value '" + g->values[id].name + "' a second time");
        defined[id] = 1;
      }
  }
  for (int id : g->outputs)
    if (id < 0 || !defined[id]) return bad("graph '" + g->name + "' has an output no node defines");
  return g;
}

}  // namespace detail

/// `m` (resolved: every node bound to an op) in the compact form.
inline result<std::string> write(const model& m) {
  if (!m.main) return status(errc::invalid_model, "the model has no graph");
  detail::writer w;
  w.put(static_cast<std::int64_t>(m.ir_version));
  w.str(m.producer);
  w.put(static_cast<std::uint32_t>(m.opsets.size()));
  for (const auto& [domain, opset] : m.opsets) {
    w.str(domain);
    w.put(static_cast<std::int64_t>(opset));
  }
  ONYX_TRY(w.graph_(*m.main));
  std::string& structure = w.structure();
  std::string& data = w.data();
  const std::uint64_t structure_offset = header_bytes;
  const std::uint64_t data_offset = (structure_offset + structure.size() + alignment - 1) / alignment * alignment;
  std::string file(header_bytes, '\0');
  auto at = [&](std::size_t offset, auto v) { std::memcpy(file.data() + offset, &v, sizeof v); };
  std::memcpy(file.data(), magic, sizeof magic);
  at(8, version);
  at(12, static_cast<std::uint32_t>(header_bytes));
  at(16, static_cast<std::uint64_t>(data_offset + data.size()));
  at(24, structure_offset);
  at(32, static_cast<std::uint64_t>(structure.size()));
  at(40, data_offset);
  at(48, static_cast<std::uint64_t>(data.size()));
  file += structure;
  file.resize(data_offset, '\0');
  file += data;
  return file;
}

/// Writes `m` to `path` in the compact form.
inline status write_file(const model& m, const std::filesystem::path& path) {
  ONYX_ASSIGN(auto bytes, write(m));
  return write_file_bytes(path, bytes);
}

/// Reads a compact model from `bytes` and binds its nodes to `ops`. Its
/// tensors view `bytes`: `owner` keeps them alive (null when they have
/// static storage, as a model embedded in the program does). Every op the
/// table lacks is reported at once.
inline result<model> read(std::span<const std::byte> bytes, std::shared_ptr<const void> owner, const op_table& ops) {
  auto bad = [](const std::string& why) { return status(errc::invalid_model, "compact model: " + why); };
  if (bytes.size() < header_bytes) return bad("shorter than its header (" + std::to_string(bytes.size()) + " bytes)");
  if (std::memcmp(bytes.data(), magic, sizeof magic) != 0) return bad("not an onyx compact model (wrong magic)");
  auto field = [&](std::size_t offset, auto& v) { std::memcpy(&v, bytes.data() + offset, sizeof v); };
  std::uint32_t ver = 0, hdr = 0;
  std::uint64_t file_bytes = 0, s_off = 0, s_len = 0, d_off = 0, d_len = 0;
  field(8, ver);
  field(12, hdr);
  field(16, file_bytes);
  field(24, s_off);
  field(32, s_len);
  field(40, d_off);
  field(48, d_len);
  if (ver != version)
    return bad("version " + std::to_string(ver) + "; this build reads version " + std::to_string(version));
  if (hdr != header_bytes) return bad("header of " + std::to_string(hdr) + " bytes");
  if (file_bytes != bytes.size())
    return bad("the header says " + std::to_string(file_bytes) + " bytes, the file has " + std::to_string(bytes.size()) +
               " (truncated?)");
  auto inside = [&](std::uint64_t off, std::uint64_t len) { return off <= bytes.size() && len <= bytes.size() - off; };
  if (!inside(s_off, s_len) || !inside(d_off, d_len)) return bad("a section lies outside the file");
  detail::reader r(bytes.subspan(s_off, s_len), bytes.subspan(d_off, d_len), std::move(owner), ops);
  model m;
  std::uint32_t n = 0;
  ONYX_TRY(r.get(m.ir_version));
  ONYX_TRY(r.str(m.producer));
  ONYX_TRY(r.count(n, 12));
  for (std::uint32_t i = 0; i < n; ++i) {
    std::string domain;
    std::int64_t opset = 0;
    ONYX_TRY(r.str(domain));
    ONYX_TRY(r.get(opset));
    m.opsets[domain] = static_cast<int>(opset);
  }
  ONYX_ASSIGN(m.main, r.graph_(0));
  if (!r.missing().empty()) {
    std::string list;
    for (const auto& s : r.missing()) list += (list.empty() ? "" : ", ") + s;
    return status(errc::unsupported, "this build of onyx has no " +
                                         std::string(r.missing().size() == 1 ? "operator " : "operators ") + list +
                                         ", which the model needs");
  }
  if (!r.done()) return bad("bytes after the main graph");
  m.optimized = true;
  return m;
}

/// Reads .onyx files for a session (`basic_session<R>::open<compact::loader>(path)`):
/// the file is memory-mapped and its tensors view the mapping.
struct loader {
  static result<model> load(const std::filesystem::path& path, const op_table& ops) {
    ONYX_ASSIGN(auto file, mapped_file::open(path));
    auto owner = std::make_shared<const mapped_file>(std::move(file));
    auto m = read(owner->bytes(), owner, ops);
    if (!m.ok()) return std::move(m).error().with_context(path.filename().string());
    return m;
  }
};

}  // namespace onyx::graph::compact
