// torch-scheduler-misuse, fixed: the epoch-based StepLR is stepped once per
// epoch, after the batch loop.
#include "common.h"

HARM_PROGRAM(run, 60) {
  auto train = harm::regression(512, 8, 1);
  auto test = harm::regression(512, 8, 101);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(8, 32), torch::nn::Tanh(),
                              torch::nn::Linear(32, 1));
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.1));
  torch::optim::StepLR scheduler(optimizer, /*step_size=*/30, /*gamma=*/0.5);
  const int64_t batch = 32;
  for (int epoch = 0; epoch < run.steps(); ++epoch) {
    double total = 0;
    for (int64_t start = 0; start < 512; start += batch) {
      auto x = train.x.slice(0, start, start + batch);
      auto y = train.y.slice(0, start, start + batch);
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model->forward(x), y);
      loss.backward();
      optimizer.step();
      total += loss.item<double>();
    }
    scheduler.step();
    run.loss(epoch, torch::tensor(total / (512 / batch)));
  }
  torch::NoGradGuard no_grad;
  return run.finish("test MSE",
                    torch::mse_loss(model->forward(test.x), test.y).item<double>());
}
