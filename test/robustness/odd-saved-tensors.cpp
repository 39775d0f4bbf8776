// In-place changes of saved tensors in odd code: templates (an uninstantiated
// one is not judged, an instantiated one is reported once), dependent types,
// macros (reported, no fix-it inside them), self-assignments, swaps, chains of
// in-place calls, a 300-term product, a 200-call chain, recursion, a lambda
// that calls itself. Nothing crashes, nothing is reported twice.
// RUN: %check_torch_tidy %s torch-inplace-on-saved-tensor %t.mock -- %mock_flags

#include <torch/torch.h>

#include <functional>
#include <utility>

template <typename T> T never_instantiated(T x) {
  auto g = torch::sigmoid(x);
  g.mul_(2);
  return g;
}

template <typename M> struct Holder {
  M m;
  auto run(const torch::Tensor &x) -> decltype(m->forward(x)) {
    auto y = m->forward(x).exp();
    y.add_(1);
    return y;
  }
};

template <typename M> torch::Tensor gated(M &m, const torch::Tensor &x) {
  auto g = torch::sigmoid(m->forward(x));
  g.mul_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'mul_' on 'g', the output of 'sigmoid', which autograd saved for its backward pass: {{.*}} [torch-inplace-on-saved-tensor]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'sigmoid' saves its output
  return g;
}
template torch::Tensor gated(torch::nn::Linear &, const torch::Tensor &);
template torch::Tensor gated(torch::nn::Sequential &, const torch::Tensor &);

#define STRETCH(t) (t).mul_(2)
#define GATE(t) torch::sigmoid(t)
torch::Tensor macros(torch::nn::Linear &fc, const torch::Tensor &x) {
  auto y = torch::tanh(fc(x));
  auto z = STRETCH(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: in-place 'mul_' on 'y', the output of 'tanh'
  // CHECK-MESSAGES: :[[@LINE-6]]:24: note: expanded from macro 'STRETCH'
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: 'tanh' saves its output
  auto g = GATE(fc(x));
  g.add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'add_' on 'g', the output of 'sigmoid'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'sigmoid' saves its output
  // CHECK-MESSAGES: :[[@LINE-11]]:24: note: expanded from macro 'GATE'
  return z + g;
}

torch::Tensor odd_writes(torch::nn::Linear &fc, const torch::Tensor &x,
                         torch::Tensor other) {
  auto y = fc(x).sigmoid();
  y = y;
  std::swap(y, other);
  y.mul_(2);
  auto w = fc(x).relu();
  w.mul_(2).add_(1).mul_(3);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'mul_' on 'w', the output of 'relu'
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'relu' saves its output
  return y + w + other;
}

torch::Tensor long_chains(torch::nn::Linear &fc, const torch::Tensor &x) {
  auto h = fc(x);
  auto p = h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h * h;
  auto q = fc(x).tanh();
  q.mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2).mul_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'mul_' on 'q', the output of 'tanh'
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'tanh' saves its output
  return p + q;
}

torch::Tensor recursive(torch::nn::Linear &fc, const torch::Tensor &x, int n) {
  if (n == 0)
    return fc(x);
  auto y = recursive(fc, x, n - 1).sigmoid();
  return recursive(fc, y, n - 1);
}

void self_calling(torch::nn::Linear &fc, const torch::Tensor &x) {
  std::function<torch::Tensor(torch::Tensor, int)> f =
      [&](torch::Tensor t, int n) -> torch::Tensor {
    return n == 0 ? fc(t) : f(t, n - 1).exp();
  };
  auto e = f(x, 3);
  e.mul_(2);
  e.sum().backward();
}
