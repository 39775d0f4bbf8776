// The notes: where the parameters are updated as if the two handles were
// separate networks (the first such update); through a helper, the helper's
// call and the write inside it.
// RUN: %check_torch_tidy %s torch-aliased-module-copy %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-aliased-module-copy %t.real -- %real_flags

#include <torch/torch.h>

struct NetImpl : torch::nn::Cloneable<NetImpl> {
  NetImpl() { reset(); }
  void reset() override { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void hard_update(Net policy) {
  Net target = policy;
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: 'target' is a copy of the module handle 'policy', not of the module: both name one network, so updating 'target' from 'policy' does nothing and 'target' trains along with 'policy'; make a separate copy with 'std::dynamic_pointer_cast<NetImpl>(policy->clone())' [torch-aliased-module-copy]
  // CHECK-FIXES: Net target = std::dynamic_pointer_cast<NetImpl>(policy->clone());
  torch::NoGradGuard no_grad;
  for (auto &p : target->named_parameters())
    p.value().copy_(policy->named_parameters()[p.key()]);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: the parameters of 'target' are updated from 'policy' here, as if they were separate networks
}

void soft_update(Net &target, const Net &source, double tau);

class Agent {
public:
  Agent() : policy_(), target_(policy_) {}
  // CHECK-NOTES: :[[@LINE-1]]:32: warning: 'target_' is a copy of the module handle 'policy_', not of the module: both name one network, so updating 'target_' from 'policy_' does nothing and 'target_' trains along with 'policy_'; make a separate copy with 'std::dynamic_pointer_cast<NetImpl>(policy_->clone())' [torch-aliased-module-copy]
  // CHECK-FIXES: Agent() : policy_(), target_(std::dynamic_pointer_cast<NetImpl>(policy_->clone())) {}
  void learn() { soft_update(target_, policy_, 0.005); }
  // CHECK-NOTES: :[[@LINE-1]]:18: note: 'soft_update' updates the parameters of 'target_' from 'policy_' here, as if they were separate networks

private:
  Net policy_;
  Net target_;
};

void soft_update(Net &target, const Net &source, double tau) {
  torch::NoGradGuard no_grad;
  auto src = source->parameters();
  auto dst = target->parameters();
  for (size_t i = 0; i < dst.size(); ++i)
    dst[i].mul_(1 - tau).add_(src[i], tau);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: the parameters are written here
}
