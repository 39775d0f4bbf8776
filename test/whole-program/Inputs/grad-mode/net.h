// Helpers defined in helpers.cpp and called from train.cpp: whether autograd
// records in them depends on where train.cpp calls them.
#pragma once
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void shrink(Net &model);
void shrink_recorded(Net &model);
void decay(Net &model);
void decay_quietly(Net &model);
double evaluate(Net &model, torch::Tensor x, torch::Tensor y);
void unused(Net &model);
