// Options: TrainingFlagFunctions adds in-house functions whose first bool
// parameter is the training flag; MaxCallDepth bounds the helpers followed
// (level 1 read, level 2 not with MaxCallDepth: 1); --dump-config shows what
// was set.
// RUN: %check_torch_tidy %s torch-dropout-training-flag %t.mock -config="{CheckOptions: [{key: torch-dropout-training-flag.TrainingFlagFunctions, value: 'mylib::drop;mylib::Noise::apply'}, {key: torch-dropout-training-flag.MaxCallDepth, value: 1}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-dropout-training-flag %t.real -config="{CheckOptions: [{key: torch-dropout-training-flag.TrainingFlagFunctions, value: 'mylib::drop;mylib::Noise::apply'}, {key: torch-dropout-training-flag.MaxCallDepth, value: 1}]}" -- %real_flags
// Without the option the in-house function is not reported, and the helper
// two calls down is.
// RUN: %clang_tidy_torch -checks='-*,torch-dropout-training-flag' %s -- %mock_flags 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-NOT: 'mylib::drop'
// DEFAULT: :[[@LINE+25]]:10: warning: 'torch::dropout' runs in training mode
// DEFAULT-NOT: 'mylib::drop'
// DEFAULT: :[[@LINE+29]]:10: warning: 'torch::dropout' runs in training mode
// DEFAULT-NOT: 'mylib::drop'
// RUN: %clang_tidy_torch -checks='-*,torch-dropout-training-flag' -config="{CheckOptions: [{key: torch-dropout-training-flag.TrainingFlagFunctions, value: 'mylib::drop'}, {key: torch-dropout-training-flag.MaxCallDepth, value: 1}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-dropout-training-flag.MaxCallDepth: '1'
// DUMP-DAG: torch-dropout-training-flag.TrainingFlagFunctions: 'mylib::drop'

#include <torch/torch.h>

namespace mylib {
// An in-house dropout: its flag is its first bool parameter.
inline torch::Tensor drop(torch::Tensor x, double p, bool train_mode) {
  return train_mode ? x * 0 : x;
}
// An in-house noise layer's method.
struct Noise {
  torch::Tensor apply(torch::Tensor x, bool training) const { return x; }
};
// Not listed: silent.
inline torch::Tensor other(torch::Tensor x, bool train) { return x; }
} // namespace mylib

// Level 1 from forward: read.
torch::Tensor level1(torch::Tensor x) {
  return torch::dropout(x, 0.5, true);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::dropout' runs in training mode {{.*}}; pass the module's 'is_training()' down to 'level1' and on to this call [torch-dropout-training-flag]
  // CHECK-MESSAGES: :[[@LINE+17]]:12: note: 'level1' is called here, in 'NetImpl::forward', a method of a module
}
// Level 2: read only with a larger MaxCallDepth.
torch::Tensor level2(torch::Tensor x) {
  return torch::dropout(x, 0.5, true);
}
torch::Tensor level1b(torch::Tensor x) { return level2(x); }

struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    x = mylib::drop(x, 0.5, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'mylib::drop' runs in training mode even after 'eval()': its 'train_mode' argument is 'true', so evaluation outputs differ from the trained model's; pass 'is_training()' [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = mylib::drop(x, 0.5, is_training());{{$}}
    x = mylib::other(x, true);
    x = noise.apply(x, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'mylib::Noise::apply' runs in training mode even after 'eval()': its 'training' argument is 'true', {{.*}}; pass 'is_training()' [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = noise.apply(x, is_training());{{$}}
    return level1(x) + level1b(x);
  }
  mylib::Noise noise;
};
