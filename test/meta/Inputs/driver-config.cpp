// Input of test/meta/driver-gates.test, copied next to a .clang-tidy that
// allows PlainImpl: the test's expectation holds only if that file is not read.
#include <torch/torch.h>

struct PlainImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + torch::ones({2}, torch::kCUDA); }
  // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: module 'PlainImpl' places a tensor on the hard-coded device 'torch::kCUDA'
};
