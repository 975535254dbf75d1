// onyx/graph/wire_depth.hpp: how deeply the messages of serialized protobuf
// bytes nest, found without parsing them into messages, so that a file
// protobuf refuses can be told apart as "nested too deeply" rather than
// "truncated or not a protobuf" (issue 15: subgraphs nested thousands deep).
//
// protobuf's parser gives up at 100 nested messages (its default recursion
// limit) and says only that parsing failed. Each If or Loop body adds three
// levels (NodeProto -> AttributeProto -> GraphProto), so about 33 nested
// subgraphs already reach it. wire_nesting_depth walks the wire format once,
// with an explicit stack (no recursion, so hostile depth cannot overflow it):
// every length-delimited field is taken as a message while its contents parse
// as wire format, and as plain bytes otherwise.
// Tested in test/unit/resource_limits_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace onyx::graph {

/// protobuf's default recursion limit (io::CodedInputStream).
inline constexpr int protobuf_recursion_limit = 100;

namespace detail {

/// A base-128 varint at bytes[at, end); advances `at`. nullopt when it runs
/// past `end` or over 10 bytes.
inline std::optional<std::uint64_t> read_varint(std::string_view bytes, std::size_t& at, std::size_t end) {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 70 && at < end; shift += 7) {
    auto b = static_cast<std::uint8_t>(bytes[at++]);
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  return std::nullopt;
}

}  // namespace detail

/// The deepest nesting of messages in `bytes` taken as one message (the
/// top-level message counts 1); 0 when `bytes` is not wire format at all.
inline int wire_nesting_depth(std::string_view bytes) {
  struct region {
    std::size_t end;
    int deepest_child = 0;  // depth of the deepest valid child message
  };
  std::vector<region> stack{{bytes.size()}};
  std::size_t at = 0;
  int top_depth = 0;
  // Pops the innermost region, valid or not, into its parent.
  auto finish = [&](bool valid) {
    const region r = stack.back();
    stack.pop_back();
    const int depth = valid ? r.deepest_child + 1 : 0;
    at = r.end;
    if (stack.empty()) top_depth = depth;
    else if (depth > stack.back().deepest_child) stack.back().deepest_child = depth;
  };
  while (!stack.empty()) {
    const std::size_t end = stack.back().end;
    if (at == end) {
      finish(true);
      continue;
    }
    auto tag = detail::read_varint(bytes, at, end);
    const auto wire = tag ? *tag & 7 : 7;
    if (!tag || (*tag >> 3) == 0) {
      finish(false);
      continue;
    }
    bool ok = true;
    switch (wire) {
      case 0: ok = detail::read_varint(bytes, at, end).has_value(); break;
      case 1:
      case 5: {
        const std::size_t width = wire == 1 ? 8 : 4;
        ok = end - at >= width;
        if (ok) at += width;
        break;
      }
      case 2: {
        auto len = detail::read_varint(bytes, at, end);
        ok = len && *len <= end - at;
        if (ok) stack.push_back({at + static_cast<std::size_t>(*len)});
        break;
      }
      default: ok = false;  // groups (3, 4) are not used by ONNX
    }
    if (!ok) finish(false);
  }
  return top_depth;
}

/// Why protobuf refused `bytes`, for an error message: nesting past its
/// recursion limit, or else truncated or not a protobuf.
inline std::string_view parse_failure_reason(std::string_view bytes) {
  return wire_nesting_depth(bytes) > protobuf_recursion_limit
             ? "messages nested deeper than protobuf's limit of 100 levels: subgraphs (If/Loop/Scan bodies, three "
               "levels each) or types nested too deeply"
             : "truncated or not a protobuf";
}

}  // namespace onyx::graph
