// Shapes that stress the activation analysis behind torch-bce-on-logits:
// self-referencing containers, mutual recursion, long and exponential chains of
// writes, class templates, virtual forward(), macros. Nothing hangs or crashes,
// and what is reported is right.
// RUN: %check_torch_tidy %s torch-bce-on-logits %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-bce-on-logits %t.real -- %real_flags

#include <torch/torch.h>

#include <memory>

// A Sequential member assigned from itself, ending in a module that calls it.
struct LoopyImpl : torch::nn::Module {
  LoopyImpl() {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(4, 1)));
    body = body;
    body->push_back(torch::nn::Functional([this](torch::Tensor t) { return body->forward(t); }));
  }
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(Loopy);

torch::Tensor self_reference(Loopy &model, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(model->forward(x), y);
}

// Mutually recursive forwards.
struct PingImpl;
struct PongImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
  std::shared_ptr<PingImpl> ping;
};
struct PingImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x.dim() > 3 ? pong->forward(x) : x; }
  std::shared_ptr<PongImpl> pong;
};
torch::Tensor PongImpl::forward(torch::Tensor x) { return ping->forward(x.flatten(1)); }

torch::Tensor mutual_recursion(PingImpl &model, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(model.forward(x), y);
}

// Exponential: every write reads the variable twice.
torch::Tensor doubling(torch::nn::Linear &fc, torch::Tensor x, torch::Tensor y) {
  auto z = fc->forward(x);
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  z = z + z;
  return torch::binary_cross_entropy(z, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'torch::binary_cross_entropy' expects probabilities {{.*}} raw logits from a 'torch::nn::Linear' layer
}

// A long chain of writes: followed as far as is cheap, never reported wrongly.
torch::Tensor long_chain(torch::Tensor x, torch::Tensor y) {
  x = torch::sigmoid(x);
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  x = x.view({-1});
  return torch::binary_cross_entropy(x, y);
}

// A class template module, reported for its instantiation.
template <int Out> struct HeadImpl : torch::nn::Module {
  HeadImpl() : fc(register_module("fc", torch::nn::Linear(8, Out))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
torch::Tensor class_template(HeadImpl<1> &head, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(head.forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: {{.*}} raw logits from 'HeadImpl::forward()', which ends in a 'torch::nn::Linear' layer
}

// Virtual forward(): only the statically known one is followed (here it ends
// in a sigmoid, so nothing is reported).
struct BaseNetImpl : torch::nn::Module {
  virtual torch::Tensor forward(torch::Tensor x) { return torch::sigmoid(x); }
};
struct DerivedNetImpl : BaseNetImpl {
  DerivedNetImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) override { return fc->forward(x); }
  torch::nn::Linear fc;
};
torch::Tensor virtual_forward(std::shared_ptr<BaseNetImpl> net, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(net->forward(x), y);
}

// The whole loss in a macro: reported at the use, no fix.
#define BCE_OF(model, x, y) torch::binary_cross_entropy(model->forward(x), y)
torch::Tensor whole_macro(std::shared_ptr<DerivedNetImpl> net, torch::Tensor x, torch::Tensor y) {
  return BCE_OF(net, x, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: {{.*}} raw logits from 'DerivedNetImpl::forward()'
}

// A function pointer: not followed.
torch::Tensor through_pointer(torch::Tensor (*fn)(torch::Tensor), torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(fn(x), y);
}
