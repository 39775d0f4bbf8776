// Helpers defined in losses.cpp, called from train.cpp: which of them return
// a tensor that carries the autograd graph of its loss or forward pass.
#pragma once
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

torch::Tensor compute_loss(Net &model, const torch::Tensor &x,
                           const torch::Tensor &y);
torch::Tensor predict(Net &model, const torch::Tensor &x);
torch::Tensor through_helper(Net &model, const torch::Tensor &x,
                             const torch::Tensor &y);
torch::Tensor detached_loss(Net &model, const torch::Tensor &x,
                            const torch::Tensor &y);
torch::Tensor guarded_loss(Net &model, const torch::Tensor &x,
                           const torch::Tensor &y);
torch::Tensor accuracy(Net &model, const torch::Tensor &x,
                       const torch::Tensor &y);
torch::Tensor scaled(const torch::Tensor &t);
