#include "net.h"

torch::Tensor head(torch::nn::Linear &fc, torch::Tensor x) {
  return fc->forward(x);
}

torch::Tensor prob_head(torch::nn::Linear &fc, torch::Tensor x) {
  return torch::sigmoid(fc->forward(x));
}

void apply_step(torch::optim::Optimizer &opt) { opt.step(); }

void clear(torch::optim::Optimizer &opt) { opt.zero_grad(); }
