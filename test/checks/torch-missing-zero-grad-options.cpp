// Options: in-house optimizer classes and gradient-clearing functions, and
// --dump-config shows what was set.
// RUN: %check_torch_tidy %s torch-missing-zero-grad %t.mock -config="{CheckOptions: [{key: torch-missing-zero-grad.OptimizerClasses, value: 'mylib::Optim'}, {key: torch-missing-zero-grad.ZeroGradFunctions, value: 'mylib::clear_grads;mylib::Trainer::reset'}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-missing-zero-grad %t.real -config="{CheckOptions: [{key: torch-missing-zero-grad.OptimizerClasses, value: 'mylib::Optim'}, {key: torch-missing-zero-grad.ZeroGradFunctions, value: 'mylib::clear_grads;mylib::Trainer::reset'}]}" -- %real_flags
// RUN: %clang_tidy_torch -checks='-*,torch-missing-zero-grad' -config="{CheckOptions: [{key: torch-missing-zero-grad.OptimizerClasses, value: 'mylib::Optim'}, {key: torch-missing-zero-grad.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-missing-zero-grad.MaxCallDepth: '2'
// DUMP-DAG: torch-missing-zero-grad.OptimizerClasses: 'mylib::Optim'
// DUMP-DAG: torch-missing-zero-grad.ZeroGradFunctions: ''

#include <torch/torch.h>

namespace mylib {
// An in-house optimizer that is not a torch::optim::Optimizer.
struct Optim {
  explicit Optim(std::vector<torch::Tensor> params) : params(std::move(params)) {}
  void step() {}
  void zero_grad() {}
  std::vector<torch::Tensor> params;
};
void clear_grads(torch::nn::Module &m) { m.zero_grad(); }
struct Trainer {
  virtual ~Trainer() = default;
  virtual void reset() {}
};
struct MyTrainer : Trainer {
  void reset() override {}
};
} // namespace mylib

torch::Tensor lossOf(torch::nn::Linear &model, torch::Tensor x) { return model(x).sum(); }

// An in-house optimizer is an optimizer.
void positive_custom_optimizer(torch::nn::Linear &model, torch::Tensor x) {
  mylib::Optim opt(model->parameters());
  for (int i = 0; i < 10; ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} optimizer 'opt' {{.*}} call 'opt.zero_grad()' {{.*}} [torch-missing-zero-grad]
    lossOf(model, x).backward();
    // CHECK-FIXES: {{^}}    opt.zero_grad();{{$}}
    opt.step();
  }
}

// An in-house function clears gradients.
void negative_clear_function(torch::nn::Linear &model, torch::optim::SGD &opt, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    mylib::clear_grads(*model);
    lossOf(model, x).backward();
    opt.step();
  }
}

// An override of a listed method clears gradients too.
void negative_clear_method(mylib::MyTrainer &t, torch::nn::Linear &model, mylib::Optim &opt,
                           torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    t.reset();
    lossOf(model, x).backward();
    opt.step();
  }
}
