// Broken code must not crash any check: clang-tidy reports the compile errors
// and nothing else goes wrong.
// RUN: not %clang_tidy_torch -checks='-*,torch-*' %s -- %mock_flags > %t.mock.out 2>&1
// RUN: FileCheck %s --input-file=%t.mock.out
// RUN: not %clang_tidy_torch -checks='-*,torch-*' %s -- %real_flags > %t.real.out 2>&1
// RUN: FileCheck %s --input-file=%t.real.out
// CHECK: error: use of undeclared identifier 'undeclared_optimizer'
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
  torch::nn::Linear missing_type_member = UnknownLayer(3);
};
TORCH_MODULE(Net);

void train(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    undeclared_optimizer.step();
    opt.step(
  }
  for (auto &b : *not_a_loader) {
    b.data.backward();
    opt.step();
  }
}

template <typename T> void dependent(T &opt, torch::Tensor loss) {
  while (true) {
    loss.backward();
    opt.step();
    opt.zero_grad(typename T::missing());
  }
}

// Loss calls with missing or broken arguments (torch-loss-activation-mismatch,
// torch-bce-on-logits).
torch::Tensor losses(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::NLLLoss nll;
  torch::nn::CrossEntropyLoss ce;
  return nll(model->forward(x)) + torch::nll_loss(undeclared_logits, y) +
         ce(torch::softmax(x, ), y) + torch::cross_entropy_loss(torch::softmax(model->forward(x), 1)) +
         torch::binary_cross_entropy_with_logits(torch::sigmoid(x, 1), y);
}

// Discarded tensors and guard temporaries around code that does not compile.
void discarded(torch::Tensor x, torch::Device device) {
  x.to(undeclared_device);
  x.to(device, undeclared_flag), x.cuda(;
  torch::NoGradGuard(undeclared_mode);
  torch::AutoGradMode(undeclared_bool + );
  UnknownGuard();
  UnknownGuard guard();
  undeclared_tensor.to(device);
}
