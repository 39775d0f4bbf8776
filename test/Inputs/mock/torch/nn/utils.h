// Mock of LibTorch 1.13 <torch/nn/utils.h> (<torch/nn/utils/clip_grad.h>,
// <torch/nn/utils/convert_parameters.h>).
#pragma once

#include <torch/types.h>

#include <initializer_list>
#include <vector>

namespace torch {
namespace nn {
namespace utils {

inline double clip_grad_norm_(
    std::vector<Tensor> parameters,
    double max_norm,
    double norm_type = 2.0,
    bool error_if_nonfinite = false) {
  return 0.0;
}

inline double clip_grad_norm_(
    std::initializer_list<Tensor> parameters,
    double max_norm,
    double norm_type = 2.0,
    bool error_if_nonfinite = false) {
  return clip_grad_norm_(
      std::vector<Tensor>(parameters), max_norm, norm_type, error_if_nonfinite);
}

inline double clip_grad_norm_(
    Tensor parameter,
    double max_norm,
    double norm_type = 2.0,
    bool error_if_nonfinite = false) {
  std::vector<Tensor> params = {parameter};
  return clip_grad_norm_(params, max_norm, norm_type, error_if_nonfinite);
}

inline void clip_grad_value_(
    std::vector<Tensor> parameters,
    double clip_value) {}

inline void clip_grad_value_(
    std::initializer_list<Tensor> parameters,
    double clip_value) {
  clip_grad_value_(std::vector<Tensor>(parameters), clip_value);
}

inline void clip_grad_value_(Tensor parameter, double clip_value) {
  std::vector<Tensor> params = {parameter};
  clip_grad_value_(params, clip_value);
}

// Convert parameters to one vector
inline torch::Tensor parameters_to_vector(
    const std::vector<torch::Tensor>& parameters) {
  return torch::Tensor();
}

// Convert one vector to the parameters
inline void vector_to_parameters(
    const torch::Tensor& vec,
    std::vector<torch::Tensor> parameters) {}

} // namespace utils
} // namespace nn
} // namespace torch
