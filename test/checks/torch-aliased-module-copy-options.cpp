// Options: MaxCallDepth, the levels of helpers a parameter update is followed
// through out to the function holding the two handles (that function is level
// 0). With 2, an update two helpers down is seen, three helpers down it is
// not; with 0 only an update written where the handles are named counts;
// --dump-config shows the value, and a value that is not a count gets the
// default (4, which sees the update three helpers down).
// RUN: %check_torch_tidy -check-suffixes=,TWO %s torch-aliased-module-copy %t.mock -config="{CheckOptions: [{key: torch-aliased-module-copy.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy -check-suffixes=,TWO %s torch-aliased-module-copy %t.real -config="{CheckOptions: [{key: torch-aliased-module-copy.MaxCallDepth, value: 2}]}" -- %real_flags
// RUN: %check_torch_tidy %s torch-aliased-module-copy %t.zero -config="{CheckOptions: [{key: torch-aliased-module-copy.MaxCallDepth, value: 0}]}" -- %mock_flags
// RUN: %check_torch_tidy -check-suffixes=,TWO,FOUR,BAD %s torch-aliased-module-copy %t.bad -config="{CheckOptions: [{key: torch-aliased-module-copy.MaxCallDepth, value: -1}]}" -- %mock_flags
// RUN: %clang_tidy_torch -checks='-*,torch-aliased-module-copy' -config="{CheckOptions: [{key: torch-aliased-module-copy.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP: torch-aliased-module-copy.MaxCallDepth: '2'
// CHECK-MESSAGES-BAD: warning: invalid configuration value '-1' for option 'torch-aliased-module-copy.MaxCallDepth'; expected a non-negative integer; using the default '4' [clang-tidy-config]

#include <torch/torch.h>

struct NetImpl : torch::nn::Cloneable<NetImpl> {
  NetImpl() { reset(); }
  void reset() override { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void copy_params(Net &into, Net &from) {
  torch::NoGradGuard no_grad;
  auto dst = into->parameters();
  auto src = from->parameters();
  for (size_t i = 0; i < dst.size(); ++i)
    dst[i].copy_(src[i]);
}
void level2(Net &into, Net &from) { copy_params(into, from); }
void level3(Net &into, Net &from) { level2(into, from); }

// Written where the handles are: level 0, seen with any depth.
void direct(Net policy) {
  Net target = policy;
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'target' is a copy of the module handle 'policy', not of the module: {{.*}} [torch-aliased-module-copy]
  // CHECK-FIXES: Net target = std::dynamic_pointer_cast<NetImpl>(policy->clone());
  auto dst = target->parameters();
  auto src = policy->parameters();
  for (size_t i = 0; i < dst.size(); ++i)
    dst[i].copy_(src[i]);
}

// Two helpers down: seen with 2, not with 0.
void two_down(Net policy) {
  Net target = policy;
  // CHECK-MESSAGES-TWO: :[[@LINE-1]]:16: warning: 'target' is a copy of the module handle 'policy', not of the module: {{.*}} [torch-aliased-module-copy]
  // CHECK-FIXES-TWO: Net target = std::dynamic_pointer_cast<NetImpl>(policy->clone());
  level2(target, policy);
}

// Three helpers down: seen only with the default 4.
void three_down(Net policy) {
  Net target = policy;
  // CHECK-MESSAGES-FOUR: :[[@LINE-1]]:16: warning: 'target' is a copy of the module handle 'policy', not of the module: {{.*}} [torch-aliased-module-copy]
  // CHECK-FIXES-FOUR: Net target = std::dynamic_pointer_cast<NetImpl>(policy->clone());
  level3(target, policy);
}
