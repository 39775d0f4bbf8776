// Options: GuardClasses adds in-house RAII guards (and classes derived from
// them); a look-alike that is not listed stays silent; --dump-config shows
// what was set.
// RUN: %check_torch_tidy %s torch-unnamed-grad-guard %t.mock -config="{CheckOptions: [{key: torch-unnamed-grad-guard.GuardClasses, value: 'mylib::EvalScope'}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-unnamed-grad-guard %t.real -config="{CheckOptions: [{key: torch-unnamed-grad-guard.GuardClasses, value: 'mylib::EvalScope'}]}" -- %real_flags
// Without the option only LibTorch's guard is reported.
// RUN: %clang_tidy_torch -checks='-*,torch-unnamed-grad-guard' %s -- %mock_flags 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-NOT: EvalScope
// DEFAULT: :[[@LINE+19]]:3: warning: temporary 'torch::NoGradGuard'
// DEFAULT-NOT: EvalScope
// RUN: %clang_tidy_torch -checks='-*,torch-unnamed-grad-guard' -config="{CheckOptions: [{key: torch-unnamed-grad-guard.GuardClasses, value: 'mylib::EvalScope'}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP: torch-unnamed-grad-guard.GuardClasses: 'mylib::EvalScope'

#include <torch/torch.h>

namespace mylib {
struct EvalScope {
  explicit EvalScope(int level = 0) {}
  ~EvalScope() {}
};
struct DeepEvalScope : EvalScope {};
struct OtherScope {
  ~OtherScope() {}
};
} // namespace mylib

void f() {
  torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'torch::NoGradGuard' is destroyed at the end of this statement, so the code after it still records gradients; give it a name: 'torch::NoGradGuard no_grad;' [torch-unnamed-grad-guard]
  // CHECK-FIXES: {{^}}  torch::NoGradGuard no_grad;{{$}}
  mylib::EvalScope(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'mylib::EvalScope' is destroyed at the end of this statement, so the code after it runs unguarded; give it a name: 'mylib::EvalScope guard(2);' [torch-unnamed-grad-guard]
  // CHECK-FIXES: {{^}}  mylib::EvalScope guard(2);{{$}}
  mylib::DeepEvalScope();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'mylib::DeepEvalScope' {{.*}}; give it a name: 'mylib::DeepEvalScope guard_2;' [torch-unnamed-grad-guard]
  // CHECK-FIXES: {{^}}  mylib::DeepEvalScope guard_2;{{$}}
  mylib::OtherScope();
}
