// torch-missing-zero-grad, buggy: the gradients are never cleared.
#include "common.h"

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, 8, 1);
  auto test = harm::regression(512, 8, 101);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(8, 32), torch::nn::Tanh(),
                              torch::nn::Linear(32, 1));
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  for (int step = 0; step < run.steps(); ++step) {
    auto loss = torch::mse_loss(model->forward(train.x), train.y);
    loss.backward();
    optimizer.step();
    run.loss(step, loss);
  }
  torch::NoGradGuard no_grad;
  return run.finish("test MSE",
                    torch::mse_loss(model->forward(test.x), test.y).item<double>());
}
