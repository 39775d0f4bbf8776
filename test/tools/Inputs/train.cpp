// Input of driver-flags.test: one buggy training loop, one that is clean only
// when the ZeroGradFunctions option of Inputs/torch-tidy.yaml is read, and
// headers that only clang's resource directory provides.
#include <cstddef>
#include <immintrin.h>
#include <stdarg.h>

#include <torch/torch.h>

static_assert(sizeof(__m128) == 16, "clang's builtin headers were found");
inline std::size_t countArgs(int N, ...) {
  va_list Args;
  va_start(Args, N);
  va_end(Args);
  return static_cast<std::size_t>(N);
}

namespace mylib {
void clear_grads(torch::optim::Optimizer &opt); // defined elsewhere
} // namespace mylib

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

void buggy(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto loss = torch::nll_loss(torch::log_softmax(model->forward(x), 1), y);
    loss.backward();
    optimizer.step();
  }
}

void wrapped(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  for (int step = 0; step < 10; ++step) {
    mylib::clear_grads(optimizer);
    auto loss = torch::nll_loss(torch::log_softmax(model->forward(x), 1), y);
    loss.backward();
    optimizer.step();
  }
}
