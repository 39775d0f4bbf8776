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

// A target network's soft update: the target's parameters from the source's.
inline void soft_update(Net &target, Net &source, double tau) {
  torch::NoGradGuard no_grad;
  auto t = target->parameters();
  auto s = source->parameters();
  for (size_t i = 0; i < t.size(); ++i)
    t[i].copy_(tau * s[i] + (1 - tau) * t[i]);
}

// Layer sizes that do not fit: the constructor here, forward() in train.cpp.
struct MlpImpl : torch::nn::Module {
  MlpImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 128));
    fc2 = register_module("fc2", torch::nn::Linear(256, 10));
  }
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

// forward() here, the constructor in train.cpp.
struct WideImpl : torch::nn::Module {
  WideImpl();
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
