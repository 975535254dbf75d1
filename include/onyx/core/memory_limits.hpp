// onyx/core/memory_limits.hpp: how much memory a session may ask for.
//
// A model can ask for absurd work (a ConstantOfShape of 10^12 elements); the
// runtime checks each tensor allocation and each run's arena against these
// limits before allocating, and reports the node and the size instead of
// failing inside the allocator. Both default to the machine's physical
// memory. Tested in test/unit/resource_limits_test.cpp.
#pragma once

#include <cstddef>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <string>

#include <unistd.h>

#include "onyx/core/dtype.hpp"
#include "onyx/core/function_ref.hpp"
#include "onyx/core/shape.hpp"
#include "onyx/core/status.hpp"

namespace onyx {

/// The machine's physical memory in bytes (0 when it cannot be read).
inline std::size_t physical_memory_bytes() {
  long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
}

/// 0 in a field: no limit but the size of the address space.
struct memory_limits {
  /// The largest single tensor or scratch buffer, in bytes.
  std::size_t max_allocation = 0;
  /// The largest arena of one run (the planned intermediate tensors and
  /// kernel scratch of one input-shape signature), in bytes.
  std::size_t max_arena = 0;

  /// Limits where 0 means "the default": the physical memory (or 2^62 when
  /// that cannot be read).
  static memory_limits with_defaults(std::size_t max_allocation, std::size_t max_arena) {
    std::size_t phys = physical_memory_bytes();
    if (phys == 0) phys = std::size_t{1} << 62;
    return {max_allocation ? max_allocation : phys, max_arena ? max_arena : phys};
  }
};

/// Bytes of `n` elements of `t` for extents `e`, or nullopt when a dim is
/// negative or the count overflows.
inline std::optional<std::size_t> checked_storage_bytes(dtype t, std::span<const std::int64_t> e) {
  unsigned __int128 n = 1;
  for (std::int64_t d : e) {
    if (d < 0) return std::nullopt;
    n *= static_cast<std::uint64_t>(d);
    if (n > (static_cast<unsigned __int128>(1) << 63)) {
      // Past 2^63 elements the count no longer fits; zero-sized tensors
      // still have 0 bytes whatever their other dims.
      for (std::int64_t z : e)
        if (z == 0) return 0;
      return std::nullopt;
    }
  }
  unsigned __int128 bits = n * static_cast<unsigned>(bit_width(t));
  unsigned __int128 bytes = (bits + 7) / 8;
  if (bytes > static_cast<unsigned __int128>(std::numeric_limits<std::size_t>::max() / 2)) return std::nullopt;
  return static_cast<std::size_t>(bytes);
}

inline std::string byte_count(std::size_t b) {
  if (b >= (std::size_t{1} << 30)) return message(b, " bytes (", b >> 30, " GiB)");
  if (b >= (std::size_t{1} << 20)) return message(b, " bytes (", b >> 20, " MiB)");
  return message(b, " bytes");
}

namespace memory_limits_detail {
[[gnu::noinline, gnu::cold]] inline status allocation_error(const memory_limits& limits, dtype t,
                                                            std::span<const std::int64_t> e,
                                                            std::optional<std::size_t> bytes, const std::string& what) {
  const std::string shape = to_string(e);
  if (!bytes)
    return failure(errc::resource_exhausted, what, " would be ", name(t), " [", shape, "], whose size does not fit in memory");
  return failure(errc::resource_exhausted, what, " would be ", name(t), " [", shape, "]: ", byte_count(*bytes),
                 ", more than the largest allocation allowed (", byte_count(limits.max_allocation),
                 ", session_options::max_allocation_bytes)");
}
}  // namespace memory_limits_detail

/// Ok when a tensor of `t` and extents `e` fits `limits.max_allocation`;
/// else errc::resource_exhausted saying `what()` (an output's name, built
/// only then: runs check every output) and the size.
inline status check_allocation(const memory_limits& limits, dtype t, std::span<const std::int64_t> e,
                               function_ref<std::string()> what) {
  auto bytes = checked_storage_bytes(t, e);
  if (bytes && !(limits.max_allocation && *bytes > limits.max_allocation)) return ok();
  return memory_limits_detail::allocation_error(limits, t, e, bytes, what());
}

/// What an allocation over the limits throws inside a kernel (which cannot
/// return a status from kernel_context::allocate); the executor turns it into
/// a status naming the node.
class allocation_limit_error : public std::bad_alloc {
 public:
  explicit allocation_limit_error(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

/// Calls `f()` (returning a status or a result); an allocation failure inside
/// it comes back as errc::resource_exhausted prefixed with `where()` (called
/// only then). Without exceptions, `f()` is called as it is.
template <class F, class Where> auto catch_allocation_failure(F&& f, [[maybe_unused]] Where&& where) -> decltype(f()) {
#if defined(__cpp_exceptions)
  try {
    return f();
  } catch (const allocation_limit_error& e) {
    return status(errc::resource_exhausted, where() + ": " + e.what());
  } catch (const std::bad_alloc&) {
    return status(errc::resource_exhausted, where() + ": out of memory (an allocation failed)");
  }
#else
  return f();
#endif
}

}  // namespace onyx
