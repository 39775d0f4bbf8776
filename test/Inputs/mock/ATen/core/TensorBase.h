// Mock of LibTorch 1.13 <ATen/core/TensorBase.h> (plus the bits of
// <c10/util/intrusive_ptr.h>, <ATen/core/Dimname.h> and
// <ATen/core/Generator.h> it needs). Method split between at::TensorBase and
// at::Tensor follows the real headers.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Optional.h>
#include <c10/util/string_view.h>

#include <cstdint>
#include <string>
#include <type_traits>

namespace c10 {
struct TensorImpl;
struct UndefinedTensorImpl;

// Non-trivial (reference counted) handle, as in <c10/util/intrusive_ptr.h>:
// keeps at::TensorBase / at::Tensor non-trivially-copyable like the real ones.
template <class TTarget, class NullType>
class intrusive_ptr final {
 public:
  intrusive_ptr() noexcept;
  intrusive_ptr(const intrusive_ptr& rhs);
  intrusive_ptr(intrusive_ptr&& rhs) noexcept;
  ~intrusive_ptr() noexcept;
  intrusive_ptr& operator=(const intrusive_ptr& rhs) &;
  intrusive_ptr& operator=(intrusive_ptr&& rhs) & noexcept;
  TTarget* get() const noexcept;
  TTarget* operator->() const noexcept;
  explicit operator bool() const noexcept;
  size_t use_count() const noexcept;

 private:
  TTarget* target_;
};
} // namespace c10

namespace torch {
namespace autograd {
struct Node;
} // namespace autograd
} // namespace torch

namespace at {

class Tensor;
class TensorBase;

struct TORCH_API Generator {
  Generator() {}
  bool defined() const;
  void set_current_seed(uint64_t seed);
  uint64_t current_seed() const;
  Device device() const;
};

// <ATen/core/Dimname.h>: not implicitly constructible from anything.
struct TORCH_API Dimname {
  static Dimname wildcard();
  bool isBasic() const;
  bool isWildcard() const;

 private:
  Dimname();
};
using DimnameList = c10::ArrayRef<Dimname>;

class TORCH_API TensorBase {
 public:
  struct unsafe_borrow_t {
    explicit unsafe_borrow_t() = default;
  };

  TensorBase() = default;
  explicit TensorBase(
      c10::intrusive_ptr<TensorImpl, UndefinedTensorImpl> tensor_impl);
  TensorBase(const TensorBase&) = default;
  TensorBase(TensorBase&&) = default;

  int64_t dim() const;
  int64_t storage_offset() const;

  TensorBase contiguous(
      MemoryFormat memory_format = MemoryFormat::Contiguous) const;

  const TensorBase& fill_(const c10::Scalar& scalar) const;
  const TensorBase& zero_() const;

  TensorBase to(
      at::TensorOptions options = {},
      bool non_blocking = false,
      bool copy = false,
      c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;

  bool is_complex() const;
  bool is_floating_point() const;
  bool is_signed() const;

  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;

  TensorImpl* unsafeGetTensorImpl() const;

  bool defined() const;
  void reset();

  TensorBase& operator=(const TensorBase& x) &;
  TensorBase& operator=(TensorBase&& x) &;
  TensorBase& operator=(const TensorBase&) && = delete;
  TensorBase& operator=(TensorBase&&) && = delete;

  bool is_same(const TensorBase& other) const noexcept;
  size_t use_count() const noexcept;
  std::string toString() const;

  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  int64_t ndimension() const;
  bool is_contiguous(
      at::MemoryFormat memory_format = at::MemoryFormat::Contiguous) const;
  size_t nbytes() const;
  int64_t numel() const;
  size_t itemsize() const;
  int64_t element_size() const;
  ScalarType scalar_type() const;
  bool has_storage() const;
  Layout layout() const;
  caffe2::TypeMeta dtype() const;
  Device device() const;
  int64_t get_device() const;
  bool is_cpu() const;
  bool is_cuda() const;
  bool is_xpu() const;
  bool is_mps() const;
  bool is_meta() const;
  bool is_sparse() const;
  bool is_mkldnn() const;
  bool is_quantized() const;
  bool is_inference() const;
  bool has_names() const;
  TensorOptions options() const;

  void* data_ptr() const;
  template <typename T>
  T* data_ptr() const;

  void print() const;

  const TensorBase& set_requires_grad(bool requires_grad) const;
  bool requires_grad() const;

  at::TensorBase tensor_data() const;
  at::TensorBase variable_data() const;

  const std::shared_ptr<torch::autograd::Node>& grad_fn() const;

  template <typename T>
  using hook_return_void_t = std::enable_if_t<
      std::is_void<std::invoke_result_t<T&, TensorBase>>::value,
      unsigned>;
  template <typename T>
  using hook_return_var_t = std::enable_if_t<
      std::is_same<std::invoke_result_t<T&, TensorBase>, TensorBase>::value,
      unsigned>;
  template <typename T>
  hook_return_void_t<T> register_hook(T&& hook) const;
  template <typename T>
  hook_return_var_t<T> register_hook(T&& hook) const;

  void remove_hook(unsigned pos) const;

  bool is_leaf() const;
  int64_t output_nr() const;
  void set_data(const TensorBase& new_data) const;
  TensorBase data() const;
  int64_t _version() const;
  void retain_grad() const;
  bool retains_grad() const;
  const TensorBase& requires_grad_(bool _requires_grad = true) const;

  bool is_view() const;
  const TensorBase& _base() const;

  const std::string& name() const;

 protected:
  c10::intrusive_ptr<TensorImpl, UndefinedTensorImpl> impl_;
};

} // namespace at
