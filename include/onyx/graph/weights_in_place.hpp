// onyx/graph/weights_in_place.hpp: a model file's large initializers read in
// place, from the file's mapping, instead of copied out by protobuf.
//
// protobuf copies every raw_data field into a std::string of its own. For a
// 440 MB BERT that is 440 MB of fresh heap written page by page, and on a VM
// where a page fault costs microseconds that copy was most of session
// creation (2.2 of 2.5 s). load_model(path) maps the file and hands protobuf
// the model's bytes with each large raw_data of a top-level initializer
// taken out and the tensor turned into external data at the same bytes of
// the same file (location in_place_location, offset, length), which
// tensor_from_proto then views in place like any external data: bounds,
// alignment and size checks as there, the tensor sharing the mapping.
//
// Only the path ModelProto.graph (7) -> GraphProto.initializer (5) ->
// TensorProto.raw_data (9) is rewritten; every other field is copied as it
// is. A tensor that already has external_data (13) or data_location (14), or
// more than one raw_data field, is left alone, and bytes that do not walk as
// wire format give nullopt: the caller then parses the file as it is, and
// protobuf says what is wrong with it.
// Tested in test/unit/weights_in_place_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "onyx/graph/wire_depth.hpp"

namespace onyx::graph {

/// The external data location that stands for the model file itself (a NUL
/// in it, so no file name can be it).
inline const std::string in_place_location{"\0onyx:model-file", 16};

/// raw_data fields of at least this many bytes are viewed in place.
inline constexpr std::size_t in_place_smallest = std::size_t{1} << 16;

namespace wire_detail {

struct field {
  std::uint64_t number = 0;
  int type = 0;
  std::size_t begin = 0, end = 0;              // the whole field, key included
  std::size_t value_begin = 0, value_end = 0;  // a length-delimited field's bytes
};

/// The field at bytes[at, end); advances `at`. false when it is not wire
/// format (a bad key or varint, a length past `end`, a group).
inline bool next(std::string_view bytes, std::size_t& at, std::size_t end, field& f) {
  f.begin = at;
  const auto key = detail::read_varint(bytes, at, end);
  if (!key || (*key >> 3) == 0) return false;
  f.number = *key >> 3;
  f.type = static_cast<int>(*key & 7);
  switch (f.type) {
    case 0:
      if (!detail::read_varint(bytes, at, end)) return false;
      break;
    case 1:
      if (end - at < 8) return false;
      at += 8;
      break;
    case 5:
      if (end - at < 4) return false;
      at += 4;
      break;
    case 2: {
      const auto n = detail::read_varint(bytes, at, end);
      if (!n || *n > end - at) return false;
      f.value_begin = at;
      at += static_cast<std::size_t>(*n);
      f.value_end = at;
      break;
    }
    default:
      return false;  // groups: not in ONNX's protos
  }
  f.end = at;
  return true;
}

inline void put_varint(std::string& out, std::uint64_t v) {
  for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>((v & 0x7f) | 0x80));
  out.push_back(static_cast<char>(v));
}

inline void put_bytes(std::string& out, std::uint64_t number, std::string_view value) {
  put_varint(out, number << 3 | 2);
  put_varint(out, value.size());
  out.append(value);
}

/// StringStringEntryProto {key = 1, value = 2}.
inline void put_entry(std::string& out, std::string_view key, std::string_view value) {
  std::string entry;
  put_bytes(entry, 1, key);
  put_bytes(entry, 2, value);
  put_bytes(out, 13, entry);  // TensorProto.external_data
}

/// TensorProto at bytes[begin, end), rewritten into `out` (as a message body).
inline bool tensor(std::string_view bytes, std::size_t begin, std::size_t end, std::string& out, int& moved) {
  field f, raw;
  int raws = 0;
  bool external = false;
  for (std::size_t at = begin; at < end;) {
    if (!next(bytes, at, end, f)) return false;
    if (f.number == 9 && f.type == 2) raw = f, ++raws;
    if (f.number == 13 || f.number == 14) external = true;
  }
  if (external || raws != 1 || raw.value_end - raw.value_begin < in_place_smallest) {
    out.append(bytes.substr(begin, end - begin));
    return true;
  }
  out.append(bytes.substr(begin, raw.begin - begin));
  out.append(bytes.substr(raw.end, end - raw.end));
  put_entry(out, "location", in_place_location);
  put_entry(out, "offset", std::to_string(raw.value_begin));
  put_entry(out, "length", std::to_string(raw.value_end - raw.value_begin));
  put_varint(out, 14 << 3 | 0);  // data_location = EXTERNAL
  put_varint(out, 1);
  ++moved;
  return true;
}

/// GraphProto at bytes[begin, end): its initializers (5) through tensor().
inline bool graph(std::string_view bytes, std::size_t begin, std::size_t end, std::string& out, int& moved) {
  field f;
  for (std::size_t at = begin; at < end;) {
    if (!next(bytes, at, end, f)) return false;
    if (f.number != 5 || f.type != 2) {
      out.append(bytes.substr(f.begin, f.end - f.begin));
      continue;
    }
    std::string t;
    if (!tensor(bytes, f.value_begin, f.value_end, t, moved)) return false;
    put_bytes(out, 5, t);
  }
  return true;
}

}  // namespace wire_detail

/// `model` (a serialized ModelProto: the whole file, so that offsets in it are
/// file offsets) with each top-level initializer's raw_data of at least
/// in_place_smallest bytes replaced by external data at in_place_location;
/// nullopt when no field was moved or the bytes do not walk as wire format.
inline std::optional<std::string> move_weights_out(std::string_view model) {
  std::string out;
  int moved = 0;
  wire_detail::field f;
  for (std::size_t at = 0; at < model.size();) {
    if (!wire_detail::next(model, at, model.size(), f)) return std::nullopt;
    if (f.number != 7 || f.type != 2) {  // ModelProto.graph
      out.append(model.substr(f.begin, f.end - f.begin));
      continue;
    }
    std::string g;
    if (!wire_detail::graph(model, f.value_begin, f.value_end, g, moved)) return std::nullopt;
    wire_detail::put_bytes(out, 7, g);
  }
  if (moved == 0) return std::nullopt;
  return out;
}

}  // namespace onyx::graph
