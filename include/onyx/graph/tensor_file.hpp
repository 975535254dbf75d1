// onyx/graph/tensor_file.hpp: ONNX TensorProto files (.pb), without protobuf.
//
// The test-data format onyx-run reads and writes (`--input NAME=FILE.pb`,
// `--output-dir`), decoded straight from protobuf's wire format so that a
// trimmed program links no protobuf. Reads dims, data_type, name, raw_data
// and the typed fields (float_data, int32_data, string_data, int64_data,
// double_data, uint64_data); external data is refused. Every length is
// checked against the bytes that remain: a truncated or corrupt file is an
// errc::invalid_model naming the problem. Writes dims, data_type, name and
// raw_data (string_data for strings), in protobuf's field order, so a
// file equals the one protobuf writes for the same tensor. The protobuf-based reader
// (graph/tensor_proto.hpp) also takes sequences, maps and optionals.
// Tested in test/unit/tensor_file_test.cpp.
#pragma once

#include <bit>
#include <cstring>
#include <cstdio>
#include <string>
#include <vector>

#include "onyx/core/message.hpp"
#include "onyx/core/tensor.hpp"

namespace onyx::graph {

/// Writes `bytes` to `path` (created or truncated), with stdio: no iostream.
inline status write_file_bytes(const std::string& path, std::string_view bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return failure(errc::io, "cannot create '", path, "'");
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (std::fclose(f) != 0 || !written) return failure(errc::io, "cannot write '", path, "'");
  return ok();
}

namespace tensor_file_detail {

static_assert(std::endian::native == std::endian::little, "raw_data is little-endian");

class wire {
 public:
  explicit wire(std::string_view s) : s_(s) {}
  bool done() const { return pos_ >= s_.size(); }
  status varint(std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= s_.size()) return bad("truncated varint");
      const auto b = static_cast<std::uint8_t>(s_[pos_++]);
      v |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return ok();
    }
    return bad("varint longer than 10 bytes");
  }
  status bytes(std::string_view& v) {
    std::uint64_t n = 0;
    ONYX_TRY(varint(n));
    if (n > s_.size() - pos_) return bad("a field of ", n, " bytes runs past the end");
    v = s_.substr(pos_, n);
    pos_ += n;
    return ok();
  }
  status fixed(std::size_t n, std::string_view& v) {
    if (n > s_.size() - pos_) return bad("truncated fixed-width field");
    v = s_.substr(pos_, n);
    pos_ += n;
    return ok();
  }
  status skip(int wire_type) {
    std::uint64_t v = 0;
    std::string_view b;
    switch (wire_type) {
      case 0: return varint(v);
      case 1: return fixed(8, b);
      case 2: return bytes(b);
      case 5: return fixed(4, b);
      default: return bad("unsupported wire type ", wire_type);
    }
  }
  /// errc::invalid_model, "tensor file: " and the pieces.
  template <class... A> static status bad(const A&... why) { return failure(errc::invalid_model, "tensor file: ", why...); }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
};

/// Appends the values of a repeated scalar field, packed (wire type 2) or
/// not: varints as they are, fixed-width values (float, double) as their
/// little-endian bytes in the low bytes. One element type for every field, so
/// the reader holds one copy of this code, not one per field type.
inline status repeated(wire& w, int wire_type, int fixed_bytes, std::vector<std::uint64_t>& out) {
  auto one = [&](wire& from) -> status {
    std::uint64_t v = 0;
    if (fixed_bytes == 0) {
      ONYX_TRY(from.varint(v));
    } else {
      std::string_view b;
      ONYX_TRY(from.fixed(static_cast<std::size_t>(fixed_bytes), b));
      std::memcpy(&v, b.data(), b.size());
    }
    out.push_back(v);
    return ok();
  };
  if (wire_type != 2) return one(w);
  std::string_view packed;
  ONYX_TRY(w.bytes(packed));
  wire inner(packed);
  while (!inner.done()) ONYX_TRY(one(inner));
  return ok();
}

inline void put_varint(std::string& s, std::uint64_t v) {
  while (v >= 0x80) {
    s.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  s.push_back(static_cast<char>(v));
}
inline void put_bytes(std::string& s, int field, std::string_view b) {
  put_varint(s, static_cast<std::uint64_t>(field) << 3 | 2);
  put_varint(s, b.size());
  s.append(b);
}

}  // namespace tensor_file_detail

namespace tensor_file_detail {

/// What a TensorProto's fields hold, before dtype and dims are checked. Each
/// repeated field's elements as tensor_file_detail::repeated reads them;
/// int32_data holds every narrow type's values.
struct fields {
  std::vector<std::uint64_t> dims, f32, i32, i64, f64, u64;
  std::vector<std::string> strings;
  std::uint64_t type_code = 0;
  std::string_view raw;
  bool has_raw = false;
};

inline status read_fields(std::string_view bytes, fields& f, std::string* name) {
  wire w(bytes);
  while (!w.done()) {
    std::uint64_t key = 0;
    ONYX_TRY(w.varint(key));
    const int field = static_cast<int>(key >> 3), wt = static_cast<int>(key & 7);
    std::string_view s;
    switch (field) {
      case 1: ONYX_TRY(repeated(w, wt, 0, f.dims)); break;
      case 2: ONYX_TRY(w.varint(f.type_code)); break;
      case 4: ONYX_TRY(repeated(w, wt, 4, f.f32)); break;
      case 5: ONYX_TRY(repeated(w, wt, 0, f.i32)); break;
      case 6:
        ONYX_TRY(w.bytes(s));
        f.strings.emplace_back(s);
        break;
      case 7: ONYX_TRY(repeated(w, wt, 0, f.i64)); break;
      case 8:
        ONYX_TRY(w.bytes(s));
        if (name) *name = s;
        break;
      case 9: ONYX_TRY(w.bytes(f.raw)); f.has_raw = true; break;
      case 10: ONYX_TRY(repeated(w, wt, 8, f.f64)); break;
      case 11: ONYX_TRY(repeated(w, wt, 0, f.u64)); break;
      case 13: return wire::bad("external data is not supported in an input file");
      default: ONYX_TRY(w.skip(wt)); break;
    }
  }
  return ok();
}

/// The tensor `f` describes (its strings moved out).
inline result<tensor> make_tensor(fields& f) {
  if (!is_valid(static_cast<int>(std::min<std::uint64_t>(f.type_code, 255))))
    return wire::bad("unknown data_type ", f.type_code);
  const auto t = static_cast<dtype>(f.type_code);
  const extents dims(f.dims.begin(), f.dims.end());  // two's complement: a negative dim stays negative
  std::int64_t n = 1;
  for (auto d : dims)
    if (d < 0 || __builtin_mul_overflow(n, d, &n) || n > (std::int64_t{1} << 40))
      return wire::bad("dims ", to_string(dims), " are negative or too large");
  const std::string what = message(onyx::name(t), " ", to_string(dims));
  auto count_error = [&](const char* field, std::size_t have) {
    return wire::bad(field, " holds ", have, " values, expected ", n, " for ", what);
  };
  if (t == dtype::string) {
    if (f.strings.size() != static_cast<std::size_t>(n)) return count_error("string_data", f.strings.size());
    auto out = tensor::zeros(t, dims);
    std::move(f.strings.begin(), f.strings.end(), out.data<std::string>());
    return out;
  }
  const std::size_t bytes_needed = storage_bytes(t, n);
  if (f.has_raw && f.raw.size() != bytes_needed)
    return wire::bad("raw_data has ", f.raw.size(), " bytes, expected ", bytes_needed, " for ", what);
  // Where the values of this dtype are when there is no raw_data (int32_data
  // is counted for a type that must use raw_data, too).
  const std::vector<std::uint64_t>* src = &f.i32;
  const char* field = "int32_data";
  bool raw_only = false;
  switch (t) {
    case dtype::float32: src = &f.f32, field = "float_data"; break;
    case dtype::float64: src = &f.f64, field = "double_data"; break;
    case dtype::int64: src = &f.i64, field = "int64_data"; break;
    case dtype::uint32:
    case dtype::uint64: src = &f.u64, field = "uint64_data"; break;
    case dtype::int32:
    case dtype::int16:
    case dtype::int8:
    case dtype::uint16:
    case dtype::uint8:
    case dtype::boolean:
    case dtype::float16:
    case dtype::bfloat16:
    case dtype::float8e4m3fn:
    case dtype::float8e4m3fnuz:
    case dtype::float8e5m2:
    case dtype::float8e5m2fnuz:
    case dtype::float8e8m0: break;
    default: raw_only = true;
  }
  // The values present must be the dims' count before anything is
  // allocated: a few bytes claiming 2^40 elements are an error, not a
  // terabyte allocation (found by the tensor fuzzer).
  if (!f.has_raw && n != 0 && src->size() != static_cast<std::size_t>(n)) return count_error(field, src->size());
  auto out = tensor::uninitialized(t, dims);
  auto* p = static_cast<char*>(out.raw());
  if (f.has_raw) {
    std::memcpy(p, f.raw.data(), f.raw.size());
    return out;
  }
  if (raw_only) {
    if (n == 0) return out;
    return wire::bad("a ", what, " tensor must use raw_data here");
  }
  if (src->size() != static_cast<std::size_t>(n)) return count_error(field, src->size());
  const std::size_t width = bytes_needed / std::max<std::size_t>(1, static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < src->size(); ++i) std::memcpy(p + i * width, &(*src)[i], width);  // the low bytes
  return out;
}

}  // namespace tensor_file_detail

/// The tensor in a TensorProto's bytes; `name`, when given, receives its name.
inline result<tensor> parse_tensor_proto(std::string_view bytes, std::string* name = nullptr) {
  tensor_file_detail::fields f;
  ONYX_TRY(tensor_file_detail::read_fields(bytes, f, name));
  return tensor_file_detail::make_tensor(f);
}

/// Reads the tensor in TensorProto file `path`.
inline result<tensor> read_tensor_proto_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return failure(errc::io, "cannot open '", path, "'");
  std::string bytes;
  char buf[65536];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.append(buf, got);
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (failed) return failure(errc::io, "cannot read '", path, "'");
  auto t = parse_tensor_proto(bytes);
  if (!t.ok()) return std::move(t).error().with_context(path);
  return t;
}

/// `t` as TensorProto bytes named `name`.
inline std::string serialize_tensor_proto(const tensor& t, std::string_view name) {
  using namespace tensor_file_detail;
  std::string s;
  for (auto d : t.shape()) {  // unpacked, as protobuf writes proto2's repeated dims
    put_varint(s, 1 << 3);
    put_varint(s, static_cast<std::uint64_t>(d));
  }
  put_varint(s, 2 << 3);
  put_varint(s, static_cast<std::uint64_t>(t.type()));
  if (t.type() == dtype::string)
    for (const auto& v : t.values<std::string>()) put_bytes(s, 6, v);
  put_bytes(s, 8, name);
  if (t.type() != dtype::string) put_bytes(s, 9, std::string_view(static_cast<const char*>(t.raw()), t.bytes()));
  return s;
}

/// Writes `t` to `path` as a TensorProto named `name`.
inline status write_tensor_proto_file(const tensor& t, const std::string& path, std::string_view name) {
  return write_file_bytes(path, serialize_tensor_proto(t, name));
}

}  // namespace onyx::graph
