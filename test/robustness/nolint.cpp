// NOLINT and NOLINTNEXTLINE work for every torch-* check as for clang-tidy's own,
// on the line the warning points at (docs/checks/<name>.md, "Suppressing" says
// which line that is for each check); a NOLINT naming another check suppresses
// nothing.
// RUN: %check_torch_tidy %s 'torch-*' %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s 'torch-*' %t.real -- %real_flags

#include <torch/torch.h>

// torch-unregistered-module-member: on the member's declaration.
struct UnregImpl : torch::nn::Module {
  UnregImpl() { fc = torch::nn::Linear(4, 4); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr}; // NOLINT(torch-unregistered-module-member)
};

// torch-module-hardcoded-device: on the device expression.
struct DevImpl : torch::nn::Module {
  DevImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(torch::Tensor x) {
    // NOLINTNEXTLINE(torch-module-hardcoded-device)
    auto mask = torch::ones({4}, torch::TensorOptions().device(torch::kCUDA));
    return fc->forward(x) * mask;
  }
  torch::nn::Linear fc;
};

struct LogitImpl : torch::nn::Module {
  LogitImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Logit);

void suppressed(Logit &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::nn::BCELoss bce;
  // torch-missing-zero-grad: on the loop.
  for (int i = 0; i < 10; ++i) { // NOLINT(torch-missing-zero-grad)
    // torch-bce-on-logits: on the loss call.
    auto loss = bce(model->forward(x), y); // NOLINT(torch-bce-on-logits)
    loss.backward();
    opt.step();
    opt.zero_grad();
  }
  for (auto &p : model->parameters())
    // torch-inplace-on-requires-grad: on the in-place call.
    p.mul_(0.5); // NOLINT(torch-inplace-on-requires-grad)
}

// A NOLINT for another check leaves each warning standing.
struct Unreg2Impl : torch::nn::Module {
  Unreg2Impl() { fc = torch::nn::Linear(4, 4); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr}; // NOLINT(torch-missing-zero-grad)
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'fc' is never registered {{.*}} [torch-unregistered-module-member]
  // CHECK-FIXES: {{^}}  Unreg2Impl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }{{$}}
};

void unsuppressed(Logit &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::nn::BCEWithLogitsLoss loss_fn;
  for (int i = 0; i < 10; ++i) { // NOLINT(torch-bce-on-logits)
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared in this training loop{{.*}} [torch-missing-zero-grad]
  // CHECK-FIXES: {{^}}    opt.zero_grad();{{$}}
    auto loss = loss_fn(model->forward(x), y);
    loss.backward();
    opt.step();
  }
}
