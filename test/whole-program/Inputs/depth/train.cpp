#include "net.h"

// D1: BCELoss on a model whose forward() (model.cpp) returns what head()
// (layers.cpp) returns: a Linear's logits.
torch::Tensor d1_bce(Net &net, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss bce;
  return bce(net->forward(x), y);
}

// D2: the optimizer steps in Trainer::finish_step() (model.cpp), through
// apply_step() (layers.cpp), and nothing clears the gradients.
void d2_never_cleared(Trainer &t, torch::Tensor x, torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
    auto loss = torch::mse_loss(t.net->forward(x), y);
    loss.backward();
    t.finish_step();
  }
}

// E1: the same loss on a model whose head ends in a sigmoid.
torch::Tensor e1_bce(ProbNet &net, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss bce;
  return bce(net->forward(x), y);
}

// E2: the gradients are cleared by Trainer::begin_step(), through clear().
void e2_cleared(Trainer &t, torch::Tensor x, torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
    t.begin_step();
    auto loss = torch::mse_loss(t.net->forward(x), y);
    loss.backward();
    t.finish_step();
  }
}
