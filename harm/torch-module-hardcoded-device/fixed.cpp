// torch-module-hardcoded-device, fixed: the module makes its noise on the device
// of its input.
#include "common.h"

struct NoisyNetImpl : torch::nn::Module {
  NoisyNetImpl() {
    hidden = register_module("hidden", torch::nn::Linear(8, 32));
    out = register_module("out", torch::nn::Linear(32, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    auto noise = torch::randn(x.sizes(), x.options());
    return out->forward(torch::tanh(hidden->forward(x + 0.01 * noise)));
  }
  torch::nn::Linear hidden{nullptr}, out{nullptr};
};
TORCH_MODULE(NoisyNet);

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, 8, 1);
  auto test = harm::regression(512, 8, 101);
  torch::manual_seed(0);
  NoisyNet model;
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  for (int step = 0; step < run.steps(); ++step) {
    run.at(step);
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
