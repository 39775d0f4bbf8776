// Broken module classes must not crash the module model: clang-tidy reports the
// compile errors and nothing else goes wrong.
// RUN: not %clang_tidy_torch -checks='-*,torch-*' %s -- %mock_flags > %t.mock.out 2>&1
// RUN: FileCheck %s --input-file=%t.mock.out
// RUN: not %clang_tidy_torch -checks='-*,torch-*' %s -- %real_flags > %t.real.out 2>&1
// RUN: FileCheck %s --input-file=%t.real.out
// CHECK: error: unknown type name 'UnknownLayer'
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump

#include <torch/torch.h>

struct BadMemberImpl : torch::nn::Module {
  BadMemberImpl() { fc = torch::nn::Linear(4, 4); other = UnknownLayer(3); }
  torch::Tensor forward(torch::Tensor x) { return other(fc(x)); }
  torch::nn::Linear fc{nullptr};
  UnknownLayer other;
};

struct BadCallImpl : torch::nn::Module {
  BadCallImpl() {
    fc = register_module(torch::nn::Linear(4, 4));
    w = register_parameter("w", 3, 4, 5);
    undeclared_helper(*this, fc);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x) * w; }
  torch::nn::Linear fc{nullptr};
  torch::Tensor w;
};

struct CycleImpl : torch::nn::Module {
  CycleImpl() : CycleImpl(1) {}
  explicit CycleImpl(int n) : CycleImpl() { fc = torch::nn::Linear(n, n); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

struct IncompleteBody : torch::nn::Module {
  IncompleteBody() {
    fc = torch::nn::Linear(4, 4)
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

template <typename T> struct BadTemplateImpl : torch::nn::Module {
  BadTemplateImpl() { fc = T::make(); }
  torch::nn::Linear fc{nullptr};
};
BadTemplateImpl<int> instantiated_badly;
