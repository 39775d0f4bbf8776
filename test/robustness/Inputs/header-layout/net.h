// The model and the training helpers of header-layout/train.cpp, in a header
// that train.cpp includes first: clangd builds it into the preamble, and
// header-bodies.test precompiles it for clang-tidy (-include-pch).
#pragma once
#include <torch/torch.h>

#include <map>

using Loader = decltype(torch::data::make_data_loader(
    torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>()), 64));

// forward() ends in a Linear layer: raw logits.
struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(16, 32));
    drop = register_module("drop", torch::nn::Dropout(0.5));
    out = register_module("out", torch::nn::Linear(32, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = drop->forward(torch::relu(fc1->forward(x)));
    return out->forward(x);
  }
  torch::nn::Linear fc1{nullptr}, out{nullptr};
  torch::nn::Dropout drop{nullptr};
};
TORCH_MODULE(Net);

// A module whose constructor is defined in train.cpp.
struct EncoderImpl : torch::nn::Module {
  EncoderImpl();
  torch::Tensor forward(torch::Tensor x) { return enc->forward(x); }
  torch::nn::Linear enc{nullptr};
};

// A module whose forward() is defined in train.cpp.
struct DecoderImpl : torch::nn::Module {
  DecoderImpl() { dec = torch::nn::Linear(3, 3); }
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear dec{nullptr};
};

// Ends in torch::softmax: probabilities.
inline torch::Tensor class_probabilities(Net &model, const torch::Tensor &x) {
  return torch::softmax(model->forward(x), /*dim=*/1);
}

// backward() and step(), but no zero_grad().
inline void update(torch::optim::Optimizer &opt, torch::Tensor loss) {
  loss.backward();
  opt.step();
}

inline void clear(torch::optim::Optimizer &opt) { opt.zero_grad(); }

inline void apply_step(torch::optim::Optimizer &opt) {
  opt.step();
  opt.zero_grad();
}

inline void end_of_batch(torch::optim::StepLR &s) { s.step(); }

inline torch::Tensor predict(Net &m, torch::Tensor x) { return m->forward(x); }

inline torch::Tensor weight_of(Net &model) { return model->out->weight; }

inline torch::Tensor noise(torch::Tensor h) { return torch::randn(h.sizes(), torch::kCUDA); }

inline torch::Tensor drop_on(const torch::Tensor &x) { return torch::dropout(x, 0.3, true); }

inline torch::Tensor train_step(Net &model, torch::optim::Optimizer &opt,
                                const torch::Tensor &x, const torch::Tensor &y) {
  opt.zero_grad();
  auto loss = torch::mse_loss(model->forward(x), y);
  loss.backward();
  opt.step();
  return loss;
}

// Moves a model to a device: the translation unit moves a module.
inline void to_gpu(Net &model) { model->to(torch::kCUDA); }

inline torch::Tensor frozen(Net &m, torch::Tensor x) { return m->forward(x).detach(); }

inline void freeze_autograd() { torch::autograd::GradMode::set_enabled(false); }
