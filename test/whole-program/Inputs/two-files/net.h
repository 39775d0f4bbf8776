// A model declared in a header, defined in model.cpp; helpers defined in
// model.cpp; the training loop in train.cpp.
#pragma once
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

// Ends in a sigmoid: probabilities.
struct ProbNetImpl : torch::nn::Module {
  ProbNetImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ProbNet);

void clear_grads(torch::optim::Optimizer &opt);
void update(torch::optim::Optimizer &opt);
torch::Tensor logits_of(torch::Tensor x);
torch::Tensor probabilities_of(torch::Tensor x);
torch::Tensor log_probabilities_of(torch::Tensor x);
torch::Tensor passed_through(torch::Tensor x);

// Same names in another namespace, defined nowhere: a USR, not a name.
namespace other {
torch::Tensor logits_of(torch::Tensor x);
} // namespace other

// A trainer whose methods are defined in model.cpp.
struct Trainer {
  explicit Trainer(Net net);
  void reset_gradients();
  Net net;
  torch::optim::SGD opt;
};

// Steps the learning-rate schedule (an epoch-based one).
void end_of_step(torch::optim::StepLR &scheduler);

// In-place changes to the tensors the caller passes.
void apply_update(torch::Tensor &param, double lr);
void decay_all(std::vector<torch::Tensor> params, double factor);
void guarded_update(torch::Tensor &param, double lr);
void scale_copy(torch::Tensor t);
void step_through(torch::Tensor &param, double lr);

// Devices: helpers that place tensors.
torch::Tensor to_gpu(torch::Tensor x);
torch::Tensor to_device_of(torch::Tensor x, torch::Tensor like);
torch::Tensor mask_like(torch::Tensor x);

// Modules whose Sequential is built in model.cpp: with a dropout, and without.
struct SeqNetImpl : torch::nn::Module {
  SeqNetImpl();
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(SeqNet);
struct PlainNetImpl : torch::nn::Module {
  PlainNetImpl();
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(PlainNet);

// Devices: functions that return one.
torch::Device training_device();
torch::Device picked_device();
torch::Device input_device(const torch::Tensor &t);
torch::Device or_default(torch::Device d);
torch::TensorOptions float_options();
