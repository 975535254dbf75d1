// onyx/graph/free_dimensions.hpp: symbolic input dims fixed by name
// (session_options::free_dimensions, onyx-run --dim, ORT's
// add_free_dimension_override_by_name).
//
// Every dim of a graph input that is the symbol `name` becomes the given
// size, before inference, so inference, the passes and planning see a
// concrete dim. A name that no input dim carries is an error listing the
// symbols there are (a typo would otherwise pass silently). Tested in
// test/unit/session_options_test.cpp.
#pragma once

#include <map>
#include <string>

#include "onyx/core/message.hpp"
#include "onyx/graph/ir.hpp"

namespace onyx::graph {

inline status fix_free_dimensions(graph& g, const std::map<std::string, std::int64_t, std::less<>>& sizes) {
  if (sizes.empty()) return ok();
  std::map<std::string, int, std::less<>> used;
  std::string others;  // the symbols not named, for the message
  for (int id : g.inputs) {
    auto& shape = g.values[id].type.shape;
    if (!shape.rank_known) continue;
    for (auto& d : shape.dims) {
      if (d.known() || d.is_unknown()) continue;
      const std::string sym = d.str();
      if (auto it = sizes.find(sym); it != sizes.end()) {
        if (it->second < 0)
          return failure(errc::invalid_argument, "free dimension '", sym, "' set to ", it->second,
                         "; a dim cannot be negative");
        d = dim(it->second);
        ++used[sym];
      } else if (const std::string quoted = message("'", sym, "'"); others.find(quoted) == std::string::npos) {
        others += message(others.empty() ? "" : ", ", quoted);
      }
    }
  }
  for (const auto& [name, size] : sizes)
    if (!used.count(name))
      return failure(errc::invalid_argument, "free dimension '", name, "' is not a symbolic dim of the model's inputs",
                     others.empty() ? " (they have no other)" : " (their symbolic dims are ", others,
                     others.empty() ? "" : ")");
  return ok();
}

}  // namespace onyx::graph
