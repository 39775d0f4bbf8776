// Options: IgnoredFunctions silences the listed LibTorch functions and methods
// (a `Class::method` entry names a method); unlisted ones are still reported;
// --dump-config shows what was set.
// RUN: %check_torch_tidy %s torch-discarded-tensor-result %t.mock -config="{CheckOptions: [{key: torch-discarded-tensor-result.IgnoredFunctions, value: 'at::Tensor::detach;at::relu'}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-discarded-tensor-result %t.real -config="{CheckOptions: [{key: torch-discarded-tensor-result.IgnoredFunctions, value: 'at::Tensor::detach;at::relu'}]}" -- %real_flags
// Without the options the listed calls are reported too.
// RUN: %clang_tidy_torch -checks='-*,torch-discarded-tensor-result' %s -- %mock_flags 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: :[[@LINE+9]]:5: warning: result of 'x.detach()'
// DEFAULT: :[[@LINE+9]]:3: warning: result of 'torch::relu(...)'
// DEFAULT: :[[@LINE+9]]:5: warning: result of 'x.sigmoid()'
// RUN: %clang_tidy_torch -checks='-*,torch-discarded-tensor-result' -config="{CheckOptions: [{key: torch-discarded-tensor-result.IgnoredFunctions, value: 'at::Tensor::detach'}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP: torch-discarded-tensor-result.IgnoredFunctions: 'at::Tensor::detach'

#include <torch/torch.h>

void f(torch::Tensor x) {
  x.detach();
  torch::relu(x);
  x.sigmoid();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.sigmoid()' is discarded: 'sigmoid' returns a new tensor and leaves 'x' unchanged, so the code after it still uses the old tensor; call the in-place 'x.sigmoid_()' or assign the result [torch-discarded-tensor-result]
}
