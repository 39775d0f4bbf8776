// Module handles copied in odd code: templates (reported once, no fix-it),
// macros (no fix-it), a helper that recurses with its arguments swapped, a
// cycle of copies, self-copies, copies through std::move and casts, a lambda
// that updates the parameters, and a MaxCallDepth far above any chain. Every
// check runs; nothing crashes.
// RUN: %check_torch_tidy %s 'torch-*' %t.mock -config="{CheckOptions: [{key: torch-aliased-module-copy.MaxCallDepth, value: 100000}]}" -- %mock_flags
// RUN: %check_torch_tidy %s 'torch-*' %t.real -config="{CheckOptions: [{key: torch-aliased-module-copy.MaxCallDepth, value: 100000}]}" -- %real_flags

#include <torch/torch.h>

#include <memory>
#include <utility>

struct NetImpl : torch::nn::Cloneable<NetImpl> {
  NetImpl() { reset(); }
  void reset() override { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void sync(Net &into, Net &from, int n) {
  if (n <= 0)
    return;
  torch::NoGradGuard no_grad;
  auto dst = into->parameters();
  auto src = from->parameters();
  for (size_t i = 0; i < dst.size(); ++i)
    dst[i].copy_(src[i]);
  sync(from, into, n - 1);
}

// A class template: the copy is reported once for both instantiations.
template <class M> class Agent {
public:
  Agent() : policy_(), target_(policy_) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'target_' is a copy of the module handle 'policy_', not of the module: {{.*}}; make a separate copy with 'std::dynamic_pointer_cast<NetImpl>(policy_->clone())' [torch-aliased-module-copy]
  // CHECK-FIXES: Agent() : policy_(), target_(policy_) {}
  void update() { sync(target_, policy_, 1); }

private:
  M policy_;
  M target_;
};
template class Agent<Net>;
void use_agents() {
  Agent<Net> a;
  a.update();
}

#define COPY_OF(x) x
void in_a_macro(Net policy) {
  Net target = COPY_OF(policy);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'target' is a copy of the module handle 'policy', not of the module: {{.*}}; make a separate copy with 'clone()' [torch-aliased-module-copy]
  // CHECK-FIXES: Net target = COPY_OF(policy);
  sync(target, policy, 2);
}

void cycle_of_copies(Net a, int n) {
  Net b = nullptr, c = nullptr;
  b = c;
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'b' is a copy of the module handle 'c', not of the module: {{.*}} [torch-aliased-module-copy]
  // CHECK-FIXES: b = std::dynamic_pointer_cast<NetImpl>(c->clone());
  c = b;
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'c' is a copy of the module handle 'b', not of the module: {{.*}} [torch-aliased-module-copy]
  // CHECK-FIXES: c = std::dynamic_pointer_cast<NetImpl>(b->clone());
  a = a;
  sync(b, c, n);
}

void moves_and_casts(std::shared_ptr<NetImpl> online) {
  std::shared_ptr<NetImpl> other = online;
  std::shared_ptr<NetImpl> frozen =
      std::static_pointer_cast<NetImpl>(std::move(other));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'frozen' is a copy of the module handle 'other', not of the module: {{.*}}; make a separate copy with 'clone()' [torch-aliased-module-copy]
  auto update = [&] {
    torch::NoGradGuard no_grad;
    for (auto &p : frozen->named_parameters())
      p.value().copy_(online->named_parameters()[p.key()]);
  };
  update();
}
