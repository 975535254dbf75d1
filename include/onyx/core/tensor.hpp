// onyx/core/tensor.hpp: dense tensors on a device.
//
// A `tensor` is a dtype, extents, a device and a data pointer. It either owns
// its buffer (shared, 64-byte aligned, released with the last copy) or views
// memory someone else owns: an arena slot, a memory-mapped weight, a caller's
// array. Copies are shallow; `clone()` copies the data.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "onyx/core/dtype.hpp"
#include "onyx/core/host_memory.hpp"
#include "onyx/core/memory_limits.hpp"
#include "onyx/core/shape.hpp"
#include "onyx/core/status.hpp"

namespace onyx {

inline constexpr std::size_t tensor_alignment = 64;

template <> inline constexpr dtype dtype_of<std::string> = dtype::string;

/// Where a value's memory lives. `cpu_test` is a CPU device with memory of its
/// own, used by tests to exercise copy insertion before a GPU backend exists.
enum class device_kind : std::uint8_t { cpu = 0, cpu_test = 1, cuda = 2 };

struct device {
  device_kind kind = device_kind::cpu;
  std::uint8_t index = 0;
  friend constexpr bool operator==(device, device) = default;
};

inline std::string to_string(device d) {
  const char* n = d.kind == device_kind::cpu ? "cpu" : d.kind == device_kind::cpu_test ? "cpu_test" : "cuda";
  return message(n, ":", d.index);
}

/// 64-byte aligned host memory (huge pages for large blocks: host_memory.hpp), zero-sized requests give a valid pointer;
/// null when the memory cannot be had (or `bytes` is absurd).
inline std::shared_ptr<void> try_allocate_aligned(std::size_t bytes) {
  void* p = try_allocate_host(bytes, tensor_alignment);
  if (!p) return nullptr;
  return std::shared_ptr<void>(p, [](void* q) { free_host(q); });
}

/// As try_allocate_aligned, throwing std::bad_alloc (aborting without
/// exceptions) when the memory cannot be had.
inline std::shared_ptr<void> allocate_aligned(std::size_t bytes) {
  auto p = try_allocate_aligned(bytes);
  if (!p) {
#if defined(__cpp_exceptions)
    throw std::bad_alloc();
#else
    std::abort();
#endif
  }
  return p;
}

class tensor {
 public:
  tensor() = default;

  /// An owning tensor; numbers are zero, strings empty. A negative dim is
  /// an onyx::error; a size past the address space, std::bad_alloc.
  static tensor zeros(dtype t, extents shape, device dev = {}) {
    check_extents(shape);
    tensor r;
    r.type_ = t;
    r.shape_ = std::move(shape);
    r.device_ = dev;
    auto n = element_count(r.shape_);
    if (t == dtype::string) {
      auto* s = new std::string[n ? n : 1];
      r.buffer_ = std::shared_ptr<void>(s, [](void* q) { delete[] static_cast<std::string*>(q); });
      r.data_ = s;
    } else {
      auto bytes = storage_bytes(t, n);
      r.buffer_ = allocate_aligned(bytes);
      r.data_ = r.buffer_.get();
      std::memset(r.data_, 0, bytes);
    }
    return r;
  }

  /// An owning tensor whose numeric contents are left unset (strings are empty).
  static tensor uninitialized(dtype t, extents shape, device dev = {}) {
    if (t == dtype::string) return zeros(t, std::move(shape), dev);
    check_extents(shape);
    tensor r;
    r.type_ = t;
    r.shape_ = std::move(shape);
    r.device_ = dev;
    r.buffer_ = allocate_aligned(storage_bytes(t, element_count(r.shape_)));
    r.data_ = r.buffer_.get();
    return r;
  }

  /// A non-owning tensor over `data`, which must outlive it.
  static tensor view(void* data, dtype t, extents shape, device dev = {}) {
    tensor r;
    r.data_ = data;
    r.type_ = t;
    r.shape_ = std::move(shape);
    r.device_ = dev;
    return r;
  }
  /// A tensor over memory kept alive by `owner` (a device's memory with `dev`).
  static tensor adopt(std::shared_ptr<void> owner, void* data, dtype t, extents shape, device dev = {}) {
    tensor r = view(data, t, std::move(shape), dev);
    r.buffer_ = std::move(owner);
    return r;
  }

  /// An owning tensor holding a copy of `values`. Throws onyx::error
  /// (errc::invalid_argument) when their count is not the shape's.
  template <class T> static tensor from(std::span<const T> values, extents shape) {
    auto r = try_from(values, std::move(shape));
    if (!r.ok()) throw_error(std::move(r).error());
    return std::move(r).value();
  }
  /// As `from`, returning the error (for -fno-exceptions programs).
  template <class T> static result<tensor> try_from(std::span<const T> values, extents shape) {
    static_assert(dtype_of<T> != dtype::undefined, "no ONNX element type for this C++ type");
    for (auto d : shape)
      if (d < 0) return status(errc::invalid_argument, "tensor::from: negative dim in shape [" + to_string(shape) + "]");
    if (static_cast<std::int64_t>(values.size()) != element_count(shape))
      return status(errc::invalid_argument, "tensor::from: " + std::to_string(values.size()) +
                                                " values given for shape [" + to_string(shape) + "], which holds " +
                                                std::to_string(element_count(shape)));
    tensor r = zeros(dtype_of<T>, std::move(shape));
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>)
      std::copy(values.begin(), values.end(), r.data<T>());
    else if (!values.empty())  // an empty span may hold a null pointer, which memcpy may not take
      std::memcpy(r.data_, values.data(), values.size() * sizeof(T));
    return r;
  }
  template <class T> static tensor from(std::initializer_list<T> values, extents shape) {
    return from(std::span<const T>(values.begin(), values.size()), std::move(shape));
  }
  template <class T> static tensor from(const std::vector<T>& values, extents shape) {
    if constexpr (std::is_same_v<T, bool>) {
      std::unique_ptr<bool[]> tmp(new bool[values.size()]);
      std::copy(values.begin(), values.end(), tmp.get());
      return from(std::span<const bool>(tmp.get(), values.size()), std::move(shape));
    } else {
      return from(std::span<const T>(values), std::move(shape));
    }
  }
  template <class T> static tensor scalar(T v) { return from(std::span<const T>(&v, 1), {}); }

  dtype type() const { return type_; }
  const extents& shape() const { return shape_; }
  std::size_t rank() const { return shape_.size(); }
  std::int64_t dim(std::size_t i) const {
    if (i >= shape_.size()) [[unlikely]]
      dim_out_of_range(i);
    return shape_[i];
  }
  std::int64_t size() const { return element_count(shape_); }
  std::size_t bytes() const { return storage_bytes(type_, size()); }
  device where() const { return device_; }
  bool empty() const { return type_ == dtype::undefined; }
  bool owns() const { return buffer_ != nullptr; }

  void* raw() { return data_; }
  const void* raw() const { return data_; }
  /// The elements as T. T must be the element type or one of its width
  /// (bytes for sub-byte types); a wider T (reading past the end) is an
  /// onyx::error in every build.
  template <class T> T* data() {
    assert(type_ == dtype_of<T> || type_ == dtype::undefined || sizeof(T) * 8 == static_cast<std::size_t>(bit_width(type_)));
    if (type_ != dtype::undefined && sizeof(T) * 8 > static_cast<std::size_t>(std::max(8, bit_width(type_)))) [[unlikely]]
      read_as_wider(sizeof(T));
    return static_cast<T*>(data_);
  }
  template <class T> const T* data() const { return const_cast<tensor*>(this)->data<T>(); }
  template <class T> std::span<T> values() { return {data<T>(), static_cast<std::size_t>(size())}; }
  template <class T> std::span<const T> values() const { return {data<T>(), static_cast<std::size_t>(size())}; }

  /// Same data, other extents (element count must match: else onyx::error).
  tensor reshaped(extents shape) const {
    if (element_count(shape) != size() || std::any_of(shape.begin(), shape.end(), [](auto d) { return d < 0; }))
      throw_error(status(errc::invalid_argument, "tensor::reshaped: shape [" + to_string(shape) +
                                                     "] does not hold the " + std::to_string(size()) +
                                                     " elements of [" + to_string(shape_) + "]"));
    tensor r = *this;
    r.shape_ = std::move(shape);
    return r;
  }
  /// A deep copy into owned memory on `dev`.
  tensor clone(device dev = {}) const {
    tensor r = zeros(type_, shape_, dev);
    if (type_ == dtype::string)
      std::copy_n(data<std::string>(), size(), r.data<std::string>());
    else if (bytes() > 0)  // a zero-sized view may hold no pointer
      std::memcpy(r.data_, data_, bytes());
    return r;
  }
  void set_device(device d) { device_ = d; }

 private:
  // The errors of dim() and data<T>(), out of line: one copy of each message,
  // not one per call site and element type.
  [[noreturn, gnu::noinline, gnu::cold]] void dim_out_of_range(std::size_t i) const {
    throw_error(failure(errc::out_of_range, "tensor::dim(", i, ") of a rank-", shape_.size(), " tensor"));
  }
  [[noreturn, gnu::noinline, gnu::cold]] void read_as_wider(std::size_t element_bytes) const {
    throw_error(failure(errc::invalid_argument, "tensor::data: a ", name(type_), " tensor read as ", element_bytes,
                        "-byte elements"));
  }
  static void check_extents(const extents& shape) {
    for (auto d : shape)
      if (d < 0) throw_error(failure(errc::invalid_argument, "a tensor of shape [", to_string(shape), "]: negative dim"));
    if (!checked_storage_bytes(dtype::complex128, shape)) {
#if defined(__cpp_exceptions)
      throw std::bad_alloc();
#else
      std::abort();
#endif
    }
  }

  std::shared_ptr<void> buffer_;
  void* data_ = nullptr;
  dtype type_ = dtype::undefined;
  extents shape_;
  device device_;
};

}  // namespace onyx
