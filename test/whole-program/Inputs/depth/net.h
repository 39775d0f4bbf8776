// Facts three files deep: train.cpp calls functions of model.cpp, which call
// functions of layers.cpp, which hold the evidence.
#pragma once
#include <torch/torch.h>

// layers.cpp
torch::Tensor head(torch::nn::Linear &fc, torch::Tensor x);     // logits
torch::Tensor prob_head(torch::nn::Linear &fc, torch::Tensor x); // a sigmoid
void apply_step(torch::optim::Optimizer &opt);                   // step()
void clear(torch::optim::Optimizer &opt);                        // zero_grad()

// model.cpp
struct NetImpl : torch::nn::Module {
  NetImpl();
  torch::Tensor forward(torch::Tensor x); // head(fc, x)
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

struct ProbNetImpl : torch::nn::Module {
  ProbNetImpl();
  torch::Tensor forward(torch::Tensor x); // prob_head(fc, x)
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ProbNet);

struct Trainer {
  explicit Trainer(Net net);
  void finish_step(); // apply_step(opt)
  void begin_step();  // clear(opt)
  Net net;
  torch::optim::SGD opt;
};
