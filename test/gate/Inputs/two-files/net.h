// A model declared here and defined in model.cpp, trained in train.cpp.
#pragma once
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void clear_grads(torch::optim::Optimizer &opt);
