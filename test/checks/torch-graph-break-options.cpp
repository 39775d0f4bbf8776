// Options: in-house no-grad guards, MaxCallDepth (a helper N calls below the
// function holding the backward pass is read when N <= MaxCallDepth: with 2,
// a cut two helpers down is seen, three down it is not), a bad value, and
// --dump-config shows what was set.
// RUN: %check_torch_tidy %s torch-graph-break %t.mock -config="{CheckOptions: [{key: torch-graph-break.NoGradGuardClasses, value: 'mylib::Frozen'}, {key: torch-graph-break.MaxCallDepth, value: 2}]}" -- %mock_flags
// Without the options: the in-house guard is unknown and the three-level
// helper is read.
// RUN: %check_torch_tidy -check-suffix=DEFAULT %s torch-graph-break %t.default -- %mock_flags
// A count that is not a number is the default.
// RUN: %check_torch_tidy -check-suffixes=BAD,DEFAULT %s torch-graph-break %t.bad -config="{CheckOptions: [{key: torch-graph-break.MaxCallDepth, value: 'deep'}]}" -- %mock_flags
// CHECK-MESSAGES-BAD: warning: invalid configuration value 'deep' for option 'torch-graph-break.MaxCallDepth'; expected a non-negative integer; using the default '4' [clang-tidy-config]
// RUN: %clang_tidy_torch -checks='-*,torch-graph-break' -config="{CheckOptions: [{key: torch-graph-break.NoGradGuardClasses, value: 'mylib::Frozen'}, {key: torch-graph-break.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-graph-break.MaxCallDepth: '2'
// DUMP-DAG: torch-graph-break.NoGradGuardClasses: 'mylib::Frozen'

#include <torch/torch.h>

namespace mylib {
// An in-house guard that turns autograd off while it lives.
struct Frozen {
  Frozen() : prev(c10::GradMode::is_enabled()) { c10::GradMode::set_enabled(false); }
  ~Frozen() { c10::GradMode::set_enabled(prev); }
  bool prev;
};
} // namespace mylib

// Level 3 holds the cut: read with the default depth, not with 2.
torch::Tensor level3(torch::nn::Linear &m, torch::Tensor x) { return m(x).detach(); }
torch::Tensor level2(torch::nn::Linear &m, torch::Tensor x) { return level3(m, x) * 2; }
torch::Tensor level1(torch::nn::Linear &m, torch::Tensor x) { return level2(m, x) + 1; }
// Level 2 holds the cut: read with both.
torch::Tensor two_down(torch::nn::Linear &m, torch::Tensor x) { return m(x).detach().abs(); }
torch::Tensor one_down(torch::nn::Linear &m, torch::Tensor x) { return two_down(m, x); }

void depth(torch::nn::Linear &model, torch::optim::SGD &opt) {
  auto x = torch::randn({4, 8});
  auto three = level1(model, x).sum();
  three.backward();
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:9: warning: the tensor given to the backward pass is cut from the graph of the model output 'm(x)' by 'detach()'{{.*}} [torch-graph-break]
  auto two = one_down(model, x).sum();
  two.backward();
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the tensor given to the backward pass is cut from the graph of the model output 'm(x)' by 'detach()'{{.*}} [torch-graph-break]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:7: warning: the tensor given to the backward pass is cut from the graph of the model output 'm(x)' by 'detach()'{{.*}} [torch-graph-break]
  opt.step();
}

void guarded(torch::nn::Linear &model, torch::optim::SGD &opt) {
  auto x = torch::randn({4, 8});
  torch::Tensor out;
  {
    mylib::Frozen frozen;
    out = model(x);
  }
  auto loss = out.pow(2).mean();
  loss.backward();
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: {{.*}} by running it while autograd does not record{{.*}} [torch-graph-break]
  opt.step();
}
