// onyx/graph/tensor_proto.hpp: onnx.TensorProto (and Sequence/Optional/Map
// protos) to and from onyx values, and the ONNX test-data .pb files.
//
// Weights are taken without copying: raw_data is swapped out of the message
// into a string the tensor keeps alive, and external data is memory-mapped and
// viewed in place (as are a model file's own large initializers, which
// load_model(path) turns into external data: weights_in_place.hpp). Such
// tensors are as aligned as their source (a heap string:
// 16 bytes; a mapping: whatever the offset gives), not `tensor_alignment`;
// a buffer that is not aligned to its element size is copied into an aligned
// one. Tensors over a mapping are read-only memory. The host is little-endian,
// as raw_data is.
//
// Errors name the tensor and say what is wrong: errc::invalid_model for a
// malformed tensor, errc::unsupported for segments, errc::io for files.
// Tested in test/unit/tensor_proto_test.cpp.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <onnx/onnx-data_pb.h>  // onnx_pb.h (ONNX_API), then the Sequence/Map/Optional protos

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "onyx/core/status.hpp"
#include "onyx/core/tensor.hpp"
#include "onyx/core/value.hpp"
#include "onyx/graph/mapped_file.hpp"
#include "onyx/graph/weights_in_place.hpp"
#include "onyx/graph/wire_depth.hpp"

namespace onyx::graph {

static_assert(std::endian::native == std::endian::little, "raw_data is little-endian; onyx assumes the host is too");

/// The folder that a model's external data files must stay inside, and the
/// files mapped from it so far (each mapped once, shared by the tensors that
/// view it). One per model load; not thread-safe.
class external_data_root {
 public:
  /// `model_folder`: the folder that holds the .onnx file ("" = current folder).
  explicit external_data_root(const std::filesystem::path& model_folder) {
    std::error_code ec;
    auto abs = std::filesystem::absolute(model_folder.empty() ? "." : model_folder, ec);
    folder_ = std::filesystem::weakly_canonical(abs, ec);
    if (ec) folder_ = abs.lexically_normal();
    if (!folder_.has_filename() && folder_.has_parent_path() && folder_ != folder_.root_path())
      folder_ = folder_.parent_path();  // drop a trailing separator
  }

  const std::filesystem::path& folder() const { return folder_; }

  /// The model file's own mapping, what in_place_location names
  /// (weights_in_place.hpp: load_model(path) reads large initializers there).
  void set_model_file(std::shared_ptr<const mapped_file> file) { model_file_ = std::move(file); }

  /// Maps the file at `location`, a path relative to the folder. Refuses
  /// (errc::invalid_model) an empty or absolute path and one that leaves the
  /// folder, by `..` or through a symbolic link; a missing file is errc::io.
  result<std::shared_ptr<const mapped_file>> map(const std::string& location) {
    namespace fs = std::filesystem;
    auto refuse = [&](const std::string& why) {
      return status(errc::invalid_model, "external data location '" + location + "' " + why);
    };
    if (model_file_ && location == in_place_location) return model_file_;
    fs::path rel(location);
    if (location.empty()) return refuse("is empty");
    if (rel.has_root_name() || rel.has_root_directory()) return refuse("is absolute; it must be relative to the model's folder");
    fs::path norm = rel.lexically_normal();
    if (norm.empty() || *norm.begin() == "..") return refuse("escapes the model's folder");
    std::error_code ec;
    fs::path full = fs::weakly_canonical(folder_ / norm, ec);
    if (ec) return status(errc::io, "cannot resolve external data location '" + location + "': " + ec.message());
    if (std::mismatch(folder_.begin(), folder_.end(), full.begin(), full.end()).first != folder_.end())
      return refuse("resolves outside the model's folder (" + full.string() + ")");
    if (auto it = files_.find(full); it != files_.end()) return it->second;
    ONYX_ASSIGN(mapped_file f, mapped_file::open(full));
    auto shared = std::make_shared<const mapped_file>(std::move(f));
    files_.emplace(full, shared);
    return shared;
  }

 private:
  std::filesystem::path folder_;  // absolute, symbolic links resolved
  std::map<std::filesystem::path, std::shared_ptr<const mapped_file>> files_;
  std::shared_ptr<const mapped_file> model_file_;
};

namespace detail {

/// Gives back the whole pages inside [bytes, bytes + len) of a read-only
/// file mapping (their contents stay in the file).
inline void release_pages(const std::byte* bytes, std::size_t len) {
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto lo = (reinterpret_cast<std::uintptr_t>(bytes) + page - 1) / page * page;
  const auto hi = (reinterpret_cast<std::uintptr_t>(bytes) + len) / page * page;
  if (hi > lo) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
}

inline constexpr std::int64_t proto_max_elements = std::int64_t{1} << 56;  // keeps byte counts in range

/// The alignment a buffer needs so that its elements can be read in place.
constexpr std::size_t element_alignment(dtype t) {
  std::size_t b = static_cast<std::size_t>(bit_width(t)) / 8;
  return b >= 8 ? 8 : b >= 1 ? b : 1;
}

inline bool is_aligned(const void* p, dtype t) {
  return reinterpret_cast<std::uintptr_t>(p) % element_alignment(t) == 0;
}

/// Bool bytes other than 0 and 1 are not valid C++ bools.
inline bool has_non_bool_bytes(const void* p, std::size_t n) {
  auto* b = static_cast<const std::uint8_t*>(p);
  return std::any_of(b, b + n, [](std::uint8_t v) { return v > 1; });
}

/// An owning, aligned copy of `bytes` (bools normalized to 0/1).
inline tensor copy_bytes(const void* bytes, dtype t, extents shape) {
  tensor r = tensor::zeros(t, std::move(shape));
  if (t == dtype::boolean) {
    auto* src = static_cast<const std::uint8_t*>(bytes);
    for (std::int64_t i = 0; i < r.size(); ++i) r.data<bool>()[i] = src[i] != 0;
  } else {
    std::memcpy(r.raw(), bytes, r.bytes());
  }
  return r;
}

inline std::optional<std::uint64_t> parse_uint(const std::string& s) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

/// Stores each entry of a repeated integer field as one element of `Dst`.
template <class Dst, class Field> void store_each(tensor& r, const Field& src) {
  auto* out = static_cast<Dst*>(r.raw());
  for (int i = 0; i < src.size(); ++i) out[i] = static_cast<Dst>(src[i]);
}

/// int32_data carries one element per entry (its bit pattern in the low
/// bits: float16, bfloat16, float8), or for the packed sub-byte types one
/// storage byte per entry.
inline void store_int32_data(tensor& r, const google::protobuf::RepeatedField<std::int32_t>& src) {
  dtype t = r.type();
  if (t == dtype::boolean) {
    for (int i = 0; i < src.size(); ++i) r.data<bool>()[i] = src[i] != 0;
  } else if (bit_width(t) == 32) {
    store_each<std::int32_t>(r, src);
  } else if (bit_width(t) == 16) {
    store_each<std::uint16_t>(r, src);
  } else {
    store_each<std::uint8_t>(r, src);  // 8-bit types, and packed sub-byte bytes
  }
}

}  // namespace detail

/// Converts `p` into a tensor, taking its data: raw_data is moved out of `p`
/// (not copied) and string_data strings are moved, so `p` converts once (an
/// invalid `p` is refused before anything moves). External data is mapped
/// from a file under `root` (nullptr: external data is refused). Each dtype
/// is read from its field: float_data (float32, complex64), int32_data
/// (int32/16/8, uint16/8, bool, float16, bfloat16, float8*, and the packed
/// bytes of int4/uint4/int2/uint2/float4e2m1), int64_data, uint64_data
/// (uint32, uint64), double_data (float64, complex128), string_data; or
/// raw_data / external data for all but strings.
/// Errors (errc::invalid_model unless said) name the tensor: unknown
/// data_type, negative dims, data whose size does not match the dims, data in
/// two places, external data out of the file's bounds or outside the model's
/// folder; segments are errc::unsupported; file errors errc::io.
inline result<tensor> tensor_from_proto(onnx::TensorProto& p, external_data_root* root = nullptr) {
  const std::string label = "tensor '" + p.name() + "'";
  auto invalid = [&](const std::string& why) { return status(errc::invalid_model, label + ": " + why); };

  if (!is_valid(p.data_type())) return invalid("unknown data_type " + std::to_string(p.data_type()));
  const dtype t = static_cast<dtype>(p.data_type());
  if (p.has_segment()) return status(errc::unsupported, label + ": segmented tensors are not supported");

  extents shape;
  std::int64_t n = 1;
  for (std::int64_t d : p.dims()) {
    if (d < 0) return invalid("negative dim " + std::to_string(d));
    if (__builtin_mul_overflow(n, d, &n) || n > detail::proto_max_elements) return invalid("too many elements");
    shape.push_back(d);
  }
  const std::size_t want_bytes = storage_bytes(t, n);
  const std::string what = std::string(name(t)) + " " + to_string(shape);
  auto wrong_size = [&](const std::string& field, std::size_t have, std::size_t want) {
    return invalid(field + " has " + std::to_string(have) + ", expected " + std::to_string(want) + " for " + what);
  };
  const int typed_count = p.float_data_size() + p.int32_data_size() + p.string_data_size() + p.int64_data_size() +
                          p.double_data_size() + p.uint64_data_size();

  // Byte sources: a file under the model's folder, or raw_data.
  if (p.data_location() == onnx::TensorProto::EXTERNAL) {
    if (t == dtype::string) return invalid("string tensors cannot use external data");
    if (!root) return invalid("has external data, but the model was not loaded from a folder");
    std::string location;
    std::optional<std::uint64_t> offset, length;
    for (const auto& kv : p.external_data()) {
      if (kv.key() == "location") {
        location = kv.value();
      } else if (kv.key() == "offset" || kv.key() == "length") {
        auto v = detail::parse_uint(kv.value());
        if (!v) return invalid("external data " + kv.key() + " '" + kv.value() + "' is not a byte count");
        (kv.key() == "offset" ? offset : length) = v;
      }
    }
    auto file = root->map(location);
    if (!file) return std::move(file).error().with_context(label);
    const std::size_t size = (*file)->size();
    const std::uint64_t off = offset.value_or(0);
    if (off > size)
      return invalid("external data offset " + std::to_string(off) + " is past the end of '" + location + "' (" +
                     std::to_string(size) + " bytes)");
    const std::uint64_t len = length.value_or(size - off);
    if (len > size - off)
      return invalid("external data [" + std::to_string(off) + ", " + std::to_string(off + len) +
                     ") is out of the bounds of '" + location + "' (" + std::to_string(size) + " bytes)");
    // A model file's own raw_data, moved out by load_model(path), is still
    // raw_data to its author.
    if (len != want_bytes)
      return wrong_size(location == in_place_location ? "raw_data (bytes)" : "external data length (bytes)", len,
                        want_bytes);
    const std::byte* bytes = (*file)->data() + off;
    if (!detail::is_aligned(bytes, t) || (t == dtype::boolean && detail::has_non_bool_bytes(bytes, len))) {
      tensor copy = detail::copy_bytes(bytes, t, std::move(shape));
      detail::release_pages(bytes, len);  // read once: the copy is what stays
      return copy;
    }
    // The tensor shares ownership of the mapping and points into it. When its
    // last reference goes (a packed weight's raw copy, released at prepare),
    // the whole pages inside its bytes are given back (MADV_DONTNEED: no
    // longer counted in the process's resident set; the mapping is read-only,
    // so a page still read elsewhere comes back from the file unchanged).
    std::shared_ptr<void> owner(const_cast<std::byte*>(bytes),
                                [keep = *file, bytes, len](void*) { detail::release_pages(bytes, len); });
    return tensor::adopt(std::move(owner), const_cast<std::byte*>(bytes), t, std::move(shape));
  }
  if (p.has_raw_data()) {
    if (t == dtype::string) return invalid("string tensors cannot use raw_data");
    if (typed_count > 0) return invalid("has both raw_data and typed data");
    if (p.raw_data().size() != want_bytes) return wrong_size("raw_data (bytes)", p.raw_data().size(), want_bytes);
    auto owner = std::make_shared<std::string>();
    owner->swap(*p.mutable_raw_data());
    p.clear_raw_data();
    void* bytes = owner->data();
    if (t == dtype::boolean && detail::has_non_bool_bytes(bytes, want_bytes))
      for (char& c : *owner) c = c != 0;
    if (!detail::is_aligned(bytes, t)) return detail::copy_bytes(bytes, t, std::move(shape));
    return tensor::adopt(std::move(owner), bytes, t, std::move(shape));
  }

  // Typed fields: each dtype has exactly one. The count is checked before the
  // tensor is allocated, so a corrupt shape cannot ask for terabytes.
  tensor r;
  auto expect = [&](const char* field, int have, std::int64_t want) -> status {
    if (have != want) return wrong_size(std::string(field) + " (values)", static_cast<std::size_t>(have), want);
    if (have != typed_count) return invalid("has data in fields other than " + std::string(field));
    r = tensor::zeros(t, shape);
    return ok();
  };
  switch (t) {
    case dtype::float32:
    case dtype::complex64: {
      ONYX_TRY(expect("float_data", p.float_data_size(), t == dtype::float32 ? n : 2 * n));
      std::copy(p.float_data().begin(), p.float_data().end(), static_cast<float*>(r.raw()));
      break;
    }
    case dtype::float64:
    case dtype::complex128: {
      ONYX_TRY(expect("double_data", p.double_data_size(), t == dtype::float64 ? n : 2 * n));
      std::copy(p.double_data().begin(), p.double_data().end(), static_cast<double*>(r.raw()));
      break;
    }
    case dtype::int64:
      ONYX_TRY(expect("int64_data", p.int64_data_size(), n));
      detail::store_each<std::int64_t>(r, p.int64_data());
      break;
    case dtype::uint32:
      ONYX_TRY(expect("uint64_data", p.uint64_data_size(), n));
      detail::store_each<std::uint32_t>(r, p.uint64_data());
      break;
    case dtype::uint64:
      ONYX_TRY(expect("uint64_data", p.uint64_data_size(), n));
      detail::store_each<std::uint64_t>(r, p.uint64_data());
      break;
    case dtype::string: {
      ONYX_TRY(expect("string_data", p.string_data_size(), n));
      auto* out = r.data<std::string>();
      for (int i = 0; i < p.string_data_size(); ++i) out[i] = std::move(*p.mutable_string_data(i));
      break;
    }
    case dtype::undefined: return invalid("undefined data_type");
    default: {  // everything int32_data carries
      const bool packed = bit_width(t) < 8;
      ONYX_TRY(expect("int32_data", p.int32_data_size(), packed ? static_cast<std::int64_t>(want_bytes) : n));
      detail::store_int32_data(r, p.int32_data());
      break;
    }
  }
  return r;
}

/// A proto holding a copy of `t` (a host tensor), named `name`: numbers in
/// raw_data (little-endian, sub-byte types packed), strings in string_data.
inline onnx::TensorProto tensor_to_proto(const tensor& t, std::string name) {
  onnx::TensorProto p;
  p.set_name(std::move(name));
  p.set_data_type(static_cast<std::int32_t>(t.type()));
  for (auto d : t.shape()) p.add_dims(d);
  if (t.type() == dtype::string) {
    for (const auto& s : t.values<std::string>()) p.add_string_data(s);
  } else {
    p.set_raw_data(static_cast<const char*>(t.raw()), t.bytes());
  }
  return p;
}

/// Sequence, optional and map protos, recursively, as values (their tensors
/// taken as tensor_from_proto takes them). A sequence's elem_type is its
/// tensors' dtype (all must agree), undefined for sequences of non-tensors.
/// An optional whose elem_type is UNDEFINED, or whose value field is absent,
/// is an empty optional. Sparse tensors are errc::unsupported; a value count
/// that does not match elem_type or a map's keys is errc::invalid_model.
inline result<value> value_from_proto(onnx::SequenceProto& p, external_data_root* root = nullptr);
inline result<value> value_from_proto(onnx::OptionalProto& p, external_data_root* root = nullptr);
inline result<value> value_from_proto(onnx::MapProto& p, external_data_root* root = nullptr);

inline result<value> value_from_proto(onnx::SequenceProto& p, external_data_root* root) {
  const std::string label = "sequence '" + p.name() + "'";
  const int counts[] = {0, p.tensor_values_size(), p.sparse_tensor_values_size(), p.sequence_values_size(),
                        p.map_values_size(), p.optional_values_size()};
  const int elem = p.elem_type();
  if (elem < 0 || elem > 5) return status(errc::invalid_model, label + ": unknown elem_type " + std::to_string(elem));
  if (elem == onnx::SequenceProto::SPARSE_TENSOR)
    return status(errc::unsupported, label + ": sequences of sparse tensors are not supported");
  int total = 0;
  for (int c : counts) total += c;
  if (total != counts[elem])
    return status(errc::invalid_model, label + ": holds values that do not match its elem_type " + std::to_string(elem));

  sequence s;
  for (int i = 0; i < counts[elem]; ++i) {
    result<value> v = status{};
    switch (elem) {
      case onnx::SequenceProto::TENSOR: {
        auto t = tensor_from_proto(*p.mutable_tensor_values(i), root);
        if (!t) return std::move(t).error().with_context(label);
        if (i > 0 && t->type() != s.elem_type)
          return status(errc::invalid_model, label + ": mixes " + std::string(name(s.elem_type)) + " and " +
                                                 std::string(name(t->type())) + " tensors");
        s.elem_type = t->type();
        v = value(std::move(t).value());
        break;
      }
      case onnx::SequenceProto::SEQUENCE: v = value_from_proto(*p.mutable_sequence_values(i), root); break;
      case onnx::SequenceProto::MAP: v = value_from_proto(*p.mutable_map_values(i), root); break;
      case onnx::SequenceProto::OPTIONAL: v = value_from_proto(*p.mutable_optional_values(i), root); break;
    }
    if (!v) return std::move(v).error().with_context(label);
    s.items.push_back(std::move(v).value());
  }
  return value(std::move(s));
}

inline result<value> value_from_proto(onnx::OptionalProto& p, external_data_root* root) {
  const std::string label = "optional '" + p.name() + "'";
  result<value> inner = value{};
  switch (p.elem_type()) {
    case onnx::OptionalProto::UNDEFINED: break;
    case onnx::OptionalProto::TENSOR:
      if (p.has_tensor_value()) {
        auto t = tensor_from_proto(*p.mutable_tensor_value(), root);
        if (!t) return std::move(t).error().with_context(label);
        inner = value(std::move(t).value());
      }
      break;
    case onnx::OptionalProto::SEQUENCE:
      if (p.has_sequence_value()) inner = value_from_proto(*p.mutable_sequence_value(), root);
      break;
    case onnx::OptionalProto::MAP:
      if (p.has_map_value()) inner = value_from_proto(*p.mutable_map_value(), root);
      break;
    case onnx::OptionalProto::OPTIONAL:
      if (p.has_optional_value()) inner = value_from_proto(*p.mutable_optional_value(), root);
      break;
    case onnx::OptionalProto::SPARSE_TENSOR:
      return status(errc::unsupported, label + ": optional sparse tensors are not supported");
    default: return status(errc::invalid_model, label + ": unknown elem_type " + std::to_string(p.elem_type()));
  }
  if (!inner) return std::move(inner).error().with_context(label);
  return value::optional(std::move(inner).value());
}

inline result<value> value_from_proto(onnx::MapProto& p, external_data_root* root) {
  const std::string label = "map '" + p.name() + "'";
  constexpr dtype_set key_types = dtypes::ints | dtypes::string;
  if (!is_valid(p.key_type()) || !key_types.contains(static_cast<dtype>(p.key_type())))
    return status(errc::invalid_model, label + ": key_type " + std::to_string(p.key_type()) + " is not an integer or string type");
  const dtype kt = static_cast<dtype>(p.key_type());
  const bool strings = kt == dtype::string;
  const int nkeys = strings ? p.string_keys_size() : p.keys_size();
  if ((strings ? p.keys_size() : p.string_keys_size()) != 0)
    return status(errc::invalid_model, label + ": keys are in the field that does not match key_type");

  const auto& vs = p.values();
  const int nvalues = vs.tensor_values_size() + vs.sparse_tensor_values_size() + vs.sequence_values_size() +
                      vs.map_values_size() + vs.optional_values_size();
  if (nvalues != nkeys)
    return status(errc::invalid_model, label + ": " + std::to_string(nkeys) + " keys but " +
                                           std::to_string(nvalues) + " values");
  map m;
  m.keys = tensor::zeros(kt, {nkeys});
  for (int i = 0; i < nkeys; ++i) {
    if (strings) {
      m.keys.data<std::string>()[i] = std::move(*p.mutable_string_keys(i));
    } else {
      auto* out = static_cast<std::byte*>(m.keys.raw()) + i * (bit_width(kt) / 8);
      std::int64_t k = p.keys(i);
      std::memcpy(out, &k, static_cast<std::size_t>(bit_width(kt) / 8));  // little-endian truncation
    }
  }
  auto vals = value_from_proto(*p.mutable_values(), root);
  if (!vals) return std::move(vals).error().with_context(label);
  m.values = std::move(vals->as_sequence().items);
  return value(std::move(m));
}

/// Parses the file at `path` into `message`, streaming it from the file
/// descriptor (FileInputStream + ParseFromZeroCopyStream). errc::io when the
/// file cannot be read; errc::invalid_model when it is not a valid `message`
/// (truncated, garbage, required fields missing, nested past protobuf's
/// recursion limit: graph/wire_depth.hpp tells which).
inline status read_proto_file(const std::filesystem::path& path, google::protobuf::MessageLite& message) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return status(errc::io, "cannot open '" + path.string() + "': " + std::strerror(errno));
  google::protobuf::io::FileInputStream in(fd);
  bool parsed = message.ParseFromZeroCopyStream(&in);
  int err = in.GetErrno();
  ::close(fd);
  if (err != 0) return status(errc::io, "cannot read '" + path.string() + "': " + std::strerror(err));
  if (parsed) return ok();
  // Only now look at the bytes again, to say why.
  std::string_view reason = "truncated or not a protobuf";
  if (auto f = mapped_file::open(path); f.ok())
    reason = parse_failure_reason(std::string_view(reinterpret_cast<const char*>(f->data()), f->size()));
  return status(errc::invalid_model,
                "cannot parse '" + path.string() + "' as " + message.GetTypeName() + " (" + std::string(reason) + ")");
}

/// What a .pb test-data file holds. Sequence and optional files are
/// indistinguishable on the wire when the sequence has one element (and tensor
/// files decode as either), so callers that know the kind should say it.
enum class proto_kind { any, tensor, sequence, optional, map };

/// Reads an ONNX test-data file (test_data_set_K/input_N.pb) as a value of
/// `kind`. With `proto_kind::any`: a TensorProto if the file is a valid
/// tensor, otherwise an OptionalProto if its elem_type is UNDEFINED (an empty
/// optional), otherwise a SequenceProto; maps and non-empty optionals need
/// their kind. Errors: errc::io (cannot read), errc::invalid_model (not a
/// valid value of that kind), each naming the file.
inline result<value> read_value_file(const std::filesystem::path& path, proto_kind kind = proto_kind::any) {
  auto in_file = [&](status s) { return std::move(s).with_context(path.string()); };
  // Parses the file as `message` and converts it; conversion errors name the file.
  auto read = [&](auto message) -> result<value> {
    ONYX_TRY(read_proto_file(path, message));
    result<value> v = status{};
    if constexpr (std::is_same_v<decltype(message), onnx::TensorProto>) {
      auto t = tensor_from_proto(message, nullptr);
      v = t ? result<value>(value(std::move(t).value())) : result<value>(std::move(t).error());
    } else {
      v = value_from_proto(message, nullptr);
    }
    if (!v) return in_file(std::move(v).error());
    return v;
  };
  switch (kind) {
    case proto_kind::tensor: return read(onnx::TensorProto{});
    case proto_kind::sequence: return read(onnx::SequenceProto{});
    case proto_kind::optional: {
      // OptionalProto and SequenceProto share field numbers and elem_type
      // values, so a sequence file parses as an optional whose one value is
      // its elements merged. An optional holds one value at most: a file
      // that holds several is a sequence (a value the optional would hold).
      onnx::SequenceProto s;
      if (read_proto_file(path, s).ok() && s.tensor_values_size() + s.sparse_tensor_values_size() +
                                                   s.sequence_values_size() + s.map_values_size() +
                                                   s.optional_values_size() > 1)
        return read(onnx::SequenceProto{});
      return read(onnx::OptionalProto{});
    }
    case proto_kind::map: return read(onnx::MapProto{});
    case proto_kind::any: break;
  }
  onnx::TensorProto t;
  ONYX_TRY(read_proto_file(path, t));  // unreadable, or not a protobuf at all
  // Read as a TensorProto, a sequence's or optional's values land in `segment` (field 3).
  const bool nested = t.has_segment();
  auto as_tensor = nested ? result<tensor>(status(errc::invalid_model, "not a tensor")) : tensor_from_proto(t, nullptr);
  if (as_tensor) return value(std::move(as_tensor).value());
  onnx::OptionalProto o;
  if (!read_proto_file(path, o).ok() || !o.has_elem_type()) return in_file(std::move(as_tensor).error());
  result<value> v = status{};
  if (o.elem_type() == onnx::OptionalProto::UNDEFINED && o.unknown_fields().empty() && !nested)
    v = value_from_proto(o, nullptr);
  else
    v = read(onnx::SequenceProto{});
  if (!v && !nested) return in_file(std::move(as_tensor).error());  // most files are tensors: the error worth reporting
  return v;
}

/// Serializes `message` into the file at `path` (created or truncated),
/// streaming it through a FileOutputStream. errc::io when the file cannot be
/// written or the message cannot be serialized (over 2 GiB).
inline status write_proto_file(const std::filesystem::path& path, const google::protobuf::MessageLite& message) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return status(errc::io, "cannot create '" + path.string() + "': " + std::strerror(errno));
  google::protobuf::io::FileOutputStream out(fd);
  bool written = message.SerializeToZeroCopyStream(&out);
  bool closed = out.Close();  // flushes, then closes fd
  if (!written || !closed) {
    int err = out.GetErrno();
    return status(errc::io, "cannot write '" + path.string() + "': " + (err ? std::strerror(err) : "serialization failed"));
  }
  return ok();
}

/// Writes `t` (a host tensor) as a serialized TensorProto named `name`, the
/// format of test-data files. errc::io when the file cannot be written.
inline status write_tensor_file(const tensor& t, const std::filesystem::path& path, std::string name) {
  return write_proto_file(path, tensor_to_proto(t, std::move(name)));
}

/// A sequence or map value as the ONNX test data format holds it: a
/// SequenceProto (tensors, maps or sequences inside) or a MapProto (keys, and
/// its values as a SequenceProto of one-element tensors). errc::unsupported
/// for what the format cannot hold (an optional that holds nothing).
inline status value_to_proto(const value& v, onnx::SequenceProto& out, const std::string& name);
inline status value_to_proto(const value& v, onnx::MapProto& out, const std::string& name);

inline status value_to_proto(const value& v, onnx::SequenceProto& out, const std::string& name) {
  out.set_name(name);
  if (!v.is_sequence()) return status(errc::unsupported, "'" + name + "' is not a sequence");
  const auto& items = v.as_sequence().items;
  out.set_elem_type(onnx::SequenceProto::TENSOR);
  for (const auto& item : items) {
    if (item.is_tensor()) {
      out.set_elem_type(onnx::SequenceProto::TENSOR);
      *out.add_tensor_values() = tensor_to_proto(item.as_tensor(), "");
    } else if (item.is_map()) {
      out.set_elem_type(onnx::SequenceProto::MAP);
      ONYX_TRY(value_to_proto(item, *out.add_map_values(), ""));
    } else if (item.is_sequence()) {
      out.set_elem_type(onnx::SequenceProto::SEQUENCE);
      ONYX_TRY(value_to_proto(item, *out.add_sequence_values(), ""));
    } else {
      return status(errc::unsupported, "'" + name + "' holds an empty value");
    }
  }
  return ok();
}

inline status value_to_proto(const value& v, onnx::MapProto& out, const std::string& name) {
  out.set_name(name);
  if (!v.is_map()) return status(errc::unsupported, "'" + name + "' is not a map");
  const map& m = v.as_map();
  out.set_key_type(static_cast<std::int32_t>(m.keys.type()));
  for (std::int64_t i = 0; i < m.keys.size(); ++i) {
    if (m.keys.type() == dtype::string) {
      out.add_string_keys(m.keys.data<std::string>()[i]);
    } else {
      const std::int64_t k = visit_numeric(
          m.keys.type(), [&](auto z) { return static_cast<std::int64_t>(load(m.keys.data<decltype(z)>()[i])); },
          [] { return std::int64_t{0}; });
      out.add_keys(k);
    }
  }
  sequence values;
  values.items = m.values;
  return value_to_proto(value(std::move(values)), *out.mutable_values(), "");
}

/// Writes a tensor, sequence or map value as the test-data format does.
inline status write_value_file(const value& v, const std::filesystem::path& path, std::string name) {
  if (v.is_tensor()) return write_tensor_file(v.as_tensor(), path, std::move(name));
  if (v.is_map()) {
    onnx::MapProto p;
    ONYX_TRY(value_to_proto(v, p, name));
    return write_proto_file(path, p);
  }
  onnx::SequenceProto p;
  ONYX_TRY(value_to_proto(v, p, name));
  return write_proto_file(path, p);
}

}  // namespace onyx::graph
