// Model definitions for the torch-tidy example project.
#pragma once

#include <torch/torch.h>

#include <cstdint>

// Adds zero-mean Gaussian noise to its input during training only.
class GaussianNoiseImpl : public torch::nn::Module {
 public:
  explicit GaussianNoiseImpl(double stddev) : stddev_(stddev) {}

  torch::Tensor forward(torch::Tensor x);

 private:
  double stddev_;
};
TORCH_MODULE(GaussianNoise);

// A plain two-layer perceptron used by the Trainer and the manual SGD demo.
class MLPImpl : public torch::nn::Module {
 public:
  MLPImpl(int64_t in_features, int64_t hidden, int64_t out_features);

  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Linear fc1{nullptr};
  torch::nn::Linear fc2{nullptr};
  torch::nn::Dropout dropout{nullptr};
  GaussianNoise noise{nullptr};
};
TORCH_MODULE(MLP);

// Feature encoder that regularises its hidden activations with input noise.
class NoisyEncoderImpl : public torch::nn::Module {
 public:
  NoisyEncoderImpl(int64_t in_features, int64_t out_features,
                   double noise_std);

  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Linear proj{nullptr};
  double noise_std_;
};
TORCH_MODULE(NoisyEncoder);

// Residual MLP block with a learnable gate and a projection shortcut.
class ResidualBlockImpl : public torch::nn::Module {
 public:
  ResidualBlockImpl(int64_t in_features, int64_t out_features);

  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Linear body{nullptr};
  torch::nn::LayerNorm norm{nullptr};
  // BUG(torch-unregistered-module-member): the shortcut projection is built in the constructor but never passed to register_module, so its weights are invisible to parameters(), the optimizer, to(device) and serialization.
  torch::nn::Linear shortcut{nullptr};
  torch::Tensor gate;
};
TORCH_MODULE(ResidualBlock);

// Small binary classifier; forward() returns raw logits (no sigmoid).
class BinaryClassifierImpl : public torch::nn::Module {
 public:
  explicit BinaryClassifierImpl(int64_t in_features, int64_t hidden = 32) {
    fc1 = register_module("fc1", torch::nn::Linear(in_features, hidden));
    out = register_module("out", torch::nn::Linear(hidden, 1));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    return out->forward(x);
  }

 private:
  torch::nn::Linear fc1{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(BinaryClassifier);

// Same architecture, but forward() returns probabilities in [0, 1].
class ProbabilityClassifierImpl : public torch::nn::Module {
 public:
  explicit ProbabilityClassifierImpl(int64_t in_features, int64_t hidden = 32) {
    fc1 = register_module("fc1", torch::nn::Linear(in_features, hidden));
    out = register_module("out", torch::nn::Linear(hidden, 1));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    return torch::sigmoid(out->forward(x));
  }

 private:
  torch::nn::Linear fc1{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(ProbabilityClassifier);

// Multi-class classifier built from a torch::nn::Sequential stack.
torch::nn::Sequential make_classifier(int64_t in_features, int64_t hidden,
                                      int64_t num_classes);

// Encoder + residual block + linear head.
torch::nn::Sequential make_residual_classifier(int64_t in_features,
                                               int64_t hidden,
                                               int64_t num_classes);

// A fixed-size probe that reads the 16 column statistics of a batch.
torch::nn::Sequential make_statistics_probe();
