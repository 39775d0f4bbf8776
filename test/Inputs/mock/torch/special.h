// Mock of LibTorch 1.13 <torch/special.h>.
#pragma once

#include <ATen/ATen.h>
#include <torch/types.h>

namespace torch {
namespace special {

/// Computes the expit (logistic sigmoid) of `self`.
inline Tensor expit(const Tensor& self) {
  return torch::special_expit(self);
}

} // namespace special
} // namespace torch
