// Mock of LibTorch 1.13 <c10/core/TensorOptions.h>.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Optional.h>

#include <iosfwd>
#include <type_traits>
#include <utility>

namespace c10 {

struct C10_API TensorOptions {
  TensorOptions()
      : requires_grad_(false),
        pinned_memory_(false),
        has_device_(false),
        has_dtype_(false),
        has_layout_(false),
        has_requires_grad_(false),
        has_pinned_memory_(false),
        has_memory_format_(false) {}

  /* implicit */ TensorOptions(Layout layout) : TensorOptions() {}

  template <
      typename T,
      typename = std::enable_if_t<std::is_same<std::decay_t<T>, Device>::value>>
  /* implicit */ TensorOptions(T&& device) : TensorOptions() {}

  template <
      typename... Args,
      typename =
          std::enable_if_t<std::is_constructible<Device, Args&&...>::value>>
  /* implicit */ TensorOptions(Args&&... args)
      : TensorOptions(Device(std::forward<Args>(args)...)) {}

  /* implicit */ TensorOptions(caffe2::TypeMeta dtype) : TensorOptions() {}
  /* implicit */ TensorOptions(ScalarType dtype) : TensorOptions() {}
  /* implicit */ TensorOptions(MemoryFormat memory_format) : TensorOptions() {}

  C10_NODISCARD TensorOptions
  device(c10::optional<Device> device) const noexcept {
    return *this;
  }
  template <typename... Args>
  C10_NODISCARD TensorOptions device(Args&&... args) const noexcept {
    return device(
        c10::optional<Device>(c10::in_place, std::forward<Args>(args)...));
  }
  C10_NODISCARD TensorOptions
  device_index(c10::DeviceIndex device_index) const noexcept {
    return *this;
  }
  C10_NODISCARD TensorOptions
  dtype(c10::optional<caffe2::TypeMeta> dtype) const noexcept {
    return *this;
  }
  C10_NODISCARD TensorOptions
  dtype(c10::optional<ScalarType> dtype) const noexcept {
    return *this;
  }
  template <typename T>
  TensorOptions& dtype() {
    return *this;
  }
  C10_NODISCARD TensorOptions
  layout(c10::optional<Layout> layout) const noexcept {
    return *this;
  }
  C10_NODISCARD TensorOptions
  requires_grad(c10::optional<bool> requires_grad) const noexcept {
    return *this;
  }
  C10_NODISCARD TensorOptions
  pinned_memory(c10::optional<bool> pinned_memory) const noexcept {
    return *this;
  }
  C10_NODISCARD TensorOptions
  memory_format(c10::optional<MemoryFormat> memory_format) const noexcept {
    return *this;
  }

  Device device() const noexcept { return Device(kCPU); }
  bool has_device() const noexcept { return has_device_; }
  c10::optional<Device> device_opt() const noexcept { return {}; }
  int32_t device_index() const noexcept { return -1; }
  caffe2::TypeMeta dtype() const noexcept;
  bool has_dtype() const noexcept { return has_dtype_; }
  c10::optional<caffe2::TypeMeta> dtype_opt() const noexcept { return {}; }
  Layout layout() const noexcept { return kStrided; }
  bool has_layout() const noexcept { return has_layout_; }
  c10::optional<Layout> layout_opt() const noexcept { return {}; }
  bool requires_grad() const noexcept { return requires_grad_; }
  bool has_requires_grad() const noexcept { return has_requires_grad_; }
  c10::optional<bool> requires_grad_opt() const noexcept { return {}; }
  bool pinned_memory() const noexcept { return pinned_memory_; }
  bool has_pinned_memory() const noexcept { return has_pinned_memory_; }
  bool is_sparse() const { return false; }
  c10::optional<bool> pinned_memory_opt() const noexcept { return {}; }
  bool has_memory_format() const noexcept { return has_memory_format_; }
  c10::optional<MemoryFormat> memory_format_opt() const noexcept {
    return {};
  }
  TensorOptions merge_in(TensorOptions options) const noexcept {
    return *this;
  }

 private:
  bool requires_grad_ : 1;
  bool pinned_memory_ : 1;
  bool has_device_ : 1;
  bool has_dtype_ : 1;
  bool has_layout_ : 1;
  bool has_requires_grad_ : 1;
  bool has_pinned_memory_ : 1;
  bool has_memory_format_ : 1;
};

inline TensorOptions dtype(caffe2::TypeMeta dtype) {
  return TensorOptions().dtype(dtype);
}
inline TensorOptions dtype(ScalarType dtype) {
  return TensorOptions().dtype(dtype);
}
inline TensorOptions layout(Layout layout) {
  return TensorOptions().layout(layout);
}
inline TensorOptions device(Device device) {
  return TensorOptions().device(std::move(device));
}
inline TensorOptions device_index(int16_t device_index) {
  return TensorOptions().device_index(
      static_cast<c10::DeviceIndex>(device_index));
}
inline TensorOptions requires_grad(bool requires_grad = true) {
  return TensorOptions().requires_grad(requires_grad);
}
inline TensorOptions memory_format(MemoryFormat memory_format) {
  return TensorOptions().memory_format(memory_format);
}
template <typename T>
inline TensorOptions dtype() {
  return dtype(caffe2::TypeMeta::Make<T>());
}

C10_API std::ostream& operator<<(
    std::ostream& stream,
    const TensorOptions& options);

} // namespace c10
