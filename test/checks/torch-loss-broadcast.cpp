// RUN: %check_torch_tidy %s torch-loss-broadcast %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-loss-broadcast %t.real -- %real_flags

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace F = torch::nn::functional;

// A regression model: its forward() ends in a Linear(16, 1).
struct RegressorImpl : torch::nn::Module {
  RegressorImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(8, 16));
    out = register_module("out", torch::nn::Linear(16, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    return out->forward(x);
  }
  torch::nn::Linear fc1{nullptr}, out{nullptr};
};
TORCH_MODULE(Regressor);

// One that flattens its input: its output is [N, 1] whatever it is given.
struct FlatImpl : torch::nn::Module {
  FlatImpl() : head(register_module("head", torch::nn::Linear(784, 1))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = x.view({x.size(0), -1});
    return head(x);
  }
  torch::nn::Linear head;
};
TORCH_MODULE(Flat);

// ---- positives --------------------------------------------------------------

void p_factories() {
  Regressor model;
  auto x = torch::randn({64, 8});
  auto y = torch::randn({64});
  auto loss = torch::mse_loss(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'torch::mse_loss' is given a prediction of shape [64, 1] and a target of shape [64]: broadcasting compares every prediction with every target ([64, 64]), so the model learns to predict the mean target; call '.squeeze(1)' on the prediction [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  auto loss = torch::mse_loss(model->forward(x).squeeze(1), y);{{$}}
  loss.backward();
}

void p_training_loop(Flat &model, torch::optim::Optimizer &opt,
                     torch::Tensor images, torch::Tensor labels) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int step = 0; step < 100; ++step) {
      opt.zero_grad();
      auto output = model(images);
      auto target = labels.view({-1});
      auto loss = F::mse_loss(output, target);
      // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'torch::nn::functional::mse_loss' is given a prediction of shape [N, 1] and a target of shape [N]: broadcasting compares every prediction with every target ([N, N]){{.*}} [torch-loss-broadcast]
      // CHECK-FIXES: {{^}}      auto loss = F::mse_loss(output.squeeze(1), target);{{$}}
      loss.backward();
      opt.step();
    }
  }
}

void p_loss_modules(Flat model, torch::Tensor images, torch::Tensor values) {
  torch::nn::MSELoss mse;
  torch::nn::L1Loss l1;
  torch::nn::SmoothL1Loss smooth;
  torch::nn::HuberLoss huber(torch::nn::HuberLossOptions().delta(0.5));
  torch::Tensor target = values.flatten();
  auto a = mse(model->forward(images), target);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::nn::MSELoss' is given a prediction of shape [N, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  auto a = mse(model->forward(images).squeeze(1), target);{{$}}
  auto b = l1->forward(model(images), target);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::nn::L1Loss' is given{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  auto b = l1->forward(model(images).squeeze(1), target);{{$}}
  auto c = smooth(model(images), target) + huber(model(images), target);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::nn::SmoothL1Loss' is given{{.*}} [torch-loss-broadcast]
  // CHECK-MESSAGES: :[[@LINE-2]]:44: warning: 'torch::nn::HuberLoss' is given{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  auto c = smooth(model(images).squeeze(1), target) + huber(model(images).squeeze(1), target);{{$}}
  auto d = torch::l1_loss(model(images), target) +
           torch::smooth_l1_loss(model(images), target) +
           torch::huber_loss(model(images), target);
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: 'torch::l1_loss' is given{{.*}} [torch-loss-broadcast]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: 'torch::smooth_l1_loss' is given{{.*}} [torch-loss-broadcast]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: 'torch::huber_loss' is given{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  auto d = torch::l1_loss(model(images).squeeze(1), target) +{{$}}
  // CHECK-FIXES: {{^}}           torch::smooth_l1_loss(model(images).squeeze(1), target) +{{$}}
  // CHECK-FIXES: {{^}}           torch::huber_loss(model(images).squeeze(1), target);{{$}}
  auto e = F::l1_loss(model(images), target) +
           F::smooth_l1_loss(model(images), target) +
           F::huber_loss(model(images), target, F::HuberLossFuncOptions().delta(2.0));
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: 'torch::nn::functional::l1_loss' is given{{.*}} [torch-loss-broadcast]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: 'torch::nn::functional::smooth_l1_loss' is given{{.*}} [torch-loss-broadcast]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: 'torch::nn::functional::huber_loss' is given{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  auto e = F::l1_loss(model(images).squeeze(1), target) +{{$}}
  (void)a, (void)b, (void)c, (void)d, (void)e;
}

// A Sequential ending in Linear(32, 1), held in a local variable.
torch::Tensor p_sequential(torch::Tensor x, torch::Tensor y) {
  torch::nn::Sequential net(torch::nn::Linear(4, 32), torch::nn::ReLU(),
                            torch::nn::Linear(32, 1));
  auto pred = net->forward(x.flatten(1));
  return torch::mse_loss(pred, y.view({-1}));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [N, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  return torch::mse_loss(pred.squeeze(1), y.view({-1}));{{$}}
}

// The model through a std::shared_ptr, the prediction and the target through
// functions it calls.
torch::Tensor predict(std::shared_ptr<RegressorImpl> m, const torch::Tensor &x) {
  return m->forward(x);
}
torch::Tensor as_targets(torch::Tensor y) { return y.reshape({-1}); }

torch::Tensor p_called(torch::Tensor y) {
  auto model = std::make_shared<RegressorImpl>();
  auto batch = torch::rand({32, 8});
  return torch::l1_loss(predict(model, batch), as_targets(y));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::l1_loss' is given a prediction of shape [32, 1] and a target of shape [N]: broadcasting compares every prediction with every target ([32, N]){{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  return torch::l1_loss(predict(model, batch).squeeze(1), as_targets(y));{{$}}
}

// A lambda that runs the model.
torch::Tensor p_lambda(Regressor model, torch::Tensor y) {
  auto run = [&](const torch::Tensor &in) { return model->forward(in); };
  auto target = y.view({-1});
  return torch::mse_loss(run(torch::randn({16, 8})), target);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [16, 1]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  return torch::mse_loss(run(torch::randn({16, 8})).squeeze(1), target);{{$}}
}

// Modules within modules: a member that is a user module, a Sequential member.
struct CriticImpl : torch::nn::Module {
  CriticImpl() {
    body = register_module("body", Regressor());
    value = register_module(
        "value", torch::nn::Sequential(torch::nn::Linear(8, 4),
                                       torch::nn::Tanh(),
                                       torch::nn::Linear(4, 1)));
  }
  torch::Tensor forward(torch::Tensor x) {
    return body(x.view({-1, 8})) + 0 * value->forward(x);
  }
  torch::Tensor value_of(torch::Tensor x) {
    return value->forward(x.view({-1, 8}));
  }
  Regressor body{nullptr};
  torch::nn::Sequential value{nullptr};
};
TORCH_MODULE(Critic);

struct Inner2Impl : torch::nn::Module {
  Inner2Impl() : critic(register_module("critic", Critic())) {}
  torch::Tensor forward(torch::Tensor x) {
    auto v = critic->value_of(x);
    return v;
  }
  Critic critic;
};
TORCH_MODULE(Inner2);

torch::Tensor p_nested(Inner2 &model, torch::Tensor states, torch::Tensor returns) {
  auto v = model->forward(states);
  auto target = returns.view({-1});
  return F::smooth_l1_loss(v, target);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::nn::functional::smooth_l1_loss' is given a prediction of shape [N, 1]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  return F::smooth_l1_loss(v.squeeze(1), target);{{$}}
}

// A trainer class holding the model by value and the loss as a member.
class Trainer {
public:
  explicit Trainer(torch::optim::Optimizer &opt) : opt_(opt) {}
  double step(torch::Tensor features, torch::Tensor values) {
    opt_.zero_grad();
    auto pred = model_->forward(features.view({-1, 8}));
    auto loss = criterion_(pred, values.view({-1}));
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'torch::nn::MSELoss' is given a prediction of shape [N, 1]{{.*}} [torch-loss-broadcast]
    // CHECK-FIXES: {{^}}    auto loss = criterion_(pred.squeeze(1), values.view({-1}));{{$}}
    loss.backward();
    opt_.step();
    return loss.item<double>();
  }

private:
  Regressor model_;
  torch::nn::MSELoss criterion_;
  torch::optim::Optimizer &opt_;
};

// A module computing its own loss: its members are applied as in forward().
struct ValueHeadImpl : torch::nn::Module {
  ValueHeadImpl() { v = register_module("v", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return v(x); }
  torch::Tensor loss(torch::Tensor states, torch::Tensor returns) {
    auto values = v(states.view({-1, 8}));
    return torch::huber_loss(values, returns.flatten());
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::huber_loss' is given a prediction of shape [N, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]
    // CHECK-FIXES: {{^}}    return torch::huber_loss(values.squeeze(1), returns.flatten());{{$}}
  }
  torch::nn::Linear v{nullptr};
};

// A Linear layer in a local variable; inputs and targets from randint.
void p_randint(torch::Device device) {
  torch::nn::Linear model(1, 1);
  model->to(device);
  auto inputs = torch::randint(0, 10, {15, 1}, torch::TensorOptions(torch::kFloat));
  auto targets = torch::randint(0, 10, {15}, torch::TensorOptions(torch::kFloat));
  auto loss = F::mse_loss(model->forward(inputs), targets);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'torch::nn::functional::mse_loss' is given a prediction of shape [15, 1] and a target of shape [15]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  auto loss = F::mse_loss(model->forward(inputs).squeeze(1), targets);{{$}}
  auto fine = F::mse_loss(model->forward(inputs),
                          torch::randint(10, {15, 1}, torch::TensorOptions(torch::kFloat)));
  (void)loss, (void)fine;
}

// Targets read from a buffer as a vector.
torch::Tensor p_from_blob(Regressor model, std::vector<float> &xs,
                          std::vector<float> &ys, int64_t n) {
  auto inputs = torch::from_blob(xs.data(), {n, 8});
  auto targets = torch::from_blob(ys.data(), {n});
  return torch::mse_loss(model->forward(inputs), targets);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [N, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  return torch::mse_loss(model->forward(inputs).squeeze(1), targets);{{$}}
}

// The reverse: a prediction squeezed to [N] against a target of [N, 1].
torch::Tensor p_reverse(Regressor model, torch::Tensor y) {
  auto pred = model->forward(torch::randn({64, 8})).squeeze(1);
  auto target = y.view({-1, 1});
  return torch::mse_loss(pred, target);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [64] and a target of shape [N, 1]: broadcasting compares every prediction with every target ([N, 64]), so the model learns to predict the mean target; call '.unsqueeze(1)' on the prediction or '.squeeze(1)' on the target [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  return torch::mse_loss(pred.unsqueeze(1), target);{{$}}
}

// ---- negatives --------------------------------------------------------------

void n_shapes_agree(Regressor model, Flat flat, torch::Tensor images,
                    torch::Tensor y) {
  auto x = torch::randn({64, 8});
  auto a = torch::mse_loss(model->forward(x).squeeze(1), torch::randn({64}));
  auto b = torch::mse_loss(model->forward(x), torch::randn({64}).unsqueeze(1));
  auto c = torch::mse_loss(model->forward(x), y.view({-1, 1}));
  auto d = torch::mse_loss(model->forward(x), torch::randn({64, 1}));
  auto e = F::l1_loss(flat(images).view({-1}), y.view({-1}));
  auto f = torch::mse_loss(torch::randn({64}), torch::randn({64}));
  (void)a, (void)b, (void)c, (void)d, (void)e, (void)f;
}

// Targets read from a buffer as a column.
torch::Tensor n_from_blob(Regressor model, std::vector<float> &xs,
                          std::vector<float> &ys, int64_t n) {
  auto inputs = torch::from_blob(xs.data(), {n, 8});
  auto targets = torch::from_blob(ys.data(), {n, 1});
  return torch::mse_loss(model->forward(inputs), targets);
}

// The rank of the prediction is unknown: the model is given a tensor of
// unknown shape and keeps its rank (a single sample gives [1]).
torch::Tensor n_unknown_rank(Regressor model, torch::Tensor x, torch::Tensor y) {
  return torch::mse_loss(model->forward(x), y.view({-1}));
}

// The target's shape is unknown.
torch::Tensor n_unknown_target(Flat model, torch::Tensor x, torch::Tensor y) {
  return torch::mse_loss(model->forward(x), y) +
         torch::mse_loss(model->forward(x), y.to(torch::kFloat));
}

// Written again after the initialiser: what it holds is not followed.
void fill(torch::Tensor &t);
torch::Tensor n_written_again(Flat model, torch::Tensor x, torch::Tensor y) {
  auto target = y.view({-1});
  target = target.unsqueeze(1);
  auto other = y.view({-1});
  other.unsqueeze_(1);
  auto third = y.view({-1});
  fill(third);
  auto out = model(x);
  return torch::mse_loss(out, target) + torch::mse_loss(out, other) +
         torch::mse_loss(out, third);
}

// A batch of one: [1, 1] against [N], or [N, 1] against [1].
torch::Tensor n_batch_of_one(Regressor model, torch::Tensor y) {
  return torch::mse_loss(model->forward(torch::randn({1, 8})), y.view({-1})) +
         torch::mse_loss(model->forward(torch::randn({64, 8})), torch::ones({1}));
}

// Not a regression loss, or a function that only shares the name.
namespace mylib {
torch::Tensor mse_loss(const torch::Tensor &a, const torch::Tensor &b);
} // namespace mylib
struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl() { fc = register_module("fc", torch::nn::Linear(8, 3)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x.view({-1, 8})); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Classifier);
torch::Tensor n_other_losses(Flat model, Classifier clf, torch::Tensor x,
                             torch::Tensor labels) {
  return mylib::mse_loss(model(x), labels.view({-1})) +
         torch::cross_entropy_loss(clf(x), labels.view({-1})) +
         torch::mse_loss(clf(x), labels.view({-1}));
}

// A forward() with two returns, or a branch deciding the prediction.
struct BranchyImpl : torch::nn::Module {
  BranchyImpl() { fc = register_module("fc", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) {
    if (x.dim() == 1)
      return fc(x.view({1, 8})).view({-1});
    return fc(x.view({-1, 8}));
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Branchy);
torch::Tensor n_branches(Branchy model, Flat flat, torch::Tensor x,
                         torch::Tensor y, bool squeeze) {
  torch::Tensor pred;
  if (squeeze)
    pred = flat(x).squeeze(1);
  else
    pred = flat(x);
  return torch::mse_loss(model(x), y.view({-1})) +
         torch::mse_loss(pred, y.view({-1}));
}

// [B, T, 1] against [B * T]: not the [N, 1] / [N] pair the check knows.
torch::Tensor n_rank_three(torch::Tensor y) {
  torch::nn::Linear head(16, 1);
  return torch::mse_loss(head(torch::randn({4, 10, 16})), y.view({-1}));
}

// Templates: judged per instantiation, no fix-it there.
template <typename Model>
torch::Tensor t_generic(Model &model, torch::Tensor y) {
  return torch::mse_loss(model->forward(torch::randn({8, 8})), y.view({-1}));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [8, 1]{{.*}} [torch-loss-broadcast]
}
template torch::Tensor t_generic<Regressor>(Regressor &, torch::Tensor);
