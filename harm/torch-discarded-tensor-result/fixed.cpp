// torch-discarded-tensor-result, fixed: the standardised inputs are assigned
// back, so the model trains on features of unit scale.
#include "common.h"

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, 8, 1);
  auto test = harm::regression(512, 8, 101);
  // The raw features come in on very different scales.
  auto scale = torch::logspace(-2, 2, 8);
  train.x = train.x * scale;
  test.x = test.x * scale;
  auto mean = train.x.mean(0);
  auto stddev = train.x.std(0);
  train.x = train.x.sub(mean).div(stddev);
  test.x = test.x.sub(mean).div(stddev);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(8, 32), torch::nn::Tanh(),
                              torch::nn::Linear(32, 1));
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  for (int step = 0; step < run.steps(); ++step) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(train.x), train.y);
    loss.backward();
    optimizer.step();
    run.loss(step, loss);
  }
  torch::NoGradGuard no_grad;
  return run.finish("test MSE",
                    torch::mse_loss(model->forward(test.x), test.y).item<double>());
}
