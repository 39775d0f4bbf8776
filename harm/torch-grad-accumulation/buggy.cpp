// torch-grad-accumulation, buggy: the optimizer steps once every 4 batches but
// the loss is not divided by 4, so each step applies 4 times the gradient (a
// learning rate 4 times too large), and the last 3 batches of every epoch
// (15 batches, not a multiple of 4) are never applied.
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
      loss.backward();
      total += loss.item<double>();
      if (++seen % accumulate == 0) {
        optimizer.step();
        optimizer.zero_grad();
      }
    }
    run.loss(epoch, torch::tensor(total / seen));
  }
  torch::NoGradGuard no_grad;
  return run.finish("test MSE",
                    torch::mse_loss(model->forward(test.x), test.y).item<double>());
}
