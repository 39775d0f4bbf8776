// A header with a buggy training loop; the change under review edits the loop.
#pragma once
#include <torch/torch.h>

inline void train_in_header(torch::nn::Linear &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto loss = torch::nll_loss(torch::log_softmax(model->forward(x), 1), y);
    loss.backward();
    optimizer.step();
  }
}
