// RUN: %check_torch_tidy %s torch-aliased-module-copy %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-aliased-module-copy %t.real -- %real_flags

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

// A Q-network that clone() can copy.
struct QNetImpl : torch::nn::Cloneable<QNetImpl> {
  QNetImpl(int64_t in, int64_t out) : in(in), out(out) { reset(); }
  void reset() override { fc = register_module("fc", torch::nn::Linear(in, out)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  int64_t in, out;
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(QNet);

// A module that derives from Module only: its clone() throws.
struct PlainNetImpl : torch::nn::Module {
  PlainNetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(PlainNet);

void ema(QNet &source, QNet &target, double decay) {
  torch::NoGradGuard no_grad;
  auto sp = source->parameters();
  auto tp = target->parameters();
  for (size_t i = 0; i < sp.size(); i++) {
    tp[i].mul_(decay);
    tp[i].add_(sp[i], 1.0 - decay);
  }
}

void run(QNet model);

// ---- positives -------------------------------------------------------------

// A DQN agent: the target network is the policy network's handle, and the
// periodic hard update copies the policy's parameters onto themselves.
class DqnAgent {
public:
  DqnAgent(int64_t in, int64_t out) : policy_(in, out), target_(policy_) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:65: warning: 'target_' is a copy of the module handle 'policy_', not of the module: both name one network, so updating 'target_' from 'policy_' does nothing and 'target_' trains along with 'policy_'; make a separate copy with 'std::dynamic_pointer_cast<QNetImpl>(policy_->clone())' [torch-aliased-module-copy]
  // CHECK-FIXES: DqnAgent(int64_t in, int64_t out) : policy_(in, out), target_(std::dynamic_pointer_cast<QNetImpl>(policy_->clone())) {}
  void sync_target();

private:
  QNet policy_;
  QNet target_;
};

// Defined out of the class, as in a .cpp file.
void DqnAgent::sync_target() {
  torch::NoGradGuard no_grad;
  auto src = policy_->parameters();
  auto dst = target_->parameters();
  for (size_t i = 0; i < src.size(); ++i)
    dst[i].copy_(src[i]);
}

// A soft update over named parameters in the function that makes the copy.
void soft_update_local(QNet policy, double tau) {
  QNet target = policy;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'target' is a copy of the module handle 'policy', not of the module: both name one network, so updating 'target' from 'policy' does nothing and 'target' trains along with 'policy'; make a separate copy with 'std::dynamic_pointer_cast<QNetImpl>(policy->clone())' [torch-aliased-module-copy]
  // CHECK-FIXES: QNet target = std::dynamic_pointer_cast<QNetImpl>(policy->clone());
  torch::NoGradGuard no_grad;
  auto params = policy->named_parameters();
  for (auto &item : target->named_parameters()) {
    auto &p = params[item.key()];
    item.value().mul_(1 - tau).add_(tau * p);
  }
}

// An exponential moving average through a helper; the average starts empty
// and is then assigned the model's handle.
void train_with_ema(QNet model, int64_t steps) {
  QNet averaged = nullptr;
  averaged = model;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'averaged' is a copy of the module handle 'model', not of the module: both name one network, so updating 'averaged' from 'model' does nothing and 'averaged' trains along with 'model'; make a separate copy with 'std::dynamic_pointer_cast<QNetImpl>(model->clone())' [torch-aliased-module-copy]
  // CHECK-FIXES: averaged = std::dynamic_pointer_cast<QNetImpl>(model->clone());
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  for (int64_t s = 0; s < steps; ++s) {
    opt.zero_grad();
    model->forward(torch::randn({8, 4})).sum().backward();
    opt.step();
    ema(model, averaged, 0.999);
  }
}

// The "hard update" written as an assignment: the target was built on its
// own, but after the first sync it is the online network, and the soft update
// that follows does nothing.
class Ddpg {
public:
  Ddpg() : actor_(4, 2), target_actor_(4, 2) {}
  void hard_update() { target_actor_ = actor_; }
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'target_actor_' is a copy of the module handle 'actor_', not of the module: both name one network, so updating 'target_actor_' from 'actor_' does nothing and 'target_actor_' trains along with 'actor_'; make a separate copy with 'std::dynamic_pointer_cast<QNetImpl>(actor_->clone())' [torch-aliased-module-copy]
  // CHECK-FIXES: void hard_update() { target_actor_ = std::dynamic_pointer_cast<QNetImpl>(actor_->clone()); }
  void soft_update(double tau) {
    torch::NoGradGuard no_grad;
    auto target = target_actor_->parameters();
    auto online = actor_->parameters();
    for (size_t i = 0; i < target.size(); ++i)
      target[i].copy_(tau * online[i] + (1 - tau) * target[i]);
  }

private:
  QNet actor_;
  QNet target_actor_;
};

// Two members made from one constructor argument.
class Agent {
public:
  explicit Agent(const QNet &net) : policy_(net), target_(net) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: 'target_' is a copy of the module handle 'net', not of the module: both name one network, so updating 'target_' from 'policy_' does nothing and 'target_' trains along with 'policy_'; make a separate copy with 'std::dynamic_pointer_cast<QNetImpl>(net->clone())' [torch-aliased-module-copy]
  // CHECK-FIXES: explicit Agent(const QNet &net) : policy_(net), target_(std::dynamic_pointer_cast<QNetImpl>(net->clone())) {}
  void update() { ema(policy_, target_, 0.0); }

private:
  QNet policy_;
  QNet target_;
};

// std::shared_ptr handles and a whole-vector copy.
void shared_pointers() {
  auto online = std::make_shared<QNetImpl>(4, 2);
  std::shared_ptr<QNetImpl> frozen = online;
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'frozen' is a copy of the module handle 'online', not of the module: both name one network, so updating 'frozen' from 'online' does nothing and 'frozen' trains along with 'online'; make a separate copy with 'std::dynamic_pointer_cast<QNetImpl>(online->clone())' [torch-aliased-module-copy]
  // CHECK-FIXES: std::shared_ptr<QNetImpl> frozen = std::dynamic_pointer_cast<QNetImpl>(online->clone());
  torch::NoGradGuard no_grad;
  torch::nn::utils::vector_to_parameters(
      torch::nn::utils::parameters_to_vector(online->parameters()),
      frozen->parameters());
}

// A built-in layer, its weight copied directly.
void linear_layers() {
  torch::nn::Linear layer(4, 2);
  auto copy = layer;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'copy' is a copy of the module handle 'layer', not of the module: both name one network, so updating 'copy' from 'layer' does nothing and 'copy' trains along with 'layer'; make a separate copy with 'torch::nn::Linear(std::dynamic_pointer_cast<torch::nn::LinearImpl>(layer->clone()))' [torch-aliased-module-copy]
  // CHECK-FIXES: auto copy = torch::nn::Linear(std::dynamic_pointer_cast<torch::nn::LinearImpl>(layer->clone()));
  torch::NoGradGuard no_grad;
  copy->weight.copy_(layer->weight);
  // The fixed 'copy' is still a holder (the compile of the fixed file fails
  // on a std::shared_ptr here).
  torch::nn::Linear &same = copy;
  (void)same;
}

// A module that is not Cloneable: no fix-it, the message says what to derive.
class PlainAgent {
public:
  PlainAgent() { target_ = policy_; }
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'target_' is a copy of the module handle 'policy_', not of the module: both name one network, so updating 'target_' from 'policy_' does nothing and 'target_' trains along with 'policy_'; derive 'PlainNetImpl' from 'torch::nn::Cloneable<PlainNetImpl>' (implementing 'reset()') and make a separate copy with 'clone()' [torch-aliased-module-copy]
  // CHECK-FIXES: PlainAgent() { target_ = policy_; }
  void sync() {
    torch::NoGradGuard no_grad;
    for (auto &p : target_->named_parameters())
      p.value().copy_(policy_->named_parameters()[p.key()]);
  }

private:
  PlainNet policy_;
  PlainNet target_{nullptr};
};

// Default member initialisers of a class with no constructor of its own.
struct AgentWithDefaults {
  QNet policy{4, 2};
  QNet target = policy;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'target' is a copy of the module handle 'policy', not of the module: both name one network, so updating 'target' from 'policy' does nothing and 'target' trains along with 'policy'; make a separate copy with 'std::dynamic_pointer_cast<QNetImpl>(policy->clone())' [torch-aliased-module-copy]
  // CHECK-FIXES: QNet target = std::dynamic_pointer_cast<QNetImpl>(policy->clone());
  void sync() { ema(policy, target, 0.0); }
};

// ---- look-alike negatives --------------------------------------------------

// The correct agent: the target is a clone.
class ClonedAgent {
public:
  ClonedAgent()
      : policy_(4, 2),
        target_(std::dynamic_pointer_cast<QNetImpl>(policy_->clone())) {}
  void sync() { ema(policy_, target_, 0.0); }

private:
  QNet policy_;
  QNet target_;
};

// Two networks built on their own, synced.
class SeparateAgent {
public:
  SeparateAgent() : policy_(4, 2), target_(4, 2) {}
  void sync() {
    torch::NoGradGuard no_grad;
    auto src = policy_->parameters();
    auto dst = target_->parameters();
    for (size_t i = 0; i < src.size(); ++i)
      dst[i].copy_(src[i]);
  }

private:
  QNet policy_;
  QNet target_;
};

// An empty handle later given a network of its own.
void assigned_later(QNet policy) {
  QNet target = nullptr;
  target = QNet(4, 2);
  ema(policy, target, 0.99);
}

// A copy replaced by a construction before the sync.
void copy_then_construct(QNet policy) {
  QNet target = policy;
  target = QNet(4, 2);
  ema(policy, target, 0.99);
}

// A copy only passed on or stored to share one model: no parameter update.
struct Trainer {
  explicit Trainer(QNet model) : model_(model) {}
  QNet model_;
};
void share_only(QNet model) {
  Trainer trainer(model);
  QNet shared = model;
  run(shared);
  std::vector<QNet> handles{model, model};
  run(handles[0]);
}

// Data-parallel replicas built with clone().
void replicas(QNet model) {
  std::vector<std::shared_ptr<torch::nn::Module>> copies;
  for (int i = 0; i < 2; ++i)
    copies.push_back(model->clone());
  auto replica = std::dynamic_pointer_cast<QNetImpl>(copies[0]);
  torch::NoGradGuard no_grad;
  for (auto &p : replica->named_parameters())
    p.value().copy_(model->named_parameters()[p.key()]);
}

// A member copied in the constructor but rebuilt before it is synced.
class Rebuilt {
public:
  Rebuilt() : policy_(4, 2), target_(policy_) {}
  void rebuild() { target_ = QNet(4, 2); }
  void sync() { ema(policy_, target_, 0.5); }

private:
  QNet policy_;
  QNet target_;
};

// Copies of tensors, not of modules.
void tensors_only(QNet policy, QNet target) {
  torch::Tensor w = policy->fc->weight;
  torch::NoGradGuard no_grad;
  target->fc->weight.copy_(w);
}

// A module updated from itself is not this check's business.
void self_update(QNet policy) { ema(policy, policy, 0.5); }

// Weight tying: one module shared on purpose, no parameter update between them.
struct Tied : torch::nn::Module {
  Tied() {
    encoder = register_module("encoder", torch::nn::Linear(4, 4));
    decoder = encoder;
  }
  torch::nn::Linear encoder{nullptr}, decoder{nullptr};
};

// A copy replaced by a clone later in the same constructor.
class ClonedInTheBody {
public:
  ClonedInTheBody() : policy_(4, 2), target_(policy_) {
    target_ = std::dynamic_pointer_cast<QNetImpl>(policy_->clone());
  }
  void sync() { ema(policy_, target_, 0.5); }

private:
  QNet policy_;
  QNet target_;
};

// A local copy replaced by a clone before the update.
void copy_then_clone(QNet policy) {
  QNet best = policy;
  best = std::dynamic_pointer_cast<QNetImpl>(policy->clone());
  ema(policy, best, 0.0);
}

// A second handle used to evaluate the model being trained: no update.
void evaluate_through_a_copy(QNet model, torch::Tensor x) {
  QNet view = model;
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  opt.zero_grad();
  model->forward(x).sum().backward();
  opt.step();
  torch::NoGradGuard no_grad;
  run(view);
}

// A handle returned by a function is not followed (a limit, not a guess).
QNet current(QNet model) { return model; }
void copy_through_a_function(QNet model) {
  QNet target = current(model);
  ema(model, target, 0.9);
}

// Default member initialisers that build two networks.
struct SeparateDefaults {
  QNet policy{4, 2};
  QNet target{4, 2};
  void sync() { ema(policy, target, 0.0); }
};
