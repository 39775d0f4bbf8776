// The notes: at the layer (or view) that gives the size, and at the
// construction of a member layer when the warning is on its application.
// RUN: %check_torch_tidy %s torch-layer-shape-mismatch %t.mock -- %mock_flags

#include <torch/torch.h>

torch::nn::Sequential sequential() {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3)),
      torch::nn::ReLU(), torch::nn::BatchNorm2d(8));
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: the BatchNorm2d at position 3 takes 8 input channels but the Conv2d at position 1 before it gives 16; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the Conv2d at position 1 gives 16 channels here
}

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(784, 10)); }
  torch::Tensor forward(torch::Tensor x) {
    x = x.reshape({-1, 28 * 28 - 1});
    return fc(x);
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: 'fc' takes 784 input features but 'reshape' before it gives 783; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
    // CHECK-NOTES: :[[@LINE-3]]:9: note: 'reshape' gives 783 features here
    // CHECK-NOTES: :[[@LINE-6]]:42: note: 'fc' is built with 784 input features here
  }
  torch::nn::Linear fc{nullptr};
};
