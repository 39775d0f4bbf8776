#include "net.h"

// N1: train.cpp calls it only under a NoGradGuard.
void shrink(Net &model) {
  for (auto &p : model->parameters())
    p.mul_(0.5);
}

// P1: train.cpp calls it with autograd recording.
void shrink_recorded(Net &model) {
  for (auto &p : model->parameters())
    p.mul_(0.5);
}

// P2: called here only with autograd off, but train.cpp calls it recording.
void decay(Net &model) {
  for (auto &p : model->parameters())
    p.mul_(0.9);
}
void decay_quietly(Net &model) {
  torch::NoGradGuard no_grad;
  decay(model);
}

// N2: train.cpp evaluates under a NoGradGuard: the summed losses keep no graph.
double evaluate(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::Tensor total = torch::zeros({1});
  for (int i = 0; i < 10; ++i) {
    auto loss = torch::mse_loss(model->forward(x), y);
    total += loss;
  }
  return total.item<double>();
}

// P3: no file calls it: autograd's default, as without a summary.
void unused(Net &model) {
  for (auto &p : model->parameters())
    p.mul_(0.5);
}
