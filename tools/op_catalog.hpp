// tools/op_catalog.hpp: where each op struct lives, for programs that write C++.
//
// op_info knows an op by domain, name and version; a generated op list must
// name its C++ struct and headers. The catalog is generated from
// include/onyx/ops/ops.manifest at configure time (tools/CMakeLists.txt).
#pragma once

#include <span>
#include <string_view>

namespace onyx::tools {

struct catalog_entry {
  std::string_view domain, name;
  int since;
  std::string_view op_struct;      // in onyx::ops: "Conv", "Scan_v8", "fused::Conv"
  std::string_view op_header;      // under include/onyx/ops/
  std::string_view kernel_header;  // under kernels/cpu/, or "-"
};

/// Every op struct of ops.manifest.
std::span<const catalog_entry> op_catalog();

}  // namespace onyx::tools
