// Mock of LibTorch 1.13 <ATen/core/LegacyTypeDispatch.h> (the RAII guards that
// exclude autograd dispatch keys). The real guards hold a
// c10::impl::ExcludeDispatchKeyGuard built from a DispatchKeySet; here the
// member is built without one (DispatchKeySet is not modelled).
#pragma once

#include <c10/macros/Macros.h>

namespace c10 {
namespace impl {
class C10_API ExcludeDispatchKeyGuard {
 public:
  ExcludeDispatchKeyGuard();
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard operator=(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard(ExcludeDispatchKeyGuard&&) = delete;
  ExcludeDispatchKeyGuard operator=(ExcludeDispatchKeyGuard&&) = delete;
  ~ExcludeDispatchKeyGuard();
};
} // namespace impl
} // namespace c10

namespace at {

struct TORCH_API AutoDispatchBelowAutograd {
  AutoDispatchBelowAutograd() {}

  // disable all autograd dispatch keys
  c10::impl::ExcludeDispatchKeyGuard autograd_guard_;
};

struct TORCH_API AutoDispatchBelowADInplaceOrView {
  AutoDispatchBelowADInplaceOrView() {}
  // disable Autograd & ADInplaceOrView dispatch keys
  c10::impl::ExcludeDispatchKeyGuard dispatch_key_guard_;
};

} // namespace at
