#include "net.h"

NetImpl::NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 1)); }
torch::Tensor NetImpl::forward(torch::Tensor x) {
  return fc->forward(x);
}

ProbNetImpl::ProbNetImpl() { fc = register_module("fc", torch::nn::Linear(4, 1)); }
torch::Tensor ProbNetImpl::forward(torch::Tensor x) {
  return torch::sigmoid(fc->forward(x));
}

void clear_grads(torch::optim::Optimizer &opt) { opt.zero_grad(); }
void update(torch::optim::Optimizer &opt) { opt.step(); }

torch::Tensor logits_of(torch::Tensor x) {
  static torch::nn::Linear layer(4, 1);
  return layer->forward(x);
}
torch::Tensor probabilities_of(torch::Tensor x) { return torch::sigmoid(x); }
torch::Tensor log_probabilities_of(torch::Tensor x) {
  return torch::log_softmax(x, 1);
}
torch::Tensor passed_through(torch::Tensor x) { return x; }

Trainer::Trainer(Net net)
    : net(net), opt(net->parameters(), torch::optim::SGDOptions(0.1)) {}
void Trainer::reset_gradients() { opt.zero_grad(); }

// Internal linkage: no other file can call it, so it is not summarised.
static torch::Tensor internal_logits(torch::Tensor x) { return logits_of(x); }
torch::Tensor uses_internal(torch::Tensor x) { return internal_logits(x); }

void end_of_step(torch::optim::StepLR &scheduler) { scheduler.step(); }

void apply_update(torch::Tensor &param, double lr) {
  param.sub_(lr * param.grad());
}
void decay_all(std::vector<torch::Tensor> params, double factor) {
  for (auto &p : params)
    p.mul_(factor);
}
// Its own guard: nothing the caller does makes the change record.
void guarded_update(torch::Tensor &param, double lr) {
  torch::NoGradGuard no_grad;
  param.sub_(lr * param.grad());
}
// Changes a copy of its own, not the caller's tensor.
void scale_copy(torch::Tensor t) {
  auto y = t.clone();
  y.mul_(2);
}
// Through a helper of this file.
void step_through(torch::Tensor &param, double lr) { apply_update(param, lr); }

torch::Tensor to_gpu(torch::Tensor x) { return x.to(torch::kCUDA); }
// Follows the device of a tensor it is given.
torch::Tensor to_device_of(torch::Tensor x, torch::Tensor like) {
  return x.to(like.device());
}
torch::Tensor mask_like(torch::Tensor x) {
  return torch::ones_like(x, torch::TensorOptions().device(torch::kCUDA));
}

SeqNetImpl::SeqNetImpl() {
  body = register_module(
      "body", torch::nn::Sequential(torch::nn::Linear(4, 8),
                                    torch::nn::Dropout(0.5),
                                    torch::nn::Linear(8, 1)));
}
PlainNetImpl::PlainNetImpl() {
  body = register_module(
      "body", torch::nn::Sequential(torch::nn::Linear(4, 8), torch::nn::ReLU(),
                                    torch::nn::Linear(8, 1)));
}

// Devices a function returns: a literal, one picked with an availability
// query, a tensor's, a parameter's, none.
torch::Device training_device() { return torch::Device(torch::kCUDA); }
torch::Device picked_device() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}
torch::Device input_device(const torch::Tensor &t) { return t.device(); }
torch::Device or_default(torch::Device d) { return d; }
torch::TensorOptions float_options() { return torch::dtype(torch::kFloat); }
