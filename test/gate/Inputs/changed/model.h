// A model in a header: the change under review drops the sigmoid at the end of
// forward(), which makes the BCELoss of uses_model.cpp (not changed) wrong.
#pragma once
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) {
    return torch::sigmoid(fc->forward(x));
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);
