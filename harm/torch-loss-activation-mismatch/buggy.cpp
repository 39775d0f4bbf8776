// torch-loss-activation-mismatch, buggy: cross-entropy gets softmax
// probabilities and applies a second softmax to them.
#include "common.h"

namespace F = torch::nn::functional;

HARM_PROGRAM(run, 300) {
  auto train = harm::multiclass(2048, 16, 32, 3);
  auto test = harm::multiclass(2048, 16, 32, 103);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(16, 64), torch::nn::ReLU(),
                              torch::nn::Linear(64, 32));
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  for (int step = 0; step < run.steps(); ++step) {
    optimizer.zero_grad();
    auto loss = F::cross_entropy(torch::softmax(model->forward(train.x), 1), train.y);
    loss.backward();
    optimizer.step();
    run.loss(step, loss);
  }
  torch::NoGradGuard no_grad;
  auto predicted = model->forward(test.x).argmax(1);
  return run.finish("test accuracy",
                    predicted.eq(test.y).to(torch::kFloat).mean().item<double>());
}
