#include "net.h"

MlpImpl::MlpImpl() {
  fc1 = register_module("fc1", torch::nn::Linear(784, 128));
  fc2 = register_module("fc2", torch::nn::Linear(256, 10));
}

ConvImpl::ConvImpl()
    : c1(register_module("c1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 3)))),
      c2(register_module("c2", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3)))) {
  register_module("relu", relu);
}

RegressorImpl::RegressorImpl() {
  hidden = register_module("hidden", torch::nn::Linear(8, 16));
  out = register_module("out", torch::nn::Linear(16, 1));
}

GoodImpl::GoodImpl() {
  a = register_module("a", torch::nn::Linear(784, 128));
  b = register_module("b", torch::nn::Linear(128, 10));
}

TwoImpl::TwoImpl() {
  a = register_module("a", torch::nn::Linear(784, 128));
  b = register_module("b", torch::nn::Linear(128, 10));
}

TwoImpl::TwoImpl(int64_t wide) {
  a = register_module("a", torch::nn::Linear(784, 256));
  b = register_module("b", torch::nn::Linear(wide, 10));
}

SizedImpl::SizedImpl(int64_t hidden) {
  a = register_module("a", torch::nn::Linear(784, hidden));
  b = register_module("b", torch::nn::Linear(256, 10));
}

BranchImpl::BranchImpl(bool wide) {
  a = register_module("a", torch::nn::Linear(784, 128));
  if (wide)
    b = register_module("b", torch::nn::Linear(256, 10));
  else
    b = register_module("b", torch::nn::Linear(128, 10));
}
