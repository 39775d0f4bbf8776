#include "layers.h"

namespace F = torch::nn::functional;

torch::Tensor noisy(const torch::Tensor &x) { return torch::dropout(x, 0.5, true); }
torch::Tensor normed(const torch::Tensor &x, const torch::Tensor &mean,
                     const torch::Tensor &var) {
  return F::batch_norm(x, mean, var, F::BatchNormFuncOptions().training(true));
}
torch::Tensor through(const torch::Tensor &x) { return noisy(x) + 1; }
torch::Tensor in_lambda(const torch::Tensor &x) {
  auto f = [](const torch::Tensor &y) { return F::dropout(y); };
  return f(x);
}
// Not fixed on: the caller's flag, a zero rate, batch norm's default (off).
torch::Tensor drop_if(const torch::Tensor &x, bool train) {
  return torch::dropout(x, 0.5, train);
}
torch::Tensor zero_rate(const torch::Tensor &x) { return torch::dropout(x, 0.0, true); }
torch::Tensor eval_norm(const torch::Tensor &x, const torch::Tensor &mean,
                        const torch::Tensor &var) {
  return F::batch_norm(x, mean, var);
}
// A module's own method is judged here, where it is defined.
torch::Tensor BlockImpl::forward(torch::Tensor x) {
  return torch::dropout(x, 0.1, true);
}
