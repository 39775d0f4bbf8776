// Mock of LibTorch 1.13 <torch/csrc/autograd/generated/variable_factories.h>
// (autograd-aware factories in namespace torch; declarations copied from the
// real header, SymInt overloads omitted) and
// <torch/csrc/api/include/torch/detail/TensorDataContainer.h>.
#pragma once

#include <ATen/ATen.h>

#include <initializer_list>
#include <vector>

namespace torch {
namespace detail {
struct TensorDataContainer {
  TensorDataContainer();
  // AT_FORALL_SCALAR_TYPES_AND3(Bool, Half, BFloat16, TENSOR) and
  // AT_FORALL_COMPLEX_TYPES(TENSOR)
  TensorDataContainer(uint8_t value);
  TensorDataContainer(int8_t value);
  TensorDataContainer(int16_t value);
  TensorDataContainer(int value);
  TensorDataContainer(int64_t value);
  TensorDataContainer(float value);
  TensorDataContainer(double value);
  TensorDataContainer(bool value);
  TensorDataContainer(at::Half value);
  TensorDataContainer(at::BFloat16 value);
  TensorDataContainer(c10::complex<float> value);
  TensorDataContainer(c10::complex<double> value);
  TensorDataContainer(std::initializer_list<TensorDataContainer> init_list);
  TensorDataContainer(at::ArrayRef<uint8_t> values);
  TensorDataContainer(at::ArrayRef<int8_t> values);
  TensorDataContainer(at::ArrayRef<int16_t> values);
  TensorDataContainer(at::ArrayRef<int> values);
  TensorDataContainer(at::ArrayRef<int64_t> values);
  TensorDataContainer(at::ArrayRef<float> values);
  TensorDataContainer(at::ArrayRef<double> values);
  TensorDataContainer(at::ArrayRef<bool> values);
  TensorDataContainer(at::ArrayRef<at::Half> values);
  TensorDataContainer(at::ArrayRef<at::BFloat16> values);
  TensorDataContainer(at::ArrayRef<c10::complex<float>> values);
  TensorDataContainer(at::ArrayRef<c10::complex<double>> values);
  TensorDataContainer(const std::vector<bool>& values);
  TensorDataContainer(const std::vector<uint8_t>& values);
  TensorDataContainer(const std::vector<int8_t>& values);
  TensorDataContainer(const std::vector<int16_t>& values);
  TensorDataContainer(const std::vector<int>& values);
  TensorDataContainer(const std::vector<int64_t>& values);
  TensorDataContainer(const std::vector<float>& values);
  TensorDataContainer(const std::vector<double>& values);
  TensorDataContainer(const std::vector<at::Half>& values);
  TensorDataContainer(const std::vector<at::BFloat16>& values);
  TensorDataContainer(const std::vector<c10::complex<float>>& values);
  TensorDataContainer(const std::vector<c10::complex<double>>& values);

  bool is_scalar() const;
  bool is_init_list() const;
  bool is_tensor() const;
  c10::ScalarType scalar_type() const;
  at::Tensor convert_to_tensor(at::TensorOptions options) const;
};
} // namespace detail

inline at::Tensor tensor(detail::TensorDataContainer tensor_data_container, const at::TensorOptions& options = {}) {
  return at::Tensor();
}

using Deleter = std::function<void(void*)>;
using at::MemoryFormat;

inline at::Tensor from_blob(
    void* data,
    at::IntArrayRef sizes,
    at::IntArrayRef strides,
    const Deleter& deleter,
    const at::TensorOptions& options = at::TensorOptions()) {
  return at::Tensor();
}

inline at::Tensor from_blob(
    void* data,
    at::IntArrayRef sizes,
    at::IntArrayRef strides,
    const at::TensorOptions& options = at::TensorOptions()) {
  return at::Tensor();
}

inline at::Tensor from_blob(
    void* data,
    at::IntArrayRef sizes,
    const Deleter& deleter,
    const at::TensorOptions& options = at::TensorOptions()) {
  return at::Tensor();
}

inline at::Tensor from_blob(
    void* data,
    at::IntArrayRef sizes,
    const at::TensorOptions& options = at::TensorOptions()) {
  return at::Tensor();
}

at::Tensor arange(const at::Scalar & end, at::TensorOptions options = {});
at::Tensor arange(const at::Scalar & start, const at::Scalar & end, at::TensorOptions options = {});
at::Tensor arange(const at::Scalar & start, const at::Scalar & end, const at::Scalar & step, at::TensorOptions options = {});
at::Tensor empty(at::IntArrayRef size, c10::optional<at::DimnameList> names, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor empty_like(const at::Tensor & self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor eye(int64_t n, at::TensorOptions options = {});
at::Tensor eye(int64_t n, int64_t m, at::TensorOptions options = {});
at::Tensor full(at::IntArrayRef size, const at::Scalar & fill_value, c10::optional<at::DimnameList> names, at::TensorOptions options = {});
at::Tensor full(at::IntArrayRef size, const at::Scalar & fill_value, at::TensorOptions options = {});
at::Tensor full_like(const at::Tensor & self, const at::Scalar & fill_value, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor linspace(const at::Scalar & start, const at::Scalar & end, int64_t steps, at::TensorOptions options = {});
at::Tensor logspace(const at::Scalar & start, const at::Scalar & end, int64_t steps, double base = 10.0, at::TensorOptions options = {});
at::Tensor ones(at::IntArrayRef size, c10::optional<at::DimnameList> names, at::TensorOptions options = {});
at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor ones_like(const at::Tensor & self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor scalar_tensor(const at::Scalar & s, at::TensorOptions options = {});
at::Tensor rand(at::IntArrayRef size, c10::optional<at::DimnameList> names, at::TensorOptions options = {});
at::Tensor rand(at::IntArrayRef size, c10::optional<at::Generator> generator, c10::optional<at::DimnameList> names, at::TensorOptions options = {});
at::Tensor rand(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor rand(at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options = {});
at::Tensor rand_like(const at::Tensor & self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor randint(int64_t high, at::IntArrayRef size, at::TensorOptions options = at::kLong);
at::Tensor randint(int64_t high, at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options = at::kLong);
at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size, at::TensorOptions options = at::kLong);
at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options = at::kLong);
at::Tensor randint_like(const at::Tensor & self, int64_t high, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor randint_like(const at::Tensor & self, int64_t low, int64_t high, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor randn(at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options = {});
at::Tensor randn(at::IntArrayRef size, c10::optional<at::DimnameList> names, at::TensorOptions options = {});
at::Tensor randn(at::IntArrayRef size, c10::optional<at::Generator> generator, c10::optional<at::DimnameList> names, at::TensorOptions options = {});
at::Tensor randn_like(const at::Tensor & self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor randperm(int64_t n, at::TensorOptions options = at::kLong);
at::Tensor randperm(int64_t n, c10::optional<at::Generator> generator, at::TensorOptions options = at::kLong);
at::Tensor range(const at::Scalar & start, const at::Scalar & end, const at::Scalar & step = 1, at::TensorOptions options = {});
at::Tensor range(const at::Scalar & start, const at::Scalar & end, at::TensorOptions options = {});
at::Tensor zeros(at::IntArrayRef size, c10::optional<at::DimnameList> names, at::TensorOptions options = {});
at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor zeros_like(const at::Tensor & self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor normal(double mean, double std, at::IntArrayRef size, c10::optional<at::Generator> generator = c10::nullopt, at::TensorOptions options = {});

} // namespace torch
