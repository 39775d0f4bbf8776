// Options: an in-house no-grad scope (an operation under it saves nothing) and
// an in-house function returning a parameter (a tensor that requires grad);
// look-alike guards and unlisted functions change nothing; --dump-config shows
// what was set, and a bad value gets the configuration warning and the default.
// RUN: %check_torch_tidy %s torch-inplace-on-saved-tensor %t.mock -config="{CheckOptions: [{key: torch-inplace-on-saved-tensor.NoGradGuardClasses, value: 'mylib::NoGradScope'}, {key: torch-inplace-on-saved-tensor.ParameterFunctions, value: 'mylib::trainable_scale'}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-inplace-on-saved-tensor %t.real -config="{CheckOptions: [{key: torch-inplace-on-saved-tensor.NoGradGuardClasses, value: 'mylib::NoGradScope'}, {key: torch-inplace-on-saved-tensor.ParameterFunctions, value: 'mylib::trainable_scale'}]}" -- %real_flags
// Without the options, the in-house guard is a look-alike and the function
// returns a plain tensor:
// RUN: %check_torch_tidy -check-suffix=DEFAULT %s torch-inplace-on-saved-tensor %t.default -- %mock_flags
// RUN: %check_torch_tidy -check-suffixes=DEFAULT,BADINT %s torch-inplace-on-saved-tensor %t.badint -config="{CheckOptions: [{key: torch-inplace-on-saved-tensor.MaxCallDepth, value: 'abc'}]}" -- %mock_flags
// CHECK-MESSAGES-BADINT: warning: invalid configuration value 'abc' for option 'torch-inplace-on-saved-tensor.MaxCallDepth'; expected a non-negative integer; using the default '4' [clang-tidy-config]
// RUN: %clang_tidy_torch -checks='-*,torch-inplace-on-saved-tensor' -config="{CheckOptions: [{key: torch-inplace-on-saved-tensor.ParameterFunctions, value: 'mylib::trainable_scale'}, {key: torch-inplace-on-saved-tensor.MaxCallDepth, value: 'abc'}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-inplace-on-saved-tensor.ParameterFunctions: 'mylib::trainable_scale'
// DUMP-DAG: torch-inplace-on-saved-tensor.NoGradGuardClasses: ''
// DUMP-DAG: torch-inplace-on-saved-tensor.MaxCallDepth: '4'

#include <torch/torch.h>

namespace mylib {
// An in-house scope that turns autograd off (its constructor lives elsewhere).
struct NoGradScope {
  NoGradScope();
  ~NoGradScope();
};
// Defined in the library's own translation units.
torch::Tensor trainable_scale();
torch::Tensor frozen_scale();
} // namespace mylib

// With the option, a parameter: the plain operand is saved.
void operand_of_parameter(torch::Tensor a) {
  auto y = a * mylib::trainable_scale();
  a.add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'add_' on 'a', which '*' saved for the gradient of its other operand: backward() will throw 'one of the variables needed for gradient computation has been modified by an inplace operation' after the forward pass has run; use the out-of-place 'add', or change 'a.clone()' instead [torch-inplace-on-saved-tensor]
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: '*' saves 'a' here to compute the gradient of its other operand
  y.sum().backward();
}

// An unlisted function: a plain tensor.
void operand_of_plain(torch::Tensor a) {
  auto y = a * mylib::frozen_scale();
  a.add_(1);
  y.sum().backward();
}

// Under the in-house scope the sigmoid records nothing; without the option it
// is a look-alike.
torch::Tensor inhouse_guard(torch::nn::Linear &fc, const torch::Tensor &x) {
  mylib::NoGradScope scope;
  auto g = torch::sigmoid(fc->forward(x));
  g.mul_(2);
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:5: warning: in-place 'mul_' on 'g', the output of 'sigmoid', which autograd saved for its backward pass: {{.*}} [torch-inplace-on-saved-tensor]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-3]]:19: note: 'sigmoid' saves its output for the backward pass here
  return g;
}
