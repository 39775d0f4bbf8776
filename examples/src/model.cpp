#include "model.hpp"

torch::Tensor GaussianNoiseImpl::forward(torch::Tensor x) {
  if (!is_training() || stddev_ == 0.0) {
    return x;
  }
  // Correct: the noise follows the input's device and dtype.
  auto noise = torch::randn(x.sizes(), x.options()) * stddev_;
  return x + noise;
}

MLPImpl::MLPImpl(int64_t in_features, int64_t hidden, int64_t out_features) {
  fc1 = register_module("fc1", torch::nn::Linear(in_features, hidden));
  fc2 = register_module("fc2", torch::nn::Linear(hidden, out_features));
  dropout = register_module("dropout", torch::nn::Dropout(0.1));
  noise = register_module("noise", GaussianNoise(0.05));
}

torch::Tensor MLPImpl::forward(torch::Tensor x) {
  x = noise->forward(x);
  x = torch::relu(fc1->forward(x));
  x = dropout->forward(x);
  return fc2->forward(x);
}

NoisyEncoderImpl::NoisyEncoderImpl(int64_t in_features, int64_t out_features,
                                   double noise_std)
    : noise_std_(noise_std) {
  proj = register_module("proj", torch::nn::Linear(in_features, out_features));
}

torch::Tensor NoisyEncoderImpl::forward(torch::Tensor x) {
  auto h = torch::relu(proj->forward(x));
  if (is_training()) {
    // BUG(torch-module-hardcoded-device): the noise tensor is always allocated on the GPU, so the module breaks on CPU-only machines and on any device other than cuda:0.
    auto noise = torch::randn(h.sizes(), torch::TensorOptions().device(torch::kCUDA));
    h = h + noise * noise_std_;
  }
  return h;
}

ResidualBlockImpl::ResidualBlockImpl(int64_t in_features, int64_t out_features) {
  body = register_module("body", torch::nn::Linear(in_features, out_features));
  norm = register_module(
      "norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({out_features})));
  shortcut = torch::nn::Linear(
      torch::nn::LinearOptions(in_features, out_features).bias(false));
  gate = register_parameter("gate", torch::zeros({1}));
}

torch::Tensor ResidualBlockImpl::forward(torch::Tensor x) {
  auto residual = shortcut->forward(x);
  auto h = norm->forward(torch::relu(body->forward(x)));
  // BUG(torch-dropout-training-flag): the functional dropout is told to train on every call, so it keeps zeroing activations after eval() and the evaluation metrics stay noisy and low; pass is_training().
  h = torch::dropout(h, /*p=*/0.1, /*train=*/true);
  auto g = torch::sigmoid(gate);
  // BUG(torch-inplace-on-saved-tensor): the gate is stretched to (0, 2) in place, but sigmoid saved its output for its backward pass, so the first backward() throws "one of the variables needed for gradient computation has been modified by an inplace operation"; write g = g * 2.0 instead.
  g.mul_(2.0);
  return residual + g * h;
}

torch::nn::Sequential make_classifier(int64_t in_features, int64_t hidden,
                                      int64_t num_classes) {
  return torch::nn::Sequential(
      torch::nn::Linear(in_features, hidden),
      torch::nn::ReLU(),
      torch::nn::Dropout(0.2),
      torch::nn::Linear(hidden, hidden),
      torch::nn::ReLU(),
      torch::nn::Linear(hidden, num_classes));
}

torch::nn::Sequential make_residual_classifier(int64_t in_features,
                                               int64_t hidden,
                                               int64_t num_classes) {
  return torch::nn::Sequential(
      NoisyEncoder(in_features, hidden, /*noise_std=*/0.1),
      ResidualBlock(hidden, hidden),
      torch::nn::Linear(hidden, num_classes));
}

torch::nn::Sequential make_statistics_probe() {
  constexpr int64_t kStatistics = 16;
  constexpr int64_t kProbeHidden = 32;
  return torch::nn::Sequential(
      torch::nn::Linear(kStatistics, kProbeHidden), torch::nn::ReLU(),
      // BUG(torch-layer-shape-mismatch): the first layer gives kProbeHidden (32) features but this one takes kStatistics (16), so the first forward pass throws; make it torch::nn::Linear(kProbeHidden, 1).
      torch::nn::Linear(kStatistics, 1));
}
