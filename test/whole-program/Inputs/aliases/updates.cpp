#include "net.h"

void soft_update(QNet &target, const QNet &source, double tau) {
  torch::NoGradGuard no_grad;
  auto t = target->parameters();
  auto s = source->parameters();
  for (size_t i = 0; i < t.size(); ++i)
    t[i].copy_(tau * s[i] + (1 - tau) * t[i]);
}

void ema(QNet &source, QNet &target, double decay) {
  torch::NoGradGuard no_grad;
  auto sp = source->parameters();
  auto tp = target->parameters();
  for (size_t i = 0; i < sp.size(); i++) {
    tp[i].mul_(decay);
    tp[i].add_(sp[i], 1.0 - decay);
  }
}

void hard_update(QNet &target, QNet &source) {
  torch::NoGradGuard no_grad;
  torch::nn::utils::vector_to_parameters(
      torch::nn::utils::parameters_to_vector(source->parameters()),
      target->parameters());
}

// A helper of this file does the update: the summary gives sync_through the
// pair too, with the write in ema().
void sync_through(QNet &to, QNet &from) { ema(from, to, 0.0); }

// Reads both, writes neither.
void reads_only(QNet &a, QNet &b) {
  torch::NoGradGuard no_grad;
  auto x = torch::randn({1, 4});
  (void)(a->forward(x) + b->forward(x));
}

// Updates one module from itself: the other parameter is not read.
void self_update(QNet &a, QNet &b) {
  torch::NoGradGuard no_grad;
  (void)b;
  for (auto &p : a->parameters())
    p.mul_(0.5);
}

// Local networks of its own: nothing its caller passes is updated.
void local_only(int64_t n) {
  QNet online(4, 2), frozen(4, 2);
  torch::NoGradGuard no_grad;
  auto f = frozen->parameters();
  auto o = online->parameters();
  for (size_t i = 0; i < f.size(); ++i)
    f[i].copy_(o[i]);
  (void)n;
}
