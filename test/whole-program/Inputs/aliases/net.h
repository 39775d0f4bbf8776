#include <torch/torch.h>

#include <cstdint>
#include <memory>

struct QNetImpl : torch::nn::Cloneable<QNetImpl> {
  QNetImpl(int64_t in, int64_t out) : in(in), out(out) { reset(); }
  void reset() override { fc = register_module("fc", torch::nn::Linear(in, out)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  int64_t in, out;
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(QNet);

// Defined in updates.cpp.
void soft_update(QNet &target, const QNet &source, double tau);
void ema(QNet &source, QNet &target, double decay);
void hard_update(QNet &target, QNet &source);
void sync_through(QNet &to, QNet &from);
void reads_only(QNet &a, QNet &b);
void self_update(QNet &a, QNet &b);
void undescribed(QNet &target, QNet &source);
