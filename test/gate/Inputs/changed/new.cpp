// A correct training loop; the change under review deletes its zero_grad().
#include <torch/torch.h>

void train_new(torch::nn::Linear &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  for (int epoch = 0; epoch < 10; ++epoch) {
    optimizer.zero_grad();
    auto loss = torch::nll_loss(torch::log_softmax(model->forward(x), 1), y);
    loss.backward();
    optimizer.step();
  }
}
