// Mock of LibTorch 1.13 <c10/util/ArrayRef.h> and <c10/util/OptionalArrayRef.h>.
#pragma once

#include <c10/util/Optional.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

namespace c10 {

template <typename T>
class ArrayRef final {
 public:
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = size_t;
  using value_type = T;
  using reverse_iterator = std::reverse_iterator<iterator>;

 private:
  const T* Data;
  size_type Length;

 public:
  /* implicit */ constexpr ArrayRef() : Data(nullptr), Length(0) {}
  constexpr ArrayRef(const T& OneElt) : Data(&OneElt), Length(1) {}
  constexpr ArrayRef(const T* data, size_t length)
      : Data(data), Length(length) {}
  constexpr ArrayRef(const T* begin, const T* end)
      : Data(begin), Length(end - begin) {}
  template <
      typename Container,
      typename = std::enable_if_t<std::is_same<
          std::remove_const_t<decltype(std::declval<Container>().data())>,
          T*>::value>>
  /* implicit */ ArrayRef(const Container& container)
      : Data(container.data()), Length(container.size()) {}
  template <typename A>
  /* implicit */ ArrayRef(const std::vector<T, A>& Vec)
      : Data(Vec.data()), Length(Vec.size()) {}
  template <size_t N>
  /* implicit */ constexpr ArrayRef(const std::array<T, N>& Arr)
      : Data(Arr.data()), Length(N) {}
  template <size_t N>
  /* implicit */ constexpr ArrayRef(const T (&Arr)[N]) : Data(Arr), Length(N) {}
  /* implicit */ constexpr ArrayRef(const std::initializer_list<T>& Vec)
      : Data(Vec.begin()), Length(Vec.size()) {}

  constexpr iterator begin() const { return Data; }
  constexpr iterator end() const { return Data + Length; }
  constexpr const_iterator cbegin() const { return Data; }
  constexpr const_iterator cend() const { return Data + Length; }
  constexpr bool empty() const { return Length == 0; }
  constexpr const T* data() const { return Data; }
  constexpr size_t size() const { return Length; }
  const T& front() const { return Data[0]; }
  const T& back() const { return Data[Length - 1]; }
  bool equals(ArrayRef RHS) const;
  ArrayRef<T> slice(size_t N, size_t M) const;
  ArrayRef<T> slice(size_t N) const;
  constexpr const T& operator[](size_t Index) const { return Data[Index]; }
  const T& at(size_t Index) const { return Data[Index]; }
  template <typename U>
  typename std::enable_if<std::is_same<U, T>::value, ArrayRef<T>>::type&
  operator=(U&& Temporary) = delete;
  template <typename U>
  typename std::enable_if<std::is_same<U, T>::value, ArrayRef<T>>::type&
  operator=(std::initializer_list<U>) = delete;
  std::vector<T> vec() const;
};

template <typename T>
bool operator==(c10::ArrayRef<T> a1, c10::ArrayRef<T> a2);
template <typename T>
bool operator!=(c10::ArrayRef<T> a1, c10::ArrayRef<T> a2);
template <typename T>
bool operator==(const std::vector<T>& a1, c10::ArrayRef<T> a2);
template <typename T>
bool operator!=(const std::vector<T>& a1, c10::ArrayRef<T> a2);
template <typename T>
bool operator==(c10::ArrayRef<T> a1, const std::vector<T>& a2);
template <typename T>
bool operator!=(c10::ArrayRef<T> a1, const std::vector<T>& a2);

using IntArrayRef = ArrayRef<int64_t>;

template <typename T>
class OptionalArrayRef final {
 public:
  constexpr OptionalArrayRef() noexcept {}
  constexpr OptionalArrayRef(nullopt_t) noexcept {}
  OptionalArrayRef(const OptionalArrayRef& other) = default;
  OptionalArrayRef(OptionalArrayRef&& other) = default;
  constexpr OptionalArrayRef(const optional<ArrayRef<T>>& other) noexcept {}
  constexpr OptionalArrayRef(optional<ArrayRef<T>>&& other) noexcept {}
  constexpr OptionalArrayRef(const T& value) noexcept {}
  template <
      typename U = ArrayRef<T>,
      std::enable_if_t<
          !std::is_same<std::decay_t<U>, OptionalArrayRef>::value &&
              !std::is_same<std::decay_t<U>, in_place_t>::value &&
              std::is_constructible<ArrayRef<T>, U&&>::value &&
              std::is_convertible<U&&, ArrayRef<T>>::value &&
              !std::is_convertible<U&&, T>::value,
          bool> = false>
  constexpr OptionalArrayRef(U&& value) noexcept {}
  template <
      typename U = ArrayRef<T>,
      std::enable_if_t<
          !std::is_same<std::decay_t<U>, OptionalArrayRef>::value &&
              !std::is_same<std::decay_t<U>, in_place_t>::value &&
              std::is_constructible<ArrayRef<T>, U&&>::value &&
              !std::is_convertible<U&&, ArrayRef<T>>::value,
          bool> = false>
  constexpr explicit OptionalArrayRef(U&& value) noexcept {}
  template <typename... Args>
  constexpr explicit OptionalArrayRef(in_place_t ip, Args&&... args) noexcept {}
  constexpr OptionalArrayRef(const std::initializer_list<T>& Vec) {}
  ~OptionalArrayRef() = default;

  OptionalArrayRef& operator=(const OptionalArrayRef& other) = default;
  OptionalArrayRef& operator=(OptionalArrayRef&& other) = default;

  const ArrayRef<T>* operator->() const noexcept;
  const ArrayRef<T>& operator*() const& noexcept;
  explicit operator bool() const noexcept;
  bool has_value() const noexcept;
  const ArrayRef<T>& value() const&;
};

using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

// Real: <ATen/core/IListRef.h> (declared in namespace c10). Boxed
// (c10::List) and materialized payloads are not modelled.
template <typename T>
class IListRef {
 public:
  using unboxed_type = ArrayRef<T>;
  using iterator = const T*;
  using const_iterator = const T*;
  using value_type = T;

  IListRef() {}
  IListRef(const unboxed_type& unboxed) {}
  IListRef(const std::initializer_list<T>& list) {}
  template <
      typename... UnboxedConstructorArgs,
      typename = std::enable_if_t<
          std::is_constructible<unboxed_type, UnboxedConstructorArgs...>::value>>
  IListRef(UnboxedConstructorArgs&&... args) {}

  size_t size() const;
  bool empty() const;
  iterator begin() const;
  iterator end() const;
  unboxed_type toUnboxed() const;
  std::vector<T> vec() const;
};

} // namespace c10
