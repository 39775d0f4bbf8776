// Mock of LibTorch 1.13 <c10/util/string_view.h>: c10::string_view is
// c10::basic_string_view<char> (its own class in 1.13, not std::string_view).
#pragma once

#include <cstddef>
#include <string>

namespace c10 {

template <class CharT>
class basic_string_view final {
 public:
  using value_type = CharT;
  using size_type = std::size_t;

  constexpr basic_string_view() noexcept : begin_(nullptr), size_(0) {}
  constexpr basic_string_view(const CharT* str, size_type count)
      : begin_(str), size_(count) {}
  /* implicit */ constexpr basic_string_view(const CharT* str)
      : begin_(str), size_(0) {}
  /* implicit */ basic_string_view(const ::std::basic_string<CharT>& str)
      : begin_(str.data()), size_(str.size()) {}

  constexpr const CharT* data() const noexcept { return begin_; }
  constexpr size_type size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }

 private:
  const CharT* begin_;
  size_type size_;
};

using string_view = basic_string_view<char>;

} // namespace c10
