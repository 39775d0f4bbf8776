// Options: ShapePreserving adds in-house functions and module classes that
// keep their input's shape; without it, they end what is known and the check
// is silent after them; --dump-config shows what was set, and a value that is
// not a list of qualified names gets the default.
// RUN: %check_torch_tidy -check-suffixes=,OPT %s torch-layer-shape-mismatch %t.mock -config="{CheckOptions: [{key: torch-layer-shape-mismatch.ShapePreserving, value: 'mylib::swish;::mylib::SwishImpl'}]}" -- %mock_flags
// RUN: %check_torch_tidy -check-suffixes=,OPT %s torch-layer-shape-mismatch %t.real -config="{CheckOptions: [{key: torch-layer-shape-mismatch.ShapePreserving, value: 'mylib::swish;::mylib::SwishImpl'}]}" -- %real_flags
// RUN: %check_torch_tidy %s torch-layer-shape-mismatch %t.default -- %mock_flags
// RUN: %check_torch_tidy -check-suffixes=,BAD %s torch-layer-shape-mismatch %t.bad -config="{CheckOptions: [{key: torch-layer-shape-mismatch.ShapePreserving, value: 'mylib::swish, mylib::other'}]}" -- %mock_flags
// RUN: %clang_tidy_torch -checks='-*,torch-layer-shape-mismatch' -config="{CheckOptions: [{key: torch-layer-shape-mismatch.ShapePreserving, value: 'mylib::swish'}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP: torch-layer-shape-mismatch.ShapePreserving: 'mylib::swish'
// CHECK-MESSAGES-BAD: warning: invalid configuration value 'mylib::swish, mylib::other' for option 'torch-layer-shape-mismatch.ShapePreserving'; expected a ';'-separated list of qualified names; using the default '' [clang-tidy-config]

#include <torch/torch.h>

namespace mylib {
// x * sigmoid(x): the same shape as x.
torch::Tensor swish(const torch::Tensor &x);

struct SwishImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return swish(x); }
};
TORCH_MODULE(Swish);
} // namespace mylib

// Always reported: nothing unknown between the two layers.
torch::nn::Sequential plain() {
  return torch::nn::Sequential(torch::nn::Linear(10, 20),
                               torch::nn::Linear(40, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: the Linear at position 2 takes 40 input features but the Linear at position 1 before it gives 20; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
}

// Reported only when Swish keeps the shape.
torch::nn::Sequential with_swish() {
  return torch::nn::Sequential(torch::nn::Linear(10, 20), mylib::Swish(),
                               torch::nn::Linear(40, 1));
  // CHECK-MESSAGES-OPT: :[[@LINE-1]]:32: warning: the Linear at position 3 takes 40 input features but the Linear at position 1 before it gives 20; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
}

struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(10, 20));
    fc2 = register_module("fc2", torch::nn::Linear(40, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = mylib::swish(fc1(x));
    return fc2(x);
    // CHECK-MESSAGES-OPT: :[[@LINE-1]]:12: warning: 'fc2' takes 40 input features but 'fc1' before it gives 20; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
