// torch-layer-shape-mismatch, buggy: the hidden layer gives 32 features but the
// output layer still takes 16 (the hidden size before it was changed), so the
// first forward pass throws and nothing is trained.
#include "common.h"

constexpr int64_t kInputs = 8;
constexpr int64_t kHidden = 32;

struct NetImpl : torch::nn::Module {
  NetImpl() {
    hidden = register_module("hidden", torch::nn::Linear(kInputs, kHidden));
    out = register_module("out", torch::nn::Linear(16, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::tanh(hidden->forward(x));
    return out->forward(x);
  }
  torch::nn::Linear hidden{nullptr}, out{nullptr};
};
TORCH_MODULE(Net);

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, kInputs, 1);
  auto test = harm::regression(512, kInputs, 101);
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
