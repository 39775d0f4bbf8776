// Models declared here and built and run in model.cpp; train.cpp computes
// their losses. The shapes of their outputs are known only in model.cpp.
#pragma once
#include <torch/torch.h>

// Ends in Linear(16, 1): [N, 1] for an input [N, 8].
struct RegressorImpl : torch::nn::Module {
  RegressorImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc1{nullptr}, out{nullptr};
};
TORCH_MODULE(Regressor);

// Flattens its input: [N, 1] whatever it is given.
struct FlatImpl : torch::nn::Module {
  FlatImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(Flat);

// Ends in Linear(16, 4): [N, 4].
struct WideImpl : torch::nn::Module {
  WideImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Wide);

torch::Tensor predict(Regressor &model, const torch::Tensor &x);
torch::Tensor smooth(const torch::Tensor &t);
torch::Tensor column_targets();
torch::Tensor either(const torch::Tensor &t, bool flat);
torch::Tensor opaque(const torch::Tensor &t);
