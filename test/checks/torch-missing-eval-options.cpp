// Options: in-house mode-dependent and mode-independent module classes, an
// in-house no-grad guard, and --dump-config shows what was set.
// RUN: %check_torch_tidy %s torch-missing-eval %t.mock -config="{CheckOptions: [{key: torch-missing-eval.ModeDependentModuleClasses, value: 'mylib::NoisyImpl'}, {key: torch-missing-eval.ModeIndependentModuleClasses, value: '::StableImpl'}, {key: torch-missing-eval.NoGradGuardClasses, value: 'mylib::Frozen'}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-missing-eval %t.real -config="{CheckOptions: [{key: torch-missing-eval.ModeDependentModuleClasses, value: 'mylib::NoisyImpl'}, {key: torch-missing-eval.ModeIndependentModuleClasses, value: '::StableImpl'}, {key: torch-missing-eval.NoGradGuardClasses, value: 'mylib::Frozen'}]}" -- %real_flags
// RUN: %clang_tidy_torch -checks='-*,torch-missing-eval' -config="{CheckOptions: [{key: torch-missing-eval.ModeDependentModuleClasses, value: 'mylib::NoisyImpl'}, {key: torch-missing-eval.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-missing-eval.MaxCallDepth: '2'
// DUMP-DAG: torch-missing-eval.ModeDependentModuleClasses: 'mylib::NoisyImpl'
// DUMP-DAG: torch-missing-eval.ModeIndependentModuleClasses: ''
// DUMP-DAG: torch-missing-eval.NoGradGuardClasses: ''

#include <torch/torch.h>

namespace mylib {
// An in-house layer whose noise is on in training mode (its forward reads the
// mode through a library call the check cannot see).
struct NoisyImpl : torch::nn::Module {
  NoisyImpl() : fc(register_module("fc", torch::nn::Linear(8, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Noisy);

// An in-house guard that turns autograd off.
struct Frozen {
  Frozen() : prev(torch::GradMode::is_enabled()) { torch::GradMode::set_enabled(false); }
  ~Frozen() { torch::GradMode::set_enabled(prev); }
  bool prev;
};
} // namespace mylib

// A model with dropout that the project declares mode-independent (its
// dropout probability is 0 in this build).
struct StableImpl : torch::nn::Module {
  StableImpl() : drop(register_module("drop", torch::nn::Dropout(0.0))) {}
  torch::Tensor forward(torch::Tensor x) { return drop->forward(x); }
  torch::nn::Dropout drop;
};
TORCH_MODULE(Stable);

// A listed mode-dependent class is reported.
void positive_listed(torch::Tensor x) {
  mylib::Noisy model;
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 3; ++i)
    model->forward(x).argmax(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'model' runs in training mode in this evaluation loop{{.*}} [torch-missing-eval]
}

// A listed mode-independent class is not, whatever it holds.
void negative_listed(torch::Tensor x) {
  Stable model;
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 3; ++i)
    model->forward(x).argmax(1);
}

// An in-house guard makes a loop that measures nothing an evaluation pass.
void positive_guard(torch::Tensor x, std::vector<torch::Tensor> &out) {
  mylib::Noisy model;
  mylib::Frozen frozen;
  for (int i = 0; i < 3; ++i)
    out.push_back(model->forward(x));
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'model' runs in training mode in this evaluation loop{{.*}}so the outputs computed here are wrong and noisy{{.*}} [torch-missing-eval]
}

// Without a guard or a metric, it is not a pass this check knows.
void negative_no_guard(torch::Tensor x, std::vector<torch::Tensor> &out) {
  mylib::Noisy model;
  for (int i = 0; i < 3; ++i)
    out.push_back(model->forward(x));
}
