// Options: in-house probability and logit producers and the call depth;
// --dump-config shows what was set.
// RUN: %check_torch_tidy %s torch-loss-activation-mismatch %t.mock -config="{CheckOptions: [{key: torch-loss-activation-mismatch.ProbabilityFunctions, value: 'mylib::calibrated_softmax'}, {key: torch-loss-activation-mismatch.LogitFunctions, value: 'mylib::dense'}, {key: torch-loss-activation-mismatch.LogitModules, value: 'mylib::LoRALinearImpl'}, {key: torch-loss-activation-mismatch.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-loss-activation-mismatch %t.real -config="{CheckOptions: [{key: torch-loss-activation-mismatch.ProbabilityFunctions, value: 'mylib::calibrated_softmax'}, {key: torch-loss-activation-mismatch.LogitFunctions, value: 'mylib::dense'}, {key: torch-loss-activation-mismatch.LogitModules, value: 'mylib::LoRALinearImpl'}, {key: torch-loss-activation-mismatch.MaxCallDepth, value: 2}]}" -- %real_flags
// RUN: %clang_tidy_torch -checks='-*,torch-loss-activation-mismatch' -config="{CheckOptions: [{key: torch-loss-activation-mismatch.LogitFunctions, value: 'mylib::dense'}, {key: torch-loss-activation-mismatch.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// A bad value is one configuration diagnostic and the default (shown in
// --dump-config); the parsing itself is tested in options-parsing.cpp.
// RUN: %clang_tidy_torch -checks='-*,torch-loss-activation-mismatch' -config="{CheckOptions: [{key: torch-loss-activation-mismatch.LogitModules, value: 'a, b'}, {key: torch-loss-activation-mismatch.MaxCallDepth, value: '-1'}]}" --dump-config | %config_map | FileCheck %s --check-prefix=BAD
// DUMP-DAG: torch-loss-activation-mismatch.LogitFunctions: 'mylib::dense'
// DUMP-DAG: torch-loss-activation-mismatch.LogitModules: ''
// DUMP-DAG: torch-loss-activation-mismatch.MaxCallDepth: '2'
// DUMP-DAG: torch-loss-activation-mismatch.ProbabilityFunctions: ''
// BAD-DAG: torch-loss-activation-mismatch.LogitModules: ''
// BAD-DAG: torch-loss-activation-mismatch.MaxCallDepth: '4'

#include <torch/torch.h>

namespace mylib {
// Defined in the library's own translation units.
torch::Tensor calibrated_softmax(const torch::Tensor &logits);
torch::Tensor dense(const torch::Tensor &x, const torch::Tensor &w);
struct LoRALinearImpl : torch::nn::Module {
  LoRALinearImpl(int64_t in, int64_t out);
  torch::Tensor forward(const torch::Tensor &x);
};
TORCH_MODULE(LoRALinear);
} // namespace mylib

// A model ending in an in-house layer whose forward() lives elsewhere.
struct AdapterNetImpl : torch::nn::Module {
  AdapterNetImpl() : head(register_module("head", mylib::LoRALinear(16, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return head->forward(torch::relu(x)); }
  mylib::LoRALinear head;
};
TORCH_MODULE(AdapterNet);

// Positive: NLLLoss on the logits of a configured layer.
torch::Tensor positive_logit_module(AdapterNet &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::NLLLoss nll;
  return nll(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'torch::nn::NLLLoss' expects log-probabilities, but it is given raw logits from 'AdapterNetImpl::forward()', which ends in a 'mylib::LoRALinear' layer: {{.*}} [torch-loss-activation-mismatch]
}

// Positive: nll_loss on a configured logit function.
torch::Tensor positive_logit_function(torch::Tensor x, torch::Tensor w, torch::Tensor y) {
  return torch::nll_loss(mylib::dense(x, w), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'torch::nll_loss' expects log-probabilities, but it is given raw logits from 'mylib::dense': {{.*}}
}

// Positive: cross-entropy on a configured probability function.
torch::Tensor positive_probability_function(torch::Tensor z, torch::Tensor y) {
  return torch::nn::functional::cross_entropy(mylib::calibrated_softmax(z), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'torch::nn::functional::cross_entropy' applies log_softmax itself, but it is given probabilities from 'mylib::calibrated_softmax': {{.*}}
}

// Negative: cross-entropy on the configured layer's logits.
torch::Tensor negative_logits(AdapterNet &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::CrossEntropyLoss ce;
  return ce(model->forward(x), y);
}

// Negative: deeper than MaxCallDepth (2) helpers are not followed.
torch::Tensor level3(torch::Tensor z) { return torch::softmax(z, 1); }
torch::Tensor level2(torch::Tensor z) { return level3(z); }
torch::Tensor level1(torch::Tensor z) { return level2(z); }
torch::Tensor negative_too_deep(torch::Tensor z, torch::Tensor y) {
  return torch::cross_entropy_loss(level1(z), y);
}

// Positive: within the depth bound.
torch::Tensor positive_shallow(torch::Tensor z, torch::Tensor y) {
  return torch::cross_entropy_loss(level2(z), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'torch::cross_entropy_loss' applies log_softmax itself, but it is given probabilities from 'level2()', which ends in 'torch::softmax'
}
