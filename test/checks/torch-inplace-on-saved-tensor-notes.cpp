// The notes: the operation that saved the tensor, nothing else.
// RUN: %check_torch_tidy %s torch-inplace-on-saved-tensor %t.mock -- %mock_flags

#include <torch/torch.h>

torch::Tensor output_saved(torch::nn::Linear &fc, const torch::Tensor &x) {
  auto p = torch::softmax(fc->forward(x), 1);
  auto z = p.clamp_(1e-6, 1.0);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: in-place 'clamp_' on 'p', the output of 'softmax', which autograd saved for its backward pass: backward() will throw 'one of the variables needed for gradient computation has been modified by an inplace operation' after the forward pass has run; use the out-of-place 'clamp', or change 'p.clone()' instead [torch-inplace-on-saved-tensor]
  // CHECK-NOTES: :[[@LINE-3]]:19: note: 'softmax' saves its output for the backward pass here
  // CHECK-FIXES: {{^}}  auto z = p.clamp(1e-6, 1.0);{{$}}
  return z.log();
}

void operand_saved(torch::nn::Linear &fc, const torch::Tensor &x,
                   torch::Tensor weights) {
  auto out = fc->forward(x);
  auto weighted = torch::matmul(weights, out);
  weights /= weights.sum();
  // CHECK-NOTES: :[[@LINE-1]]:11: warning: in-place '/=' on 'weights', which 'matmul' saved for the gradient of its other operand: backward() will throw 'one of the variables needed for gradient computation has been modified by an inplace operation' after the forward pass has run; use the out-of-place '/', or change 'weights.clone()' instead [torch-inplace-on-saved-tensor]
  // CHECK-NOTES: :[[@LINE-3]]:26: note: 'matmul' saves 'weights' here to compute the gradient of its other operand
  weighted.sum().backward();
}
