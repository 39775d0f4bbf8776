// torch-aliased-module-copy, buggy: an exponential moving average of the
// weights is meant to average out the noise of the small-batch SGD steps (the
// labels are noisy), and it is the model that gets evaluated. But the average
// is kept in a copy of the model's handle, which is the model itself: the
// average update multiplies every weight by 0.995 and adds back 0.005 of the
// same weight, and the "averaged" model is the last noisy iterate.
#include "common.h"

struct NetImpl : torch::nn::Cloneable<NetImpl> {
  NetImpl() { reset(); }
  void reset() override { fc = register_module("fc", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void average_into(Net &average, const Net &model, double decay) {
  torch::NoGradGuard no_grad;
  auto a = average->parameters();
  auto m = model->parameters();
  for (size_t i = 0; i < a.size(); ++i)
    a[i].mul_(decay).add_(m[i], 1 - decay);
}

HARM_PROGRAM(run, 2000) {
  // Linear data with label noise of variance 1; the test targets are exact.
  auto w = harm::task(8);
  torch::manual_seed(1);
  auto x = torch::randn({4096, 8});
  auto y = x.matmul(w) + torch::randn({4096, 1});
  torch::manual_seed(101);
  auto test_x = torch::randn({1024, 8});
  auto test_y = test_x.matmul(w);
  torch::manual_seed(0);
  Net model;
  Net average = model;
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.05));
  for (int step = 0; step < run.steps(); ++step) {
    auto idx = torch::randint(4096, {4}, torch::kLong);
    auto loss = torch::mse_loss(model->forward(x.index_select(0, idx)),
                                y.index_select(0, idx));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    average_into(average, model, 0.995);
    torch::NoGradGuard no_grad;
    run.loss(step, torch::mse_loss(average->forward(x), y));
  }
  torch::NoGradGuard no_grad;
  return run.finish(
      "test MSE",
      torch::mse_loss(average->forward(test_x), test_y).item<double>());
}
