// Mock of LibTorch 1.13 <c10/util/Optional.h>: c10::optional is its own
// class template (not an alias of std::optional) in 1.13.
#pragma once

#include <c10/macros/Macros.h>

#include <initializer_list>
#include <type_traits>
#include <utility>

namespace c10 {

struct in_place_t {
  explicit in_place_t() = default;
};
constexpr in_place_t in_place{};

struct nullopt_t {
  constexpr explicit nullopt_t(int) {}
};
constexpr nullopt_t nullopt{0};

#define C10_MOCK_REQUIRES(...) \
  typename std::enable_if<__VA_ARGS__, bool>::type = false

template <class T>
class optional {
 public:
  typedef T value_type;

  constexpr optional() noexcept {}
  constexpr optional(nullopt_t) noexcept {}
  optional(const optional& rhs) = default;
  optional(optional&& rhs) = default;

  // Same constraints as the real converting constructors; evaluated with
  // std::conjunction so that copying an optional<T> never needs T complete.
  template <
      typename U = T,
      C10_MOCK_REQUIRES(std::conjunction<
                        std::negation<std::is_same<typename std::decay<U>::type, in_place_t>>,
                        std::negation<std::is_same<typename std::decay<U>::type, optional<T>>>,
                        std::is_constructible<T, U&&>,
                        std::is_convertible<U&&, T>>::value)>
  constexpr optional(U&& u) {}

  template <
      typename U = T,
      C10_MOCK_REQUIRES(std::conjunction<
                        std::negation<std::is_same<typename std::decay<U>::type, in_place_t>>,
                        std::negation<std::is_same<typename std::decay<U>::type, optional<T>>>,
                        std::is_constructible<T, U&&>,
                        std::negation<std::is_convertible<U&&, T>>>::value)>
  explicit constexpr optional(U&& u) {}

  template <class... Args>
  explicit constexpr optional(in_place_t, Args&&... args) {}

  template <
      class U,
      class... Args,
      C10_MOCK_REQUIRES(std::is_constructible<T, std::initializer_list<U>>::value)>
  constexpr explicit optional(
      in_place_t,
      std::initializer_list<U> il,
      Args&&... args) {}

  ~optional() = default;

  optional& operator=(nullopt_t) noexcept;
  optional& operator=(const optional& rhs) = default;
  optional& operator=(optional&& rhs) = default;
  template <class U = T>
  auto operator=(U&& v) -> typename std::enable_if<
      std::conjunction<
          std::negation<std::is_same<typename std::decay<U>::type, optional<T>>>,
          std::is_constructible<T, U>,
          std::disjunction<
              std::is_scalar<T>,
              std::is_same<typename std::decay<U>::type, T>>,
          std::is_assignable<T&, U>>::value,
      optional&>::type;

  template <class... Args>
  void emplace(Args&&... args);
  void swap(optional<T>& rhs) noexcept;

  T const* operator->() const;
  T* operator->();
  T const& operator*() const&;
  T& operator*() &;
  T&& operator*() &&;

  explicit operator bool() const noexcept;
  bool has_value() const noexcept;

  T const& value() const&;
  T& value() &;
  T&& value() &&;

  template <class V>
  T value_or(V&& v) const&;
  template <class V>
  T value_or(V&& v) &&;

  void reset() noexcept;
};

template <class T>
bool operator==(const optional<T>& x, const optional<T>& y);
template <class T>
bool operator!=(const optional<T>& x, const optional<T>& y);
template <class T>
bool operator==(const optional<T>& x, nullopt_t) noexcept;
template <class T>
bool operator==(nullopt_t, const optional<T>& x) noexcept;
template <class T>
bool operator!=(const optional<T>& x, nullopt_t) noexcept;
template <class T>
bool operator!=(nullopt_t, const optional<T>& x) noexcept;
template <class T, class U>
bool operator==(const optional<T>& x, const U& v);
template <class T, class U>
bool operator==(const U& v, const optional<T>& x);
template <class T, class U>
bool operator!=(const optional<T>& x, const U& v);
template <class T, class U>
bool operator!=(const U& v, const optional<T>& x);

template <class T>
optional<typename std::decay<T>::type> make_optional(T&& v);

} // namespace c10
