// torch-loss-broadcast, buggy: the model gives one value per sample as a
// column, [N, 1], while the targets are kept as a vector, [N]; mse_loss
// broadcasts the pair to [N, N], so every prediction is pulled towards every
// target and the model learns to predict the mean target.
#include "common.h"

constexpr int64_t kInputs = 8;

struct NetImpl : torch::nn::Module {
  NetImpl() {
    hidden = register_module("hidden", torch::nn::Linear(kInputs, 32));
    out = register_module("out", torch::nn::Linear(32, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = x.view({-1, kInputs});
    x = torch::tanh(hidden->forward(x));
    return out->forward(x);
  }
  torch::nn::Linear hidden{nullptr}, out{nullptr};
};
TORCH_MODULE(Net);

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, kInputs, 1);
  auto test = harm::regression(512, kInputs, 101);
  // One target value per sample.
  auto train_y = train.y.flatten();
  auto test_y = test.y.flatten();
  torch::manual_seed(0);
  Net model;
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  for (int step = 0; step < run.steps(); ++step) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(train.x), train_y);
    loss.backward();
    optimizer.step();
    run.loss(step, loss);
  }
  torch::NoGradGuard no_grad;
  auto predicted = model->forward(test.x).squeeze(1);
  return run.finish("test MSE",
                    torch::mse_loss(predicted, test_y).item<double>());
}
