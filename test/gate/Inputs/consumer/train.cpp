// A training loop that never clears its gradients (torch-missing-zero-grad).
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

void train(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto loss = torch::nll_loss(torch::log_softmax(model->forward(x), 1), y);
    /* réseau */ loss.backward();
    optimizer.step();
  }
}
