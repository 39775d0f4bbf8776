// Options: per-batch scheduler classes, in-house optimizers, MaxCallDepth (a
// helper N calls below the function holding the loop is read when
// N <= MaxCallDepth: with 2, a step() two helpers down is seen, three down it
// is not), and --dump-config shows what was set.
// RUN: %check_torch_tidy %s torch-scheduler-misuse %t.mock -config="{CheckOptions: [{key: torch-scheduler-misuse.PerBatchSchedulerClasses, value: 'mylib::WarmupLR'}, {key: torch-scheduler-misuse.OptimizerClasses, value: 'mylib::Optim'}, {key: torch-scheduler-misuse.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-scheduler-misuse %t.real -config="{CheckOptions: [{key: torch-scheduler-misuse.PerBatchSchedulerClasses, value: 'mylib::WarmupLR'}, {key: torch-scheduler-misuse.OptimizerClasses, value: 'mylib::Optim'}, {key: torch-scheduler-misuse.MaxCallDepth, value: 2}]}" -- %real_flags
// RUN: %clang_tidy_torch -checks='-*,torch-scheduler-misuse' -config="{CheckOptions: [{key: torch-scheduler-misuse.PerBatchSchedulerClasses, value: 'mylib::WarmupLR'}, {key: torch-scheduler-misuse.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-scheduler-misuse.MaxCallDepth: '2'
// DUMP-DAG: torch-scheduler-misuse.PerBatchSchedulerClasses: 'mylib::WarmupLR'
// DUMP-DAG: torch-scheduler-misuse.OptimizerClasses: ''

#include <torch/torch.h>

#include <vector>

namespace mylib {
// A warm-up schedule meant to step after every batch.
struct WarmupLR : torch::optim::LRScheduler {
  explicit WarmupLR(torch::optim::Optimizer &o) : LRScheduler(o) {}
  std::vector<double> get_lrs() override { return get_current_lrs(); }
};
struct LinearWarmup : WarmupLR {
  using WarmupLR::WarmupLR;
};
// An in-house optimizer that is not a torch::optim::Optimizer.
struct Optim {
  void step() {}
  void zero_grad() {}
};
} // namespace mylib

torch::Tensor lossOf(torch::nn::Linear &model, torch::Tensor x) { return model(x).sum(); }

// A per-batch scheduler class (and a class derived from it): not reported.
void negative_per_batch_class(torch::nn::Linear &model, torch::optim::SGD &opt,
                              mylib::WarmupLR &warm, mylib::LinearWarmup &lin,
                              std::vector<torch::Tensor> &xs) {
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &x : xs) {
      opt.zero_grad();
      lossOf(model, x).backward();
      opt.step();
      warm.step();
      lin.step();
    }
}

// Other LRSchedulers still are.
void positive_step_lr(torch::nn::Linear &model, torch::optim::SGD &opt,
                      torch::optim::StepLR &sched, std::vector<torch::Tensor> &xs) {
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &x : xs) {
      opt.zero_grad();
      lossOf(model, x).backward();
      opt.step();
      sched.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: epoch-based scheduler 'sched' ('StepLR') is stepped in the per-batch loop{{.*}} [torch-scheduler-misuse]
    }
}

// An in-house optimizer makes the nested loop a batch loop.
void positive_custom_optimizer(torch::nn::Linear &model, mylib::Optim &opt,
                               torch::optim::StepLR &sched, std::vector<torch::Tensor> &xs) {
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &x : xs) {
      lossOf(model, x).backward();
      opt.step();
      sched.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: epoch-based scheduler 'sched' ('StepLR') is stepped in the per-batch loop{{.*}} [torch-scheduler-misuse]
    }
}

// Depth 2: followed.
void step_b(torch::optim::StepLR &s) { s.step(); }
void step_a(torch::optim::StepLR &s) { step_b(s); }

void positive_depth2(torch::nn::Linear &model, torch::optim::SGD &opt,
                     torch::optim::StepLR &sched, std::vector<torch::Tensor> &xs) {
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &x : xs) {
      opt.zero_grad();
      lossOf(model, x).backward();
      opt.step();
      step_a(sched);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: epoch-based scheduler 'sched' ('StepLR') is stepped in the per-batch loop{{.*}} [torch-scheduler-misuse]
    }
}

// Depth 3: not followed.
void step_z(torch::optim::StepLR &s) { s.step(); }
void step_y(torch::optim::StepLR &s) { step_z(s); }
void step_x(torch::optim::StepLR &s) { step_y(s); }

void negative_depth3(torch::nn::Linear &model, torch::optim::SGD &opt,
                     torch::optim::StepLR &sched, std::vector<torch::Tensor> &xs) {
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &x : xs) {
      opt.zero_grad();
      lossOf(model, x).backward();
      opt.step();
      step_x(sched);
    }
}
