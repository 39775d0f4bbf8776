// torch-inplace-on-saved-tensor, buggy: the gate's sigmoid output is
// stretched to (0, 2) in place, but sigmoid saved it for its backward pass.
#include "common.h"

struct GatedImpl : torch::nn::Module {
  GatedImpl()
      : hidden(register_module("hidden", torch::nn::Linear(8, 32))),
        gate(register_module("gate", torch::nn::Linear(8, 32))),
        out(register_module("out", torch::nn::Linear(32, 1))) {}
  torch::Tensor forward(torch::Tensor x) {
    auto h = torch::tanh(hidden->forward(x));
    auto g = torch::sigmoid(gate->forward(x));
    g.mul_(2.0);
    return out->forward(g * h);
  }
  torch::nn::Linear hidden, gate, out;
};
TORCH_MODULE(Gated);

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, 8, 1);
  auto test = harm::regression(512, 8, 101);
  torch::manual_seed(0);
  Gated model;
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
