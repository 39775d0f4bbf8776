// Input of test/meta/driver-gates.test: one finding with two notes, and
// expectations under several suffixes, some of them deliberately wrong.
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { out = register_module("out", torch::nn::Linear(32, 1)); }
  torch::Tensor forward(torch::Tensor x) { return out->forward(x); }
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(Net);

torch::Tensor loss(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss criterion;
  return criterion(model->forward(x), y);
  // ALL: the finding and both its notes (passes).
  // CHECK-NOTES-ALL: :[[@LINE-2]]:20: warning: 'torch::nn::BCELoss' expects probabilities in [0, 1]
  // CHECK-NOTES-ALL: :[[@LINE-10]]:51: note: a 'torch::nn::Linear' layer outputs raw logits here
  // CHECK-NOTES-ALL: :[[@LINE-5]]:22: note: use 'torch::nn::BCEWithLogitsLoss' on the logits
  // MISSING: a note left out (fails: unexpected note).
  // CHECK-NOTES-MISSING: :[[@LINE-6]]:20: warning: 'torch::nn::BCELoss' expects probabilities in [0, 1]
  // CHECK-NOTES-MISSING: :[[@LINE-14]]:51: note: a 'torch::nn::Linear' layer outputs raw logits here
  // MSG: the warning only; CHECK-MESSAGES does not gate notes (passes).
  // CHECK-MESSAGES-MSG: :[[@LINE-9]]:20: warning: 'torch::nn::BCELoss' expects probabilities in [0, 1]
  // WRONG: a wrong column (fails).
  // CHECK-MESSAGES-WRONG: :[[@LINE-11]]:21: warning: 'torch::nn::BCELoss' expects probabilities in [0, 1]
}
