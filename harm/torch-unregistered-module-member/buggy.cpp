// torch-unregistered-module-member, buggy: the output layer is never
// registered, so the optimizer never sees its parameters.
#include "common.h"

struct NetImpl : torch::nn::Module {
  NetImpl() {
    hidden = register_module("hidden", torch::nn::Linear(8, 32));
    out = torch::nn::Linear(32, 1);
  }
  torch::Tensor forward(torch::Tensor x) {
    return out->forward(torch::tanh(hidden->forward(x)));
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
