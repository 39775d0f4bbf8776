// MaxCallDepth: a helper N calls below a constructor is read when
// N <= MaxCallDepth. With 2, a member built two helpers down without being
// registered is reported; three helpers down the helper is not read, so the
// constructor is opaque and nothing is concluded.
// RUN: %check_torch_tidy %s torch-unregistered-module-member %t.mock -config="{CheckOptions: [{key: torch-unregistered-module-member.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-unregistered-module-member %t.real -config="{CheckOptions: [{key: torch-unregistered-module-member.MaxCallDepth, value: 2}]}" -- %real_flags

#include <torch/torch.h>

// Depth 2: followed.
struct Depth2Impl : torch::nn::Module {
  Depth2Impl() { build(3); }
  void build(int64_t n) { make(n); }
  void make(int64_t n) { enc = torch::nn::Linear(n, n); }
  torch::Tensor forward(torch::Tensor x) { return enc->forward(x); }
  torch::nn::Linear enc{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'enc' is never registered {{.*}} [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-4]]:32: note: constructor 'Depth2Impl()' stores a new module in 'enc' here, through 'make', without registering it
  // CHECK-MESSAGES: :[[@LINE-4]]:51: note: 'enc' is used here
};

// Depth 3: not followed.
struct Depth3Impl : torch::nn::Module {
  Depth3Impl() { build(3); }
  void build(int64_t n) { grow(n); }
  void grow(int64_t n) { make(n); }
  void make(int64_t n) { enc = torch::nn::Linear(n, n); }
  torch::Tensor forward(torch::Tensor x) { return enc->forward(x); }
  torch::nn::Linear enc{nullptr};
};
