// onyx/core/message.hpp: error messages joined out of line.
//
//   return failure(errc::invalid_argument, "input '", name, "' has ", rank, " dims");
//
// The pieces (text, or integers written in decimal) are joined by one
// function, so a message costs its call site a few stores and a call rather
// than a string temporary, an append and a destructor per `+`. Error paths
// are a large part of what a trimmed program holds outside its kernels
// (bench/size.sh), so the runtime's own messages are built this way.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

#include "onyx/core/status.hpp"

namespace onyx {

/// One piece of a message: text (kept by reference: it must outlive the
/// call), or an integer, written in decimal into the piece itself.
class message_piece {
 public:
  message_piece(const char* s) : text_(s) {}
  message_piece(std::string_view s) : text_(s) {}
  message_piece(const std::string& s) : text_(s) {}
  template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, char>)
  message_piece(I v) {
    if constexpr (std::is_signed_v<I>)
      format(v < 0, v < 0 ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v));
    else
      format(false, v);
  }
  message_piece(const message_piece&) = delete;  // text_ may point into digits_
  message_piece& operator=(const message_piece&) = delete;

  std::string_view text() const { return text_; }

 private:
  [[gnu::noinline]] void format(bool negative, unsigned long long v) {
    char* p = digits_ + sizeof digits_;
    do *--p = static_cast<char>('0' + v % 10);
    while (v /= 10);
    if (negative) *--p = '-';
    text_ = std::string_view(p, static_cast<std::size_t>(digits_ + sizeof digits_ - p));
  }

  std::string_view text_;
  char digits_[24];
};

namespace message_detail {
[[gnu::noinline]] inline std::string join(std::initializer_list<message_piece> pieces) {
  std::size_t n = 0;
  for (const auto& p : pieces) n += p.text().size();
  std::string s;
  s.reserve(n);
  for (const auto& p : pieces) s += p.text();
  return s;
}
[[gnu::noinline]] inline status make(errc code, std::initializer_list<message_piece> pieces) {
  return status(code, join(pieces));
}
}  // namespace message_detail

/// The pieces joined: message("a ", n, " b").
template <class... A> std::string message(const A&... pieces) {
  return message_detail::join({message_piece(pieces)...});
}

/// The last component of `path` (after its last '/'), as messages name a
/// file: what std::filesystem::path::filename() gives, without linking
/// std::filesystem.
inline std::string file_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

/// status(code, message(pieces...)), made out of line.
template <class... A> status failure(errc code, const A&... pieces) {
  return message_detail::make(code, {message_piece(pieces)...});
}

}  // namespace onyx
