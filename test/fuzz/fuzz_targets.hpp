// test/fuzz/fuzz_targets.hpp: the entry functions the fuzzers and the
// regression replay share (issue 15). Each takes one input's bytes and must
// return without crashing, hanging, leaking or allocating without bound,
// whatever the bytes are.
//
//   model:   an .onnx file: load, create a session (a registry of common ops,
//            control flow included), and when that works run it once on
//            small generated inputs.
//   tensor:  a TensorProto: onyx's own protobuf-free reader
//            (graph/tensor_file.hpp) and the protobuf one (graph/tensor_proto.hpp).
//   compact: onyx's compact model form (graph/compact.hpp): read, then
//            create a session.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace onyx::fuzz {

int load_and_run_model(const std::uint8_t* data, std::size_t size);
int read_tensor(const std::uint8_t* data, std::size_t size);
int read_compact(const std::uint8_t* data, std::size_t size);

/// The entry of a target by name ("model", "tensor", "compact"); null if none.
using entry_fn = int (*)(const std::uint8_t*, std::size_t);
inline entry_fn entry(std::string_view name) {
  if (name == "model") return &load_and_run_model;
  if (name == "tensor") return &read_tensor;
  if (name == "compact") return &read_compact;
  return nullptr;
}

}  // namespace onyx::fuzz
