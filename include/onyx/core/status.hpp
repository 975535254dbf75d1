// onyx/core/status.hpp: errors as values.
//
// Core, loader and kernels return `[[nodiscard]] status` or `result<T>`; the
// executor adds node and op context with `with_context`. The public API turns
// a failed status into `onyx::error` when exceptions are enabled.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <optional>

namespace onyx {

enum class errc {
  ok = 0,
  invalid_model,     // malformed or truncated file, dangling names, cycles
  unsupported,       // op, opset or type this build does not have
  invalid_argument,  // wrong input name, dtype or shape from the caller
  invalid_graph,     // shapes or types in the graph that do not agree
  out_of_range,      // an index inside the data is outside its bounds
  io,                // file could not be read or written
  internal,
  cancelled,         // a run stopped on request (run_options::terminate) or past its deadline
  resource_exhausted,  // a tensor or arena over the session's memory limits, or memory ran out
};

/// Success, or an error code with a message. Cheap to return when ok.
class [[nodiscard]] status {
 public:
  status() = default;
  status(errc code, std::string message)
      : error_(std::make_unique<payload>(payload{code, std::move(message)})) {}
  status(const status& o) : error_(o.error_ ? std::make_unique<payload>(*o.error_) : nullptr) {}
  status(status&&) noexcept = default;
  status& operator=(const status& o) { return *this = status(o); }
  status& operator=(status&&) noexcept = default;

  bool ok() const { return !error_; }
  explicit operator bool() const { return ok(); }
  errc code() const { return error_ ? error_->code : errc::ok; }
  const std::string& message() const {
    static const std::string empty;
    return error_ ? error_->message : empty;
  }
  /// Prefixes the message with `where: ` (a node, a file), keeping the code.
  status with_context(const std::string& where) && {
    if (error_) error_->message = where + ": " + error_->message;
    return std::move(*this);
  }

 private:
  struct payload {
    errc code;
    std::string message;
  };
  std::unique_ptr<payload> error_;
};

inline status ok() { return {}; }

#if defined(__cpp_exceptions)
/// What the throwing API throws: the status's code and message.
class error : public std::runtime_error {
 public:
  explicit error(const status& s) : std::runtime_error(s.message()), code_(s.code()) {}
  errc code() const { return code_; }

 private:
  errc code_;
};
#endif

/// Reports a broken precondition of the public API: throws onyx::error, or
/// without exceptions prints the message and aborts. Checked in every build.
[[noreturn]] inline void throw_error(status s) {
#if defined(__cpp_exceptions)
  throw error(s);
#else
  std::fprintf(stderr, "onyx: %s\n", s.message().c_str());
  std::abort();
#endif
}

/// A value or the status that explains why there is none.
template <class T> class [[nodiscard]] result {
 public:
  result(T value) : value_(std::move(value)) {}
  result(status s) : status_(std::move(s)) {
    if (status_.ok()) status_ = status(errc::internal, "a result was made from an ok status");
  }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  status error() const& { return status_; }
  status error() && { return std::move(status_); }

 private:
  status status_;
  std::optional<T> value_;
};

}  // namespace onyx

/// Returns early from the enclosing function when `expr` (a status) failed.
#define ONYX_TRY(expr)                  \
  do {                                  \
    ::onyx::status onyx_s_ = (expr);    \
    if (!onyx_s_.ok()) return onyx_s_;  \
  } while (0)

#define ONYX_CONCAT_(a, b) a##b
#define ONYX_CONCAT(a, b) ONYX_CONCAT_(a, b)
/// `ONYX_ASSIGN(auto x, f())`: binds the value of a result or returns its error.
/// It expands to several statements: give it braces under `if` or `for`.
#define ONYX_ASSIGN(decl, expr) ONYX_ASSIGN_(ONYX_CONCAT(onyx_r_, __LINE__), decl, expr)
#define ONYX_ASSIGN_(tmp, decl, expr)            \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return std::move(tmp).error(); \
  decl = std::move(tmp).value()
