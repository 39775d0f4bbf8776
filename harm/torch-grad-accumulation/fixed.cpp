// torch-grad-accumulation, fixed: the loss is divided by 4, so each step
// applies the mean gradient of its 4 batches, and the last 3 batches of every
// epoch are applied by a step after the loop.
#include "common.h"

HARM_PROGRAM(run, 60) {
  auto train = harm::regression(480, 8, 1);
  auto test = harm::regression(512, 8, 101);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(8, 32), torch::nn::Tanh(),
                              torch::nn::Linear(32, 1));
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.2));
  const int64_t batch = 32;
  const int accumulate = 4;
  for (int epoch = 0; epoch < run.steps(); ++epoch) {
    double total = 0;
    int seen = 0;
    optimizer.zero_grad();
    for (int64_t start = 0; start < 480; start += batch) {
      auto x = train.x.slice(0, start, start + batch);
      auto y = train.y.slice(0, start, start + batch);
      auto loss = torch::mse_loss(model->forward(x), y);
      (loss / accumulate).backward();
      total += loss.item<double>();
      if (++seen % accumulate == 0) {
        optimizer.step();
        optimizer.zero_grad();
      }
    }
    if (seen % accumulate != 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
    run.loss(epoch, torch::tensor(total / seen));
  }
  torch::NoGradGuard no_grad;
  return run.finish("test MSE",
                    torch::mse_loss(model->forward(test.x), test.y).item<double>());
}
