// Mock of LibTorch 1.13 <torch/expanding_array.h>.
#pragma once

#include <c10/util/ArrayRef.h>
#include <c10/util/Optional.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace torch {

template <size_t D, typename T = int64_t>
class ExpandingArray {
 public:
  /*implicit*/ ExpandingArray(std::initializer_list<T> list)
      : ExpandingArray(at::ArrayRef<T>(list)) {}
  /*implicit*/ ExpandingArray(std::vector<T> vec)
      : ExpandingArray(at::ArrayRef<T>(vec)) {}
  /*implicit*/ ExpandingArray(at::ArrayRef<T> values) {}
  /*implicit*/ ExpandingArray(T single_size) {}
  /*implicit*/ ExpandingArray(const std::array<T, D>& values)
      : values_(values) {}

  std::array<T, D>& operator*() { return values_; }
  const std::array<T, D>& operator*() const { return values_; }
  std::array<T, D>* operator->() { return &values_; }
  const std::array<T, D>* operator->() const { return &values_; }
  operator at::ArrayRef<T>() const { return values_; }
  size_t size() const noexcept { return D; }

 protected:
  std::array<T, D> values_;
};

template <size_t D, typename T = int64_t>
class ExpandingArrayWithOptionalElem
    : public ExpandingArray<D, c10::optional<T>> {
 public:
  using ExpandingArray<D, c10::optional<T>>::ExpandingArray;
  /*implicit*/ ExpandingArrayWithOptionalElem(std::initializer_list<T> list);
  /*implicit*/ ExpandingArrayWithOptionalElem(std::vector<T> vec);
  /*implicit*/ ExpandingArrayWithOptionalElem(at::ArrayRef<T> values);
  /*implicit*/ ExpandingArrayWithOptionalElem(T single_size);
  /*implicit*/ ExpandingArrayWithOptionalElem(
      const std::array<T, D>& values);
};

} // namespace torch
