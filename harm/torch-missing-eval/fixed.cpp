// torch-missing-eval, fixed: the test pass runs in eval mode.
#include "common.h"

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, 8, 1);
  auto test = harm::regression(512, 8, 101);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(8, 64), torch::nn::BatchNorm1d(64),
                              torch::nn::ReLU(), torch::nn::Dropout(0.3),
                              torch::nn::Linear(64, 1));
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  for (int step = 0; step < run.steps(); ++step) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(train.x), train.y);
    loss.backward();
    optimizer.step();
    run.loss(step, loss);
  }
  model->eval();
  torch::NoGradGuard no_grad;
  double total = 0;
  for (int i = 0; i < 512; i += 64) {
    auto out = model->forward(test.x.slice(0, i, i + 64));
    total += torch::mse_loss(out, test.y.slice(0, i, i + 64)).item<double>() / 8;
  }
  return run.finish("test MSE", total);
}
