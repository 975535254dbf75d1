// cmake/prebuilt/all_ops.cpp: the full preset's registry.
//
// Builds the op table of every op and links to the kernel tables compiled
// per kernel header (cmake/prebuilt/kernel_header.cpp.in); no kernel is
// instantiated here. CI holds this TU to 30 s and 1.5 GB.
#include "kernels/cpu/all_kernels.hpp"
#include "onyx/all_ops.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/session.hpp"

namespace onyx {

op_table session::all_ops() { return prebuilt_registry<onyx::all_ops, backend_list<cpu>>::table(); }

}  // namespace onyx
