// Mock of LibTorch 1.13 <torch/nn/cloneable.h>.
#pragma once

#include <torch/nn/module.h>
#include <torch/types.h>
#include <torch/utils.h>

#include <utility>

namespace torch {
namespace nn {
/// The `clone()` method in the base `Module` class does not have knowledge of
/// the concrete runtime type of its subclasses. Subclasses derive from
/// `Cloneable<Derived>` to obtain a working `clone()` (CRTP).
template <typename Derived>
class Cloneable : public virtual Module {
 public:
  using Module::Module;

  /// `reset()` must perform initialization of all members with reference
  /// semantics, most importantly parameters, buffers and submodules.
  virtual void reset() = 0;

  /// Performs a recursive "deep copy" of the `Module`.
  std::shared_ptr<Module> clone(
      const optional<Device>& device = nullopt) const override;

 private:
  void clone_(Module& other, const optional<Device>& device) final;
};

} // namespace nn
} // namespace torch
