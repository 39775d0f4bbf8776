// LibTorch's headers included with -I rather than -isystem (CMake's
// include_directories(${TORCH_INCLUDE_DIRS}), hand-written Makefiles) are still
// LibTorch's, not user code: the checks know Linear, BCELoss or the optimizers by
// their declarations there exactly as with -isystem, and the one traversal anchor
// does not index LibTorch's inline functions as user code. Before, every
// analysis that tells LibTorch from user code by isInSystemHeader treated them
// as user code: torch-bce-on-logits said nothing on any line below.
// RUN: %clang_tidy_torch -checks='-*,torch-*' %s -- -std=c++17 -fno-caret-diagnostics -I %torch_include > %t.out 2>&1
// RUN: FileCheck %s --input-file=%t.out --implicit-check-not='warning:'

#include <torch/torch.h>

void bce(torch::Tensor x, torch::Tensor y) {
  torch::nn::Sequential model(torch::nn::Linear(8, 16), torch::nn::ReLU(),
                              torch::nn::Linear(16, 1));
  auto a = torch::binary_cross_entropy(model->forward(x), y);
  // CHECK: :[[@LINE-1]]:40: warning: 'torch::binary_cross_entropy' expects probabilities in [0, 1], but it is given raw logits from a 'torch::nn::Sequential' {{.*}} [torch-bce-on-logits]
  torch::nn::Linear lin(16, 1);
  torch::nn::BCELoss criterion;
  auto b = criterion(lin(x), y);
  // CHECK: :[[@LINE-1]]:22: warning: 'torch::nn::BCELoss' expects probabilities in [0, 1], but it is given raw logits from a 'torch::nn::Linear' {{.*}} [torch-bce-on-logits]
  auto c = torch::nll_loss(lin->forward(x), y);
  // CHECK: :[[@LINE-1]]:28: warning: {{.*}} raw logits {{.*}} [torch-loss-activation-mismatch]
}

struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    head = torch::nn::Linear(4, 1);
  }
  torch::Tensor forward(torch::Tensor x) {
    return head->forward(fc->forward(x).to(torch::kCUDA));
  }
  torch::nn::Linear fc{nullptr}, head{nullptr};
};
// CHECK: :[[@LINE-4]]:44: warning: module 'NetImpl' places a tensor on the hard-coded device 'torch::kCUDA'{{.*}} [torch-module-hardcoded-device]
// CHECK: :[[@LINE-3]]:34: warning: submodule 'head' is never registered {{.*}} [torch-unregistered-module-member]
TORCH_MODULE(Net);

void train(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
    for (auto &p : model->parameters())
      p.mul_(0.99);
  }
}
// CHECK: :[[@LINE-8]]:3: warning: gradients are never cleared in this training loop{{.*}} [torch-missing-zero-grad]
// CHECK: :[[@LINE-4]]:9: warning: in-place 'mul_' on 'p', a module parameter, while autograd is recording{{.*}} [torch-inplace-on-requires-grad]
