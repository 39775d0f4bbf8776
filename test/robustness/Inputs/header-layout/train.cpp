#include "net.h"

// Each check that follows calls, into the model and the helpers of net.h.

torch::Tensor bce(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss criterion;
  return criterion(model->forward(x), y);
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-bce-on-logits]
}

torch::Tensor mismatch(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::CrossEntropyLoss criterion;
  return criterion(class_probabilities(model, x), y);
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-loss-activation-mismatch]
}

void zero_grad_missing(Net &model, torch::optim::SGD &opt, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-missing-zero-grad]
    update(opt, model->forward(x).sum());
  }
}

void zero_grad_in_helper(Net &model, torch::optim::SGD &opt, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    clear(opt);
    update(opt, model->forward(x).sum());
  }
}

void accumulation(Net &model, torch::optim::SGD &opt, torch::Tensor x, int k) {
  for (int i = 0; i < 100; ++i) {
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-grad-accumulation]
    torch::Tensor loss = model->forward(x).sum();
    loss.backward();
    // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-grad-accumulation]
    if (i % k == k - 1)
      apply_step(opt);
  }
}

void scheduler(Net &model, Loader &loader, torch::optim::SGD &opt,
               torch::optim::StepLR &sched) {
  for (auto &batch : *loader) {
    opt.zero_grad();
    torch::nll_loss(torch::log_softmax(model->forward(batch.data), 1), batch.target).backward();
    opt.step();
    end_of_batch(sched);
    // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-scheduler-misuse]
  }
}

double evaluation(torch::Tensor x) {
  Net model;
  torch::NoGradGuard no_grad;
  double total = 0;
  for (int i = 0; i < 10; ++i)
    total += predict(model, x).sum().item<double>();
    // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-missing-eval]
  return total;
}

void inplace(Net &model) {
  torch::Tensor w = weight_of(model);
  w.clamp_(-1.0, 1.0);
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-inplace-on-requires-grad]
}

// The warnings of net.h come with notes here; clangd shows such a warning at
// its first note in the file it checks (the CLANGD lines).
EncoderImpl::EncoderImpl() { enc = torch::nn::Linear(3, 3); }
// CHECK-DAG: net.h:32:21: warning: submodule 'enc' is never registered {{.*}} [torch-unregistered-module-member]
// CLANGD: train.cpp:[[@LINE-2]]: the warning above [torch-unregistered-module-member]

torch::Tensor DecoderImpl::forward(torch::Tensor x) { return dec->forward(x); }
// CHECK-DAG: net.h:39:21: warning: submodule 'dec' is never registered {{.*}} [torch-unregistered-module-member]
// CLANGD: train.cpp:[[@LINE-2]]: the warning above [torch-unregistered-module-member]

struct NoisyImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + noise(x); }
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-module-hardcoded-device]
};

// A CPU literal is reported when the translation unit moves a module, here
// through to_gpu() of net.h.
struct OnesImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + torch::ones({2}, torch::kCPU); }
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} 'torch::kCPU'{{.*}} [torch-module-hardcoded-device]
};
void setup(Net &model) { to_gpu(model); }

struct DroppingImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return drop_on(x); }
  // CHECK-DAG: net.h:68:{{[0-9]+}}: warning: {{.*}} [torch-dropout-training-flag]
  // CLANGD: train.cpp:[[@LINE-2]]: the warning above [torch-dropout-training-flag]
};

void retained(Net &model, torch::optim::SGD &opt, torch::Tensor x, torch::Tensor y) {
  std::map<int, torch::Tensor> history;
  for (int epoch = 0; epoch < 100; ++epoch)
    history[epoch] = train_step(model, opt, x, y);
    // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-retained-loss-graph]
}

torch::Tensor broadcast(Net &model, torch::Tensor x, torch::Tensor y) {
  return torch::mse_loss(predict(model, x.view({-1, 16})), y.view({-1}));
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-loss-broadcast]
}

void cut(Net &model, torch::Tensor x) {
  torch::Tensor loss = frozen(model, x).sum();
  loss.backward();
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-graph-break]
}

void saved(Net &model, torch::Tensor x) {
  torch::Tensor e = predict(model, x).exp();
  e.add_(1);
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-inplace-on-saved-tensor]
  e.sum().backward();
}

// Autograd is off after freeze_autograd(): no warning.
void frozen_update(Net &model) {
  freeze_autograd();
  torch::Tensor w = weight_of(model);
  w.clamp_(-1.0, 1.0);
}

// The "target network" is the policy's handle, updated by soft_update() of
// net.h.
void target_network(Net policy) {
  Net target = policy;
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-aliased-module-copy]
  soft_update(target, policy, 0.01);
}

// Layer sizes that do not fit, with the constructor or forward() in net.h.
torch::Tensor MlpImpl::forward(torch::Tensor x) {
  return fc2->forward(torch::relu(fc1->forward(x)));
  // CHECK-DAG: train.cpp:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [torch-layer-shape-mismatch]
}

WideImpl::WideImpl() {
  fc1 = register_module("fc1", torch::nn::Linear(784, 128));
  fc2 = register_module("fc2", torch::nn::Linear(256, 10));
  // CLANGD: train.cpp:[[@LINE-1]]: the warning above [torch-layer-shape-mismatch]
}
// CHECK-DAG: net.h:108:{{[0-9]+}}: warning: {{.*}} [torch-layer-shape-mismatch]
