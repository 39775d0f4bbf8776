// Options: in-house optimizers, functions that clear gradients or scale a
// loss, MaxCallDepth (a helper N calls below the function holding the loop is
// read when N <= MaxCallDepth: with 2, a step() two helpers down is seen,
// three down it is not), and --dump-config shows what was set.
// RUN: %check_torch_tidy %s torch-grad-accumulation %t.mock -config="{CheckOptions: [{key: torch-grad-accumulation.OptimizerClasses, value: 'mylib::Optim'}, {key: torch-grad-accumulation.ZeroGradFunctions, value: 'mylib::clear'}, {key: torch-grad-accumulation.LossScaleFunctions, value: 'mylib::scale_loss'}, {key: torch-grad-accumulation.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-grad-accumulation %t.real -config="{CheckOptions: [{key: torch-grad-accumulation.OptimizerClasses, value: 'mylib::Optim'}, {key: torch-grad-accumulation.ZeroGradFunctions, value: 'mylib::clear'}, {key: torch-grad-accumulation.LossScaleFunctions, value: 'mylib::scale_loss'}, {key: torch-grad-accumulation.MaxCallDepth, value: 2}]}" -- %real_flags
// Without the options, the in-house optimizer is not one, the in-house
// scaling is not read (a loss from a function defined elsewhere: possibly
// scaled, silent) and the clearing function is an unknown call.
// RUN: %check_torch_tidy -check-suffix=DEFAULT %s torch-grad-accumulation %t.default -- %mock_flags
// A bad value: one configuration diagnostic, and the default (the reports
// of the run without options).
// RUN: %check_torch_tidy -check-suffixes=BAD,DEFAULT %s torch-grad-accumulation %t.bad -config="{CheckOptions: [{key: torch-grad-accumulation.LossScaleFunctions, value: 'a, b'}, {key: torch-grad-accumulation.MaxCallDepth, value: 'deep'}]}" -- %mock_flags
// CHECK-MESSAGES-BAD: warning: invalid configuration value 'a, b' for option 'torch-grad-accumulation.LossScaleFunctions'; expected a ';'-separated list of qualified names; using the default '' [clang-tidy-config]
// CHECK-MESSAGES-BAD: warning: invalid configuration value 'deep' for option 'torch-grad-accumulation.MaxCallDepth'; expected a non-negative integer; using the default '4' [clang-tidy-config]
// RUN: %clang_tidy_torch -checks='-*,torch-grad-accumulation' -config="{CheckOptions: [{key: torch-grad-accumulation.LossScaleFunctions, value: 'mylib::scale_loss'}, {key: torch-grad-accumulation.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-grad-accumulation.MaxCallDepth: '2'
// DUMP-DAG: torch-grad-accumulation.LossScaleFunctions: 'mylib::scale_loss'
// DUMP-DAG: torch-grad-accumulation.OptimizerClasses: ''
// DUMP-DAG: torch-grad-accumulation.ZeroGradFunctions: ''

#include <torch/torch.h>

#include <vector>

namespace mylib {
// An in-house optimizer that is not a torch::optim::Optimizer.
struct Optim {
  void step() {}
  void zero_grad() {}
};
void clear(torch::optim::Optimizer &opt);
torch::Tensor scale_loss(const torch::Tensor &loss, int k);
} // namespace mylib

torch::Tensor lossOf(torch::nn::Linear &model, torch::Tensor x) { return model(x).sum(); }

// The in-house optimizer accumulates without scaling or flushing.
void in_house_optimizer(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
                        mylib::Optim &opt, int k) {
  int i = 0;
  for (auto &x : xs) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the gradients of the batches after the last 'step()' of this loop are 
  // CHECK-MESSAGES: :[[@LINE+6]]:13: note: the optimizer steps only on the iterations where this test holds
  // CHECK-MESSAGES: :[[@LINE+6]]:7: note: the optimizer steps here
    lossOf(model, x).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradients of 'k' batches are added up before each 'step()' but the
    // CHECK-MESSAGES: :[[@LINE+2]]:13: note: the optimizer steps only on the iterations where this test holds
    // CHECK-MESSAGES: :[[@LINE+2]]:7: note: the optimizer steps here
    if (++i % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// A configured clearing function called on every batch: nothing accumulates.
// Without the option it is an unknown call: the loop accumulates, unscaled.
void cleared_every_batch(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
                         torch::optim::SGD &opt, int k) {
  int i = 0;
  for (auto &x : xs) {
    mylib::clear(opt);
    lossOf(model, x).backward();
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:5: warning: the gradients of 'k' batches are added up before each 'step()' but the{{.*}} [torch-grad-accumulation]
    // CHECK-MESSAGES-DEFAULT: :[[@LINE+2]]:13: note: the optimizer steps only on the iterations where this test holds
    // CHECK-MESSAGES-DEFAULT: :[[@LINE+2]]:7: note: the optimizer steps here
    if (++i % k == 0)
      opt.step();
  }
  opt.step();
}

// The configured scaling function: scaled. Without the option, a function
// defined elsewhere: possibly scaled, so silent too.
void scaled_in_house(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
                     torch::optim::SGD &opt, int k) {
  int i = 0;
  for (auto &x : xs) {
    mylib::scale_loss(lossOf(model, x), k).backward();
    if (++i % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
}

// MaxCallDepth: 2. The step two helpers down is seen; three down it is not.
void level2(torch::optim::SGD &opt) { opt.step(); }
void level1(torch::optim::SGD &opt) { level2(opt); }
void level3b(torch::optim::SGD &opt) { opt.step(); }
void level2b(torch::optim::SGD &opt) { level3b(opt); }
void level1b(torch::optim::SGD &opt) { level2b(opt); }

void step_two_down(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
                   torch::optim::SGD &opt, int k) {
  int i = 0;
  for (auto &x : xs) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the gradients of the batches after the last 'step()' of this loop are 
  // CHECK-MESSAGES: :[[@LINE+6]]:13: note: the optimizer steps only on the iterations where this test holds
  // CHECK-MESSAGES: :[[@LINE-12]]:39: note: the optimizer steps here, called from the loop through 'level1'
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-4]]:3: warning: the gradients of the batches after the last 'step()' of this loop are {{.*}} [torch-grad-accumulation]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE+3]]:13: note: the optimizer steps only on the iterations where this test holds
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-15]]:39: note: the optimizer steps here, called from the loop through 'level1'
    (lossOf(model, x) / k).backward();
    if (++i % k == 0)
      level1(opt);
  }
}

void step_three_down(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
                     torch::optim::SGD &opt, int k) {
  int i = 0;
  for (auto &x : xs) {
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:3: warning: the gradients of the batches after the last 'step()' of this loop are {{.*}} [torch-grad-accumulation]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE+3]]:13: note: the optimizer steps only on the iterations where this test holds
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-26]]:40: note: the optimizer steps here, called from the loop through 'level1b'
    (lossOf(model, x) / k).backward();
    if (++i % k == 0)
      level1b(opt);
  }
}
