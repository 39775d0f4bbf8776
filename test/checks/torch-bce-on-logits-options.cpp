// Options: in-house BCE-like losses, in-house probability and logit producers,
// the stable-rewrite suggestion turned off, the call depth; --dump-config
// shows what was set.
// RUN: %check_torch_tidy %s torch-bce-on-logits %t.mock -config="{CheckOptions: [{key: torch-bce-on-logits.BCELossClasses, value: 'mylib::FocalBCELoss'}, {key: torch-bce-on-logits.BCEFunctions, value: 'mylib::weighted_bce'}, {key: torch-bce-on-logits.ProbabilityFunctions, value: 'mylib::calibrated'}, {key: torch-bce-on-logits.LogitFunctions, value: 'mylib::dense'}, {key: torch-bce-on-logits.LogitModules, value: 'mylib::LoRALinearImpl'}, {key: torch-bce-on-logits.SuggestWithLogits, value: false}, {key: torch-bce-on-logits.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-bce-on-logits %t.real -config="{CheckOptions: [{key: torch-bce-on-logits.BCELossClasses, value: 'mylib::FocalBCELoss'}, {key: torch-bce-on-logits.BCEFunctions, value: 'mylib::weighted_bce'}, {key: torch-bce-on-logits.ProbabilityFunctions, value: 'mylib::calibrated'}, {key: torch-bce-on-logits.LogitFunctions, value: 'mylib::dense'}, {key: torch-bce-on-logits.LogitModules, value: 'mylib::LoRALinearImpl'}, {key: torch-bce-on-logits.SuggestWithLogits, value: false}, {key: torch-bce-on-logits.MaxCallDepth, value: 2}]}" -- %real_flags
// RUN: %clang_tidy_torch -checks='-*,torch-bce-on-logits' -config="{CheckOptions: [{key: torch-bce-on-logits.BCEFunctions, value: 'mylib::weighted_bce'}, {key: torch-bce-on-logits.SuggestWithLogits, value: false}, {key: torch-bce-on-logits.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-bce-on-logits.BCEFunctions: 'mylib::weighted_bce'
// DUMP-DAG: torch-bce-on-logits.BCELossClasses: ''
// DUMP-DAG: torch-bce-on-logits.LogitFunctions: ''
// DUMP-DAG: torch-bce-on-logits.LogitModules: ''
// DUMP-DAG: torch-bce-on-logits.MaxCallDepth: '2'
// DUMP-DAG: torch-bce-on-logits.ProbabilityFunctions: ''
// DUMP-DAG: torch-bce-on-logits.SuggestWithLogits: 'false'

#include <torch/torch.h>

namespace mylib {
// An in-house loss that, like BCELoss, expects probabilities.
struct FocalBCELossImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &probs, const torch::Tensor &target) {
    auto pt = torch::where(target > 0.5, probs, 1 - probs);
    return -(torch::pow(1 - pt, 2) * torch::log(pt)).mean();
  }
};
TORCH_MODULE(FocalBCELoss);

// Defined in the library's own translation units.
torch::Tensor weighted_bce(const torch::Tensor &probs, const torch::Tensor &target, double w);
torch::Tensor calibrated(const torch::Tensor &logits);
torch::Tensor dense(const torch::Tensor &x, const torch::Tensor &w);
struct LoRALinearImpl : torch::nn::Module {
  LoRALinearImpl(int64_t in, int64_t out);
  torch::Tensor forward(const torch::Tensor &x);
};
TORCH_MODULE(LoRALinear);
} // namespace mylib

// A model ending in an in-house layer whose forward() lives elsewhere.
struct AdapterNetImpl : torch::nn::Module {
  AdapterNetImpl() : head(register_module("head", mylib::LoRALinear(16, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return head->forward(torch::relu(x)); }
  mylib::LoRALinear head;
};
TORCH_MODULE(AdapterNet);

// A model ending in an in-house probability function.
struct CalibratedNetImpl : torch::nn::Module {
  CalibratedNetImpl() : fc(register_module("fc", torch::nn::Linear(16, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return mylib::calibrated(fc->forward(x)); }
  torch::nn::Linear fc;
};
TORCH_MODULE(CalibratedNet);

// Positive: an in-house BCE-like loss module fed the logits of a configured layer.
torch::Tensor positive_custom_loss(AdapterNet &model, torch::Tensor x, torch::Tensor y) {
  mylib::FocalBCELoss focal;
  return focal(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'mylib::FocalBCELoss' expects probabilities in [0, 1], but it is given raw logits from 'AdapterNetImpl::forward()', which ends in a 'mylib::LoRALinear' layer: {{.*}}; use 'torch::nn::BCEWithLogitsLoss', which applies the sigmoid itself [torch-bce-on-logits]
  // CHECK-MESSAGES: :[[@LINE-18]]:51: note: a 'mylib::LoRALinear' layer outputs raw logits here, and no sigmoid follows
}

// Positive: an in-house BCE function fed an in-house logit function.
torch::Tensor positive_custom_function(torch::Tensor x, torch::Tensor w, torch::Tensor y) {
  return mylib::weighted_bce(mylib::dense(x, w), y, 2.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'mylib::weighted_bce' expects probabilities in [0, 1], but it is given raw logits from 'mylib::dense': {{.*}}; use 'torch::nn::BCEWithLogitsLoss'
}

// Negative: the in-house probability function ends the model.
torch::Tensor negative_probability_function(CalibratedNet &model, torch::Tensor x,
                                            torch::Tensor y) {
  torch::nn::BCELoss criterion;
  return criterion(model->forward(x), y) + mylib::weighted_bce(model->forward(x), y, 1.0);
}

// Negative: SuggestWithLogits is off.
torch::Tensor negative_no_suggestion(torch::Tensor z, torch::Tensor y) {
  return torch::binary_cross_entropy(torch::sigmoid(z), y);
}

// Negative: deeper than MaxCallDepth (2) helpers are not followed.
torch::Tensor level3(torch::nn::Linear &fc, torch::Tensor x) { return fc->forward(x); }
torch::Tensor level2(torch::nn::Linear &fc, torch::Tensor x) { return level3(fc, x); }
torch::Tensor level1(torch::nn::Linear &fc, torch::Tensor x) { return level2(fc, x); }
torch::Tensor negative_too_deep(torch::nn::Linear &fc, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(level1(fc, x), y);
}

// Positive: within the depth bound.
torch::Tensor positive_shallow(torch::nn::Linear &fc, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(level2(fc, x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: {{.*}} raw logits from 'level2()', which ends in a 'torch::nn::Linear' layer
}
