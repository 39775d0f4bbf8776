// Options: RegressionLosses adds in-house regression losses (functions and
// module classes) taking (prediction, target); ShapePreserving adds in-house
// functions that keep their input's shape; MaxCallDepth: with 2, a model's
// forward() two calls below the loss is read (and reported), three calls
// below it is not (the default, 4, reads it). --dump-config shows what was
// set, and a bad value gets the default.
// RUN: %check_torch_tidy -check-suffixes=,OPT %s torch-loss-broadcast %t.opt -config="{CheckOptions: [{key: torch-loss-broadcast.RegressionLosses, value: 'mylib::weighted_mse;mylib::PinballLossImpl'}, {key: torch-loss-broadcast.ShapePreserving, value: 'mylib::swish'}, {key: torch-loss-broadcast.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy -check-suffixes=,DEFAULT %s torch-loss-broadcast %t.default -- %mock_flags
// RUN: %check_torch_tidy -check-suffixes=,DEFAULT,BAD %s torch-loss-broadcast %t.bad -config="{CheckOptions: [{key: torch-loss-broadcast.MaxCallDepth, value: 'deep'}, {key: torch-loss-broadcast.RegressionLosses, value: 'mylib::weighted_mse, mylib::other'}]}" -- %mock_flags
// RUN: %clang_tidy_torch -checks='-*,torch-loss-broadcast' -config="{CheckOptions: [{key: torch-loss-broadcast.RegressionLosses, value: 'mylib::weighted_mse'}, {key: torch-loss-broadcast.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-loss-broadcast.RegressionLosses: 'mylib::weighted_mse'
// DUMP-DAG: torch-loss-broadcast.ShapePreserving: ''
// DUMP-DAG: torch-loss-broadcast.MaxCallDepth: '2'
// CHECK-MESSAGES-BAD: warning: invalid configuration value 'deep' for option 'torch-loss-broadcast.MaxCallDepth'; expected a non-negative integer; using the default '4' [clang-tidy-config]
// CHECK-MESSAGES-BAD: warning: invalid configuration value 'mylib::weighted_mse, mylib::other' for option 'torch-loss-broadcast.RegressionLosses'; expected a ';'-separated list of qualified names; using the default '' [clang-tidy-config]

#include <torch/torch.h>

namespace mylib {
// x * sigmoid(x): the same shape as x.
torch::Tensor swish(const torch::Tensor &x);
// In-house regression losses.
torch::Tensor weighted_mse(const torch::Tensor &pred, const torch::Tensor &target);
struct PinballLossImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &pred, const torch::Tensor &target);
};
TORCH_MODULE(PinballLoss);
} // namespace mylib

struct NetImpl : torch::nn::Module {
  NetImpl() { out = register_module("out", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return out(x.view({-1, 8})); }
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(Net);

struct SwishNetImpl : torch::nn::Module {
  SwishNetImpl() { out = register_module("out", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return mylib::swish(out(x.flatten(1))); }
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(SwishNet);

// Always reported.
torch::Tensor builtin(Net &model, torch::Tensor x, torch::Tensor y) {
  return torch::mse_loss(model(x), y.view({-1}));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [N, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  return torch::mse_loss(model(x).squeeze(1), y.view({-1}));{{$}}
}

// In-house losses: reported only when configured.
torch::Tensor in_house(Net &model, mylib::PinballLoss pinball, torch::Tensor x,
                       torch::Tensor y) {
  auto target = y.view({-1});
  return mylib::weighted_mse(model(x), target) + pinball(model(x), target);
  // CHECK-MESSAGES-OPT: :[[@LINE-1]]:10: warning: 'mylib::weighted_mse' is given a prediction of shape [N, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]
  // CHECK-MESSAGES-OPT: :[[@LINE-2]]:50: warning: 'mylib::PinballLossImpl' is given a prediction of shape [N, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES-OPT: {{^}}  return mylib::weighted_mse(model(x).squeeze(1), target) + pinball(model(x).squeeze(1), target);{{$}}
}

// An in-house activation after the last layer: the shape is known only when
// it is configured as shape-preserving.
torch::Tensor swished(SwishNet &model, torch::Tensor x, torch::Tensor y) {
  return torch::l1_loss(model(x), y.flatten());
  // CHECK-MESSAGES-OPT: :[[@LINE-1]]:10: warning: 'torch::l1_loss' is given a prediction of shape [N, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES-OPT: {{^}}  return torch::l1_loss(model(x).squeeze(1), y.flatten());{{$}}
}

// The forward two calls below the loss: read with MaxCallDepth 2.
torch::Tensor run_b(Net &m, torch::Tensor x) { return m->forward(x); }
torch::Tensor depth2(Net &model, torch::Tensor x, torch::Tensor y) {
  return torch::mse_loss(run_b(model, x), y.view({-1}));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [N, 1]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  return torch::mse_loss(run_b(model, x).squeeze(1), y.view({-1}));{{$}}
}

// Three calls below: not read with 2, read with the default. (A model of its
// own: a forward() read completely from closer by is known wherever it is
// called.)
struct DeepNetImpl : torch::nn::Module {
  DeepNetImpl() { out = register_module("out", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return out(x.view({-1, 8})); }
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(DeepNet);
torch::Tensor run_z(DeepNet &m, torch::Tensor x) { return m->forward(x); }
torch::Tensor run_y(DeepNet &m, torch::Tensor x) { return run_z(m, x); }
torch::Tensor depth3(DeepNet &model, torch::Tensor x, torch::Tensor y) {
  return torch::mse_loss(run_y(model, x), y.view({-1}));
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [N, 1]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES-DEFAULT: {{^}}  return torch::mse_loss(run_y(model, x).squeeze(1), y.view({-1}));{{$}}
}
