#include "net.h"

// N1: switches.cpp turns autograd off for the rest of the block.
void n1_frozen(Net &model) {
  freeze_autograd();
  for (auto &p : model->parameters())
    p.mul_(0.5);
  thaw_autograd();
}

// N2: the same through a helper of switches.cpp; the loop's losses carry no
// graph.
double n2_evaluate(Net &model, torch::Tensor x, torch::Tensor y) {
  freeze_through();
  torch::Tensor total = torch::zeros({1});
  for (int i = 0; i < 10; ++i)
    total += torch::mse_loss(model->forward(x), y);
  thaw_autograd();
  return total.item<double>();
}

// P1: switched back on before the update.
void p1_thawed(Net &model) {
  freeze_autograd();
  thaw_autograd();
  for (auto &p : model->parameters())
    p.mul_(0.5);
}

// P2: a switch in a branch may not run.
void p2_maybe(Net &model, bool f) {
  freeze_maybe(f);
  for (auto &p : model->parameters())
    p.mul_(0.5);
}

// P3: a guard ends with its function.
void p3_guarded(Net &model) {
  guarded();
  for (auto &p : model->parameters())
    p.mul_(0.5);
}
