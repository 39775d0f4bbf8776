// The notes: where the prediction's (or the target's) last dimension of size 1
// comes from, and where the other side's shape comes from.
// RUN: %check_torch_tidy %s torch-loss-broadcast %t.mock -- %mock_flags

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { out = register_module("out", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return out(x.view({-1, 8})); }
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(Net);

torch::Tensor column_prediction(Net &model, torch::Tensor x, torch::Tensor y) {
  auto target = y.view({-1});
  return torch::mse_loss(model->forward(x), target);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [N, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]
  // CHECK-NOTES: :[[@LINE-9]]:51: note: the prediction's last dimension of size 1 comes from 'out' here
  // CHECK-NOTES: :[[@LINE-4]]:17: note: the target's shape [N] comes from 'view' here
  // CHECK-FIXES: {{^}}  return torch::mse_loss(model->forward(x).squeeze(1), target);{{$}}
}

torch::Tensor column_target(torch::Tensor y) {
  torch::nn::Sequential net(torch::nn::Linear(4, 1));
  auto pred = net->forward(torch::randn({32, 4})).squeeze(1);
  return torch::l1_loss(pred, y.unsqueeze(-1).view({32, 1}));
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'torch::l1_loss' is given a prediction of shape [32] and a target of shape [32, 1]{{.*}} [torch-loss-broadcast]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: the prediction's shape [32] comes from 'squeeze' here
  // CHECK-NOTES: :[[@LINE-3]]:31: note: the target's last dimension of size 1 comes from 'view' here
  // CHECK-FIXES: {{^}}  return torch::l1_loss(pred.unsqueeze(1), y.unsqueeze(-1).view({32, 1}));{{$}}
}
