// Helpers defined in switches.cpp that leave autograd switched, or only look
// like it, and train.cpp, which calls them before its updates.
#pragma once
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void freeze_autograd();
void thaw_autograd();
void freeze_maybe(bool f);
void guarded();
void freeze_through();
