// A module defined in a header that three sources include: its fix-it is made by
// every translation unit, and must land in the header once.
#pragma once
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc = torch::nn::Linear(4, 4);
  }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);
