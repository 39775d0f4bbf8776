// Mock of LibTorch 1.13 <c10/util/variant.h>: c10::variant is its own class
// template in 1.13 (a copy of mpark::variant). Only the converting
// constructor is modelled (overload resolution over the alternatives, as in
// the real "imaginary function" rule).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace c10 {
namespace detail_ {
template <typename T>
struct variant_alternative_fn {
  static T F(T);
};
template <typename... Ts>
struct variant_overload : variant_alternative_fn<Ts>... {
  using variant_alternative_fn<Ts>::F...;
};
template <typename U, typename... Ts>
using variant_best_match_t =
    decltype(variant_overload<Ts...>::F(std::declval<U>()));
} // namespace detail_

template <typename... Ts>
class variant {
 public:
  variant();
  variant(const variant&) = default;
  variant(variant&&) = default;
  template <
      typename Arg,
      typename Decayed = std::decay_t<Arg>,
      std::enable_if_t<!std::is_same<Decayed, variant>::value, int> = 0,
      typename T = detail_::variant_best_match_t<Arg, Ts...>>
  variant(Arg&& arg) {}
  ~variant() = default;

  variant& operator=(const variant&) = default;
  variant& operator=(variant&&) = default;

  std::size_t index() const noexcept;
  bool valueless_by_exception() const noexcept;
};

template <typename T, typename... Ts>
bool holds_alternative(const variant<Ts...>& v) noexcept;
template <typename T, typename... Ts>
T& get(variant<Ts...>& v);
template <typename T, typename... Ts>
const T& get(const variant<Ts...>& v);
template <typename T, typename... Ts>
T* get_if(variant<Ts...>* v) noexcept;
template <typename T, typename... Ts>
const T* get_if(const variant<Ts...>* v) noexcept;

} // namespace c10
