#include "net.h"

#include <utility>

// P1: a DQN agent whose target network is the policy's handle; the periodic
// update is soft_update() of updates.cpp.
class DqnAgent {
public:
  DqnAgent() : policy_(4, 2), target_(policy_) {}
  void sync() { soft_update(target_, policy_, 0.01); }

private:
  QNet policy_;
  QNet target_;
};

// P2: an average of the weights that is the model itself, through ema().
void train_averaged(QNet model, int64_t steps) {
  QNet averaged = model;
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  for (int64_t s = 0; s < steps; ++s) {
    opt.zero_grad();
    model->forward(torch::randn({8, 4})).sum().backward();
    opt.step();
    ema(model, averaged, 0.999);
  }
}

// P3: a hard update through a helper of this file, which hands both on to
// hard_update() of updates.cpp.
void refresh(QNet &t, QNet &p) { hard_update(t, p); }
void periodic(QNet policy) {
  QNet target = policy;
  refresh(target, policy);
}

// P4: the update goes through two functions of updates.cpp.
void twice_removed(QNet policy) {
  auto target = policy;
  sync_through(target, policy);
}

// N1: a separate copy made with clone().
class GoodAgent {
public:
  GoodAgent()
      : policy_(4, 2),
        target_(std::dynamic_pointer_cast<QNetImpl>(policy_->clone())) {}
  void sync() { soft_update(target_, policy_, 0.01); }

private:
  QNet policy_;
  QNet target_;
};

// N2: two networks built on their own.
void separate() {
  QNet online(4, 2), frozen(4, 2);
  hard_update(frozen, online);
}

// N3: a helper that reads both and writes neither.
void read_copy(QNet policy) {
  QNet view = policy;
  reads_only(view, policy);
}

// N4: a helper that updates the first from itself.
void own_update(QNet policy) {
  QNet alias = policy;
  self_update(alias, policy);
}

// N5: no summary describes it.
void unknown(QNet policy) {
  QNet alias = policy;
  undescribed(alias, policy);
}

// N6: the copy is replaced by a network of its own before the update.
void replaced(QNet policy) {
  QNet target = policy;
  target = QNet(4, 2);
  soft_update(target, policy, 0.5);
}
