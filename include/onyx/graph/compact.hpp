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
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "onyx/core/message.hpp"
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

/// A bounds-checked reader over the structure section. The first error (a
/// read past the end, a value out of range, a node that cannot be bound) is
/// kept, and every read after it gives zeros and empty strings; counts are
/// then 0, so loops end at once. Decoding tests `failed()` only where a wrong
/// value would do harm (allocating, binding, indexing), not after each field.
class reader {
 public:
  reader(std::span<const std::byte> structure, std::span<const std::byte> data, std::shared_ptr<const void> owner,
         const op_table& ops)
      : s_(structure), data_(data), owner_(std::move(owner)), ops_(ops) {}

  template <class T> T get() {
    T v{};
    take(&v, sizeof v);
    return v;
  }
  std::string str() {
    const std::uint32_t n = get<std::uint32_t>();
    std::string v;
    if (!failed() && s_.size() - pos_ < n) truncated();
    if (failed()) return v;
    v.assign(reinterpret_cast<const char*>(s_.data() + pos_), n);
    pos_ += n;
    return v;
  }
  /// A count of items that each take at least `min_bytes`: never more than
  /// the bytes left could hold (an absurd count is an error, not an allocation).
  std::uint32_t count(std::size_t min_bytes) {
    const std::uint32_t n = get<std::uint32_t>();
    if (static_cast<std::size_t>(n) * min_bytes > s_.size() - pos_) fail("a count of ", n, " exceeds the file");
    return failed() ? 0 : n;
  }
  void ids(std::vector<int>& v, std::size_t values) {
    v.resize(count(4));
    for (auto& id : v) {
      const auto x = get<std::int32_t>();
      if (x < -1 || x >= static_cast<std::int64_t>(values))
        fail("value id ", x, " is outside the graph's ", values, " values");
      id = x;
    }
  }
  void type(value_type& t) {
    const auto kind = get<std::uint8_t>(), dt = get<std::uint8_t>(), optional = get<std::uint8_t>(),
               rank_known = get<std::uint8_t>();
    const std::uint32_t rank = count(1);
    if (kind > static_cast<std::uint8_t>(value_kind::map)) fail("unknown value kind ", kind);
    if (dt != 0 && !is_valid(dt)) fail("unknown dtype ", dt);
    t.kind = static_cast<value_kind>(kind);
    t.type = static_cast<dtype>(dt);
    t.optional = optional != 0;
    t.shape = rank_known ? sym_shape() : sym_shape::unknown_rank();
    for (std::uint32_t i = 0; i < rank && !failed(); ++i) {
      const auto tag = get<std::uint8_t>();
      if (tag == 0) {
        const auto v = get<std::int64_t>();
        if (v < 0) fail("negative dim ", v);
        t.shape.dims.emplace_back(v);
      } else if (tag == 1) {
        t.shape.dims.push_back(dim::symbol(str()));
      } else if (tag == 2) {
        t.shape.dims.push_back(dim::unknown());
      } else {
        fail("unknown dim tag ", tag);
      }
    }
  }
  void tensor_(tensor& out) {
    const auto dt = get<std::uint8_t>();
    extents shape(count(8));
    if (!is_valid(dt)) fail("tensor of unknown dtype ", dt);
    const auto t = static_cast<dtype>(dt);
    // n: the elements; span: the product of the nonzero extents, bounded
    // too (an empty tensor of [0, 10^18, 10^18] would overflow a kernel's
    // size arithmetic).
    std::int64_t n = 1, span = 1;
    for (auto& e : shape) {
      e = get<std::int64_t>();
      if (e < 0) fail("tensor with a negative extent");
      else if (__builtin_mul_overflow(n, e, &n) || n > max_elements ||
               __builtin_mul_overflow(span, std::max<std::int64_t>(e, 1), &span) || span > max_elements)
        fail("tensor with too many elements");
      if (failed()) return;
    }
    if (t == dtype::string) {
      if (static_cast<std::size_t>(n) * 4 > s_.size() - pos_) fail("string tensor exceeds the file");
      if (failed()) return;
      out = tensor::zeros(t, shape);
      for (auto& s : out.values<std::string>()) s = str();
      return;
    }
    const auto offset = get<std::uint64_t>(), bytes = get<std::uint64_t>();
    if (failed()) return;
    if (bytes != storage_bytes(t, n))
      return fail("tensor data of ", bytes, " bytes, expected ", storage_bytes(t, n), " for ", name(t), " ",
                  to_string(shape));
    if (offset > data_.size() || bytes > data_.size() - offset) return fail("tensor data outside the data section");
    // The writer starts each tensor's data on a 64-byte boundary; kernels
    // read it in place as T (a misaligned offset is a damaged file).
    if (offset % alignment != 0) return fail("tensor data at offset ", offset, ", not ", alignment, "-byte aligned");
    auto* p = const_cast<std::byte*>(data_.data() + offset);
    if (reinterpret_cast<std::uintptr_t>(p) % alignof(std::max_align_t) != 0) {
      // Bytes handed in at an address kernels may not read T from (a buffer
      // in memory; a mapped file's data section is aligned): a copy.
      out = tensor::zeros(t, std::move(shape));
      if (bytes > 0) std::memcpy(out.raw(), p, bytes);
      return;
    }
    if (owner_)
      out = tensor::adopt(std::const_pointer_cast<void>(owner_), p, t, std::move(shape));
    else
      out = tensor::view(p, t, std::move(shape));  // bytes with static storage (embedded)
  }
  // One attribute value of each alternative of attribute::data, as the
  // writer's `one` wrote it; a list's count is bounded by the least bytes an
  // element takes (min_bytes).
  void one(std::int64_t& v, int) { v = get<std::int64_t>(); }
  void one(float& v, int) { v = get<float>(); }
  void one(std::string& v, int) { v = str(); }
  void one(value_type& v, int) { type(v); }
  void one(tensor& v, int) { tensor_(v); }
  void one(std::shared_ptr<const graph>& v, int depth) {
    if (subgraphs_enabled) v = graph_(depth + 1);
    else fail("a subgraph attribute, and this program runs none (ONYX_NO_SUBGRAPHS)");
  }
  template <class T> void one(std::vector<T>& v, int depth) {
    v.resize(count(min_bytes<T>()));
    for (auto& x : v) one(x, depth);
  }
  template <class T> static constexpr std::size_t min_bytes() {
    if constexpr (std::is_same_v<T, std::int64_t>) return 8;
    else if constexpr (std::is_same_v<T, tensor>) return 5;   // dtype, rank
    else if constexpr (std::is_same_v<T, std::shared_ptr<const graph>>) return 16;
    else return 4;  // a float; a string's length
  }
  /// Reads alternative `kind` of attribute::data into `a`.
  template <std::size_t I = 0> void attr_value(std::size_t kind, attribute& a, int depth) {
    using data = decltype(attribute::data);
    if constexpr (I == std::variant_size_v<data>) {
      fail("attribute '", a.name, "' of unknown kind ", kind);
    } else if (kind != I) {
      attr_value<I + 1>(kind, a, depth);
    } else {
      std::variant_alternative_t<I, data> v{};
      one(v, depth);
      a.data = std::move(v);
    }
  }
  void attr(attribute& a, int depth) {
    a.name = str();
    const auto kind = get<std::uint8_t>();
    if (!failed()) attr_value(kind, a, depth);
  }
  /// The graph, or null with the error in `error()`.
  std::shared_ptr<graph> graph_(int depth);

  const op_table& ops() const { return ops_; }
  std::set<std::string>& missing() { return missing_; }
  bool done() const { return pos_ == s_.size(); }
  bool failed() const { return !error_.ok(); }
  const status& error() const { return error_; }

  /// Keeps the first error: "compact model: <why...> (at byte N)". The
  /// pieces are joined by one out-of-line function, not per call site.
  template <class... A> void fail(const A&... why) { fail_pieces({message_piece(why)...}); }

 private:
  [[gnu::noinline]] void fail_pieces(std::initializer_list<message_piece> why) {
    if (!failed())
      error_ = failure(errc::invalid_model, "compact model: ", message_detail::join(why), " (at byte ", pos_, ")");
  }
  void truncated() {
    if (!failed()) error_ = failure(errc::invalid_model, "compact model: truncated at byte ", pos_);
  }
  void take(void* v, std::size_t n) {
    if (!failed() && s_.size() - pos_ < n) truncated();
    if (failed()) return;
    std::memcpy(v, s_.data() + pos_, n);
    pos_ += n;
  }

  std::span<const std::byte> s_, data_;
  std::size_t pos_ = 0;
  std::shared_ptr<const void> owner_;
  const op_table& ops_;
  std::set<std::string> missing_;
  status error_;
};

inline std::shared_ptr<graph> reader::graph_(int depth) {
  if (depth > max_depth) fail("subgraphs nest more than ", max_depth, " deep");
  if (failed()) return nullptr;
  auto g = std::make_shared<graph>();
  g->name = str();
  g->values.resize(count(14));
  for (auto& v : g->values) {
    v.name = str();
    type(v.type);
    v.declared_shape = get<std::uint8_t>() != 0;
    if (get<std::uint8_t>() != 0) {
      tensor t;
      tensor_(t);
      v.constant = std::move(t);
    }
  }
  const std::size_t values = g->values.size();
  g->nodes.resize(count(40));
  for (auto& nd : g->nodes) {
    nd.name = str();
    nd.op_type = str();
    nd.domain = str();
    const std::string op_name = str();
    const auto since = get<std::int32_t>();
    nd.expanded_from = str();
    ids(nd.inputs, values);
    ids(nd.outputs, values);
    nd.raw_attrs.resize(count(6));
    for (auto& a : nd.raw_attrs) {
      attr(a, depth);
      if (!subgraphs_enabled) continue;  // a subgraph failed the read
      if (auto* sg = std::get_if<std::shared_ptr<const graph>>(&a.data)) nd.subgraphs.push_back(*sg);
      if (auto* v = std::get_if<std::vector<std::shared_ptr<const graph>>>(&a.data))
        nd.subgraphs.insert(nd.subgraphs.end(), v->begin(), v->end());
    }
    if (failed()) return nullptr;
    const op_info* op = ops_.find(nd.domain, op_name, since);
    if (!op) {
      missing_.insert(message(nd.domain, nd.domain.empty() ? "" : ".", op_name, " (opset ", since, ")"));
      continue;
    }
    if (status st = bind_op(nd, *op); !st.ok()) {
      error_ = std::move(st);
      return nullptr;
    }
  }
  ids(g->inputs, values);
  ids(g->outputs, values);
  ids(g->captures, values);
  if (failed()) return nullptr;
  // A node may omit an input or output (-1); the graph's own are values.
  for (const auto* list : {&g->inputs, &g->outputs, &g->captures})
    for (int id : *list)
      if (id < 0) return fail("graph '", g->name, "' has an input, output or capture with no value"), nullptr;

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
        return fail(nd.label(), " reads value '", g->values[id].name, "' before any node defines it"), nullptr;
    for (int id : nd.outputs)
      if (id >= 0) {
        if (defined[id]) return fail(nd.label(), " defines value '", g->values[id].name, "' a second time"), nullptr;
        defined[id] = 1;
      }
  }
  for (int id : g->outputs)
    if (id < 0 || !defined[id]) return fail("graph '", g->name, "' has an output no node defines"), nullptr;
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
inline status write_file(const model& m, const std::string& path) {
  ONYX_ASSIGN(auto bytes, write(m));
  return write_file_bytes(path, bytes);
}

/// Reads a compact model from `bytes` and binds its nodes to `ops`. Its
/// tensors view `bytes`: `owner` keeps them alive (null when they have
/// static storage, as a model embedded in the program does). Every op the
/// table lacks is reported at once.
inline result<model> read(std::span<const std::byte> bytes, std::shared_ptr<const void> owner, const op_table& ops) {
  if (bytes.size() < header_bytes) return failure(errc::invalid_model, "compact model: ", "shorter than its header (", bytes.size(), " bytes)");
  if (std::memcmp(bytes.data(), magic, sizeof magic) != 0) return failure(errc::invalid_model, "compact model: ", "not an onyx compact model (wrong magic)");
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
    return failure(errc::invalid_model, "compact model: ", "version ", ver, "; this build reads version ", version);
  if (hdr != header_bytes) return failure(errc::invalid_model, "compact model: ", "header of ", hdr, " bytes");
  if (file_bytes != bytes.size())
    return failure(errc::invalid_model, "compact model: ", "the header says ", file_bytes, " bytes, the file has ", bytes.size(), " (truncated?)");
  auto inside = [&](std::uint64_t off, std::uint64_t len) { return off <= bytes.size() && len <= bytes.size() - off; };
  if (!inside(s_off, s_len) || !inside(d_off, d_len)) return failure(errc::invalid_model, "compact model: ", "a section lies outside the file");
  detail::reader r(bytes.subspan(s_off, s_len), bytes.subspan(d_off, d_len), std::move(owner), ops);
  model m;
  m.ir_version = r.get<decltype(m.ir_version)>();
  m.producer = r.str();
  for (std::uint32_t i = 0, n = r.count(12); i < n; ++i) {
    std::string domain = r.str();
    m.opsets[domain] = static_cast<int>(r.get<std::int64_t>());
  }
  m.main = r.graph_(0);
  if (r.failed()) return r.error();
  if (!r.missing().empty()) {
    std::string list;
    for (const auto& s : r.missing()) list += message(list.empty() ? "" : ", ", s);
    return failure(errc::unsupported, "this build of onyx has no ", r.missing().size() == 1 ? "operator " : "operators ",
                   list, ", which the model needs");
  }
  if (!r.done()) return failure(errc::invalid_model, "compact model: ", "bytes after the main graph");
  m.optimized = true;
  return m;
}

/// Reads .onyx files for a session (`basic_session<R>::open<compact::loader>(path)`):
/// the file is memory-mapped and its tensors view the mapping.
struct loader {
  static result<model> load(const std::string& path, const op_table& ops) {
    ONYX_ASSIGN(auto file, mapped_file::open(path));
    auto owner = std::make_shared<const mapped_file>(std::move(file));
    auto m = read(owner->bytes(), owner, ops);
    if (!m.ok()) return std::move(m).error().with_context(file_name(path));
    return m;
  }
};

}  // namespace onyx::graph::compact
