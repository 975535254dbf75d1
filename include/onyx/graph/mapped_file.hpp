// onyx/graph/mapped_file.hpp: a whole file mapped read-only into memory.
//
// The loader maps external tensor data instead of reading it, so weights cost
// page cache, not heap, and tensors over the mapping share it through a
// shared_ptr<const mapped_file>. The mapping is PROT_READ: writing through a
// tensor that views it faults, so such tensors must be treated as constant.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <utility>

#include "onyx/core/message.hpp"

namespace onyx::graph {

class mapped_file {
 public:
  /// An empty mapping (size 0, no file).
  mapped_file() = default;

  /// Maps all of `path` read-only (MAP_PRIVATE). An empty file gives an empty
  /// mapping. Errors (errc::io) name the path and the system's reason, e.g.
  /// "cannot open 'w.bin': No such file or directory"; a directory is refused.
  static result<mapped_file> open(const std::string& path) {
    auto fail = [&](const char* what, int err) {
      return failure(errc::io, what, " '", path, "': ", std::strerror(err));
    };
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail("cannot open", errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      int err = errno;
      ::close(fd);
      return fail("cannot stat", err);
    }
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      return failure(errc::io, "cannot map '", path, "': not a regular file");
    }
    mapped_file f;
    f.path_ = path;
    f.size_ = static_cast<std::size_t>(st.st_size);
    if (f.size_ > 0) {
      void* p = ::mmap(nullptr, f.size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        int err = errno;
        ::close(fd);
        return fail("cannot map", err);
      }
      f.data_ = static_cast<const std::byte*>(p);
    }
    ::close(fd);  // the mapping keeps the file alive
    return f;
  }

  mapped_file(mapped_file&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)), path_(std::move(o.path_)) {}
  mapped_file& operator=(mapped_file&& o) noexcept {
    if (this != &o) {
      unmap();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      path_ = std::move(o.path_);
    }
    return *this;
  }
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file() { unmap(); }

  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::span<const std::byte> bytes() const { return {data_, size_}; }
  /// The path as given to open().
  const std::string& path() const { return path_; }

 private:
  void unmap() {
    if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
    data_ = nullptr;
    size_ = 0;
  }

  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::string path_;
};

}  // namespace onyx::graph
