#include "net.h"

torch::Tensor frozen_features(Net &model, const torch::Tensor &x) {
  return model->forward(x).detach();
}
torch::Tensor no_grad_scores(Net &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  return model->forward(x);
}
torch::Tensor to_labels(const torch::Tensor &scores) {
  return scores.argmax(1).to(torch::kFloat);
}
// The graph kept: a forward output, and a function of the argument.
torch::Tensor embed(Net &model, const torch::Tensor &x) {
  return model->forward(x);
}
torch::Tensor rescale(const torch::Tensor &t) { return t * 2; }
