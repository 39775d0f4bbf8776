// torch-dropout-training-flag, buggy: the model's forward() calls the
// functional dropout with `train` fixed to true, so it still drops activations
// after eval() and its test predictions are noisy.
#include "common.h"

struct NetImpl : torch::nn::Module {
  NetImpl() {
    hidden = register_module("hidden", torch::nn::Linear(8, 64));
    out = register_module("out", torch::nn::Linear(64, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(hidden->forward(x));
    x = torch::dropout(x, /*p=*/0.3, /*train=*/true);
    return out->forward(x);
  }
  torch::nn::Linear hidden{nullptr}, out{nullptr};
};
TORCH_MODULE(Net);

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, 8, 1);
  auto test = harm::regression(512, 8, 101);
  torch::manual_seed(0);
  Net model;
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  model->train();
  for (int step = 0; step < run.steps(); ++step) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(train.x), train.y);
    loss.backward();
    optimizer.step();
    run.loss(step, loss);
  }
  model->eval();
  torch::NoGradGuard no_grad;
  return run.finish("test MSE",
                    torch::mse_loss(model->forward(test.x), test.y).item<double>());
}
