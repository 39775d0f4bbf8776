#include "net.h"

torch::Tensor NetImpl::forward(torch::Tensor x) { return fc(x); }
torch::Tensor compute_loss(Net &model, const torch::Tensor &x,
                           const torch::Tensor &y) {
  return torch::mse_loss(model->forward(x), y);
}
torch::Tensor predict(Net &model, const torch::Tensor &x) {
  return model->forward(x);
}
torch::Tensor through_helper(Net &model, const torch::Tensor &x,
                             const torch::Tensor &y) {
  return compute_loss(model, x, y) * 0.5;
}
// No graph: a detached loss, one computed with autograd off, an integer
// result, and a function of its argument alone.
torch::Tensor detached_loss(Net &model, const torch::Tensor &x,
                            const torch::Tensor &y) {
  return torch::mse_loss(model->forward(x), y).detach();
}
torch::Tensor guarded_loss(Net &model, const torch::Tensor &x,
                           const torch::Tensor &y) {
  torch::NoGradGuard no_grad;
  return torch::mse_loss(model->forward(x), y);
}
torch::Tensor accuracy(Net &model, const torch::Tensor &x,
                       const torch::Tensor &y) {
  return model->forward(x).argmax(1).eq(y).sum();
}
torch::Tensor scaled(const torch::Tensor &t) { return t * 2; }
