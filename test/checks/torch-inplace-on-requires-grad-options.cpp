// Options: an in-house no-grad scope and in-house functions that return
// parameters (a `Class::method` entry covers overrides); look-alike guards and
// unlisted functions change nothing; --dump-config shows what was set.
// RUN: %check_torch_tidy %s torch-inplace-on-requires-grad %t.mock -config="{CheckOptions: [{key: torch-inplace-on-requires-grad.NoGradGuardClasses, value: 'mylib::NoGradScope'}, {key: torch-inplace-on-requires-grad.ParameterFunctions, value: 'mylib::trainable_parameters;mylib::Model::weights'}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-inplace-on-requires-grad %t.real -config="{CheckOptions: [{key: torch-inplace-on-requires-grad.NoGradGuardClasses, value: 'mylib::NoGradScope'}, {key: torch-inplace-on-requires-grad.ParameterFunctions, value: 'mylib::trainable_parameters;mylib::Model::weights'}]}" -- %real_flags
// Without the options the same file is clean: nothing here is a parameter by
// LibTorch's own types.
// RUN: %clang_tidy_torch -checks='-*,torch-inplace-on-requires-grad' %s -- %mock_flags 2>&1 | FileCheck %s --check-prefix=DEFAULT --allow-empty
// DEFAULT-NOT: warning:
// RUN: %clang_tidy_torch -checks='-*,torch-inplace-on-requires-grad' -config="{CheckOptions: [{key: torch-inplace-on-requires-grad.ParameterFunctions, value: 'mylib::trainable_parameters'}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-inplace-on-requires-grad.ParameterFunctions: 'mylib::trainable_parameters'
// DUMP-DAG: torch-inplace-on-requires-grad.NoGradGuardClasses: ''
// DUMP-DAG: torch-inplace-on-requires-grad.MaxCallDepth: '4'

#include <torch/torch.h>

#include <vector>

namespace mylib {
// An in-house scope that turns autograd off (its constructor lives elsewhere).
struct NoGradScope {
  NoGradScope();
  ~NoGradScope();
};
// A look-alike RAII class that does nothing to autograd.
struct Timer {
  Timer();
  ~Timer();
};
// Defined in the library's own translation units.
std::vector<torch::Tensor> trainable_parameters(torch::nn::Module &m);
std::vector<torch::Tensor> frozen_buffers(torch::nn::Module &m);
struct Model : torch::nn::Module {
  virtual std::vector<torch::Tensor> weights();
  std::vector<torch::Tensor> activations();
};
struct Classifier : Model {
  std::vector<torch::Tensor> weights() override;
};
} // namespace mylib

// Positive: a configured parameter function's results updated in place.
void positive_function(torch::nn::Module &m, double lr) {
  for (auto &p : mylib::trainable_parameters(m))
    p.sub_(lr * p.grad());
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'sub_' on 'p', a module parameter, while autograd is recording: autograd cannot record an in-place change to a leaf tensor that requires grad, so this throws at run time; do the update inside a 'torch::NoGradGuard' scope [torch-inplace-on-requires-grad]
    // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'trainable_parameters()' returns parameters (ParameterFunctions option)
    // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; p.sub_(lr * p.grad()); }{{$}}
}

// Positive: a configured method, called on a derived class that overrides it.
void positive_override(mylib::Classifier &c) {
  for (auto &w : c.weights())
    w.mul_(0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'mul_' on 'w', a module parameter, while autograd is recording: autograd cannot record an in-place change to a leaf tensor that requires grad, so this throws at run time; do the update inside a 'torch::NoGradGuard' scope [torch-inplace-on-requires-grad]
    // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'weights()' returns parameters (ParameterFunctions option)
    // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; w.mul_(0.5); }{{$}}
}

// Positive: a look-alike guard class does not disable autograd.
void positive_lookalike_guard(torch::nn::Module &m, double lr) {
  mylib::Timer t;
  for (auto &p : mylib::trainable_parameters(m))
    p.add_(p.grad(), -lr);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'add_' on 'p', a module parameter, while autograd is recording: autograd cannot record an in-place change to a leaf tensor that requires grad, so this throws at run time; do the update inside a 'torch::NoGradGuard' scope [torch-inplace-on-requires-grad]
    // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'trainable_parameters()' returns parameters (ParameterFunctions option)
    // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; p.add_(p.grad(), -lr); }{{$}}
}

// Negative: the configured in-house guard disables autograd.
void negative_inhouse_guard(torch::nn::Module &m, double lr) {
  mylib::NoGradScope scope;
  for (auto &p : mylib::trainable_parameters(m))
    p.sub_(lr * p.grad());
}

// Negative: functions and methods not configured return no parameters.
void negative_unlisted(torch::nn::Module &m, mylib::Classifier &c) {
  for (auto &b : mylib::frozen_buffers(m))
    b.zero_();
  for (auto &a : c.activations())
    a.relu_();
}
