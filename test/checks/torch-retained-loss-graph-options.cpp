// Options: in-house losses, in-house store methods, in-house no-grad guards,
// MaxCallDepth (a helper N calls below the function holding the loop is read
// when N <= MaxCallDepth: with 2, a loss returned two helpers down is seen,
// three down it is not), a bad value, and --dump-config shows what was set.
// RUN: %check_torch_tidy %s torch-retained-loss-graph %t.mock -config="{CheckOptions: [{key: torch-retained-loss-graph.LossFunctions, value: 'mylib::focal_loss'}, {key: torch-retained-loss-graph.StoreMethods, value: 'mylib::MetricLog::add'}, {key: torch-retained-loss-graph.NoGradGuardClasses, value: 'mylib::Frozen'}, {key: torch-retained-loss-graph.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-retained-loss-graph %t.real -config="{CheckOptions: [{key: torch-retained-loss-graph.LossFunctions, value: 'mylib::focal_loss'}, {key: torch-retained-loss-graph.StoreMethods, value: 'mylib::MetricLog::add'}, {key: torch-retained-loss-graph.NoGradGuardClasses, value: 'mylib::Frozen'}, {key: torch-retained-loss-graph.MaxCallDepth, value: 2}]}" -- %real_flags
// Without the options: the in-house loss, store and guard are unknown, so
// only the guarded accumulation is reported (the guard is not known to turn
// autograd off), and the three-level helper is read.
// RUN: %check_torch_tidy -check-suffix=DEFAULT %s torch-retained-loss-graph %t.default -- %mock_flags
// A list written with commas is not a list of qualified names: the default.
// RUN: %check_torch_tidy -check-suffixes=BAD,DEFAULT %s torch-retained-loss-graph %t.bad -config="{CheckOptions: [{key: torch-retained-loss-graph.StoreMethods, value: 'mylib::MetricLog::add, mylib::X::y'}]}" -- %mock_flags
// CHECK-MESSAGES-BAD: warning: invalid configuration value 'mylib::MetricLog::add, mylib::X::y' for option 'torch-retained-loss-graph.StoreMethods'; expected a ';'-separated list of qualified names; using the default '' [clang-tidy-config]
// RUN: %clang_tidy_torch -checks='-*,torch-retained-loss-graph' -config="{CheckOptions: [{key: torch-retained-loss-graph.StoreMethods, value: 'mylib::MetricLog::add'}, {key: torch-retained-loss-graph.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-retained-loss-graph.MaxCallDepth: '2'
// DUMP-DAG: torch-retained-loss-graph.StoreMethods: 'mylib::MetricLog::add'
// DUMP-DAG: torch-retained-loss-graph.LossFunctions: ''
// DUMP-DAG: torch-retained-loss-graph.NoGradGuardClasses: ''

#include <torch/torch.h>

#include <vector>

namespace mylib {
// Defined in a library: the translation unit sees only the declaration.
torch::Tensor focal_loss(const torch::Tensor &input, const torch::Tensor &target);
struct MetricLog {
  void add(const torch::Tensor &t);
};
// An in-house guard that turns autograd off while it lives.
struct Frozen {
  Frozen() : prev(c10::GradMode::is_enabled()) { c10::GradMode::set_enabled(false); }
  ~Frozen() { c10::GradMode::set_enabled(prev); }
  bool prev;
};
} // namespace mylib

torch::Tensor level3(torch::nn::Linear &m, torch::Tensor x) { return m(x).sum(); }
torch::Tensor level2(torch::nn::Linear &m, torch::Tensor x) { return level3(m, x); }
torch::Tensor level1(torch::nn::Linear &m, torch::Tensor x) { return level2(m, x); }
torch::Tensor two_down(torch::nn::Linear &m, torch::Tensor x) { return torch::mse_loss(m(x), x); }
torch::Tensor one_down(torch::nn::Linear &m, torch::Tensor x) { return two_down(m, x); }

void in_house(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
              torch::optim::SGD &opt) {
  std::vector<torch::Tensor> losses;
  mylib::MetricLog log;
  for (auto &x : xs) {
    opt.zero_grad();
    auto loss = mylib::focal_loss(x, x);
    auto out = model(x);
    (loss + out.sum()).backward();
    opt.step();
    losses.push_back(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: a loss that carries this iteration's autograd graph is stored in 'losses'{{.*}} [torch-retained-loss-graph]
    // CHECK-FIXES: losses.push_back(loss.detach());
    log.add(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: a model output that carries this iteration's autograd graph is stored in 'log'{{.*}} [torch-retained-loss-graph]
    // CHECK-FIXES: log.add(out.detach());
  }
  std::printf("%d\n", (int)losses.size());
}

double guarded(torch::nn::Linear &model, std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  mylib::Frozen frozen;
  for (auto &x : xs)
    total += model(x).sum();
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:11: warning: a model output that carries this iteration's autograd graph is accumulated into 'total'{{.*}} [torch-retained-loss-graph]
  // CHECK-FIXES-DEFAULT: total += model(x).sum().detach();
  return total.item<double>();
}

double depth(torch::nn::Linear &model, std::vector<torch::Tensor> &xs) {
  torch::Tensor seen = torch::zeros({});
  torch::Tensor unseen = torch::zeros({});
  for (auto &x : xs) {
    seen += one_down(model, x);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: a loss that carries this iteration's autograd graph is accumulated into 'seen'{{.*}} [torch-retained-loss-graph]
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:10: warning: a loss that carries this iteration's autograd graph is accumulated into 'seen'{{.*}} [torch-retained-loss-graph]
    // CHECK-FIXES: seen += one_down(model, x).detach();
    // CHECK-FIXES-DEFAULT: seen += one_down(model, x).detach();
    unseen += level1(model, x);
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:12: warning: a model output that carries this iteration's autograd graph is accumulated into 'unseen'{{.*}} [torch-retained-loss-graph]
    // CHECK-FIXES-DEFAULT: unseen += level1(model, x).detach();
  }
  return seen.item<double>() + unseen.item<double>();
}
