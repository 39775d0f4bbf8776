// Helpers defined in layers.cpp that run a functional dropout or batch norm,
// some fixed in training mode and some not, and the modules of net.cpp that
// call them.
#pragma once
#include <torch/torch.h>

torch::Tensor noisy(const torch::Tensor &x);
torch::Tensor normed(const torch::Tensor &x, const torch::Tensor &mean,
                     const torch::Tensor &var);
torch::Tensor through(const torch::Tensor &x);
torch::Tensor in_lambda(const torch::Tensor &x);
torch::Tensor drop_if(const torch::Tensor &x, bool train);
torch::Tensor zero_rate(const torch::Tensor &x);
torch::Tensor eval_norm(const torch::Tensor &x, const torch::Tensor &mean,
                        const torch::Tensor &var);

struct BlockImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
TORCH_MODULE(Block);
