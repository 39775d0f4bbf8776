// RUN: %check_torch_tidy %s torch-dropout-training-flag %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-dropout-training-flag %t.real -- %real_flags

#include <torch/torch.h>

namespace F = torch::nn::functional;

// ---------------------------------------------------------------- positives

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = torch::dropout(fc->forward(x), 0.5, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'torch::dropout' runs in training mode even after 'eval()': its 'train' argument is 'true', so it keeps zeroing activations at random, and evaluation and inference outputs stay noisy and worse than the trained model's; pass 'is_training()' [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = torch::dropout(fc->forward(x), 0.5, is_training());{{$}}
    x = torch::dropout(x, /*p=*/0.2, /*train=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'torch::dropout' runs in training mode even after 'eval()': its 'train' argument is 'true', {{.*}}; pass 'is_training()' [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = torch::dropout(x, /*p=*/0.2, /*train=*/is_training());{{$}}
    x = F::dropout(x, F::DropoutFuncOptions().p(0.2));
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'F::dropout' runs in training mode even after 'eval()': 'DropoutFuncOptions' sets 'training' to true unless told otherwise, so it keeps zeroing activations {{.*}}; set '.training(is_training())' [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = F::dropout(x, F::DropoutFuncOptions().p(0.2).training(is_training()));{{$}}
    x = F::dropout(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'F::dropout' runs in training mode even after 'eval()': 'DropoutFuncOptions' sets 'training' to true unless told otherwise, {{.*}}; pass 'DropoutFuncOptions().training(is_training())' [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = F::dropout(x, torch::nn::functional::DropoutFuncOptions().training(is_training()));{{$}}
    x = F::dropout(x, F::DropoutFuncOptions().training(true).p(0.1));
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'F::dropout' runs in training mode even after 'eval()': its options set 'training' to true, {{.*}}; set '.training(is_training())' [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = F::dropout(x, F::DropoutFuncOptions().training(is_training()).p(0.1));{{$}}
    x = F::dropout2d(x, F::Dropout2dFuncOptions{});
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'F::dropout2d' runs in training mode even after 'eval()': 'DropoutFuncOptions' sets 'training' {{.*}} [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = F::dropout2d(x, F::Dropout2dFuncOptions{}.training(is_training()));{{$}}
    return x;
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

// The other dropouts, batch norm, in-place forms; any method of the module.
struct BlockImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
  torch::Tensor encode(torch::Tensor x) {
    x = torch::feature_dropout(x, 0.1, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'torch::feature_dropout' runs in training mode {{.*}}; pass 'is_training()' [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = torch::feature_dropout(x, 0.1, is_training());{{$}}
    x = torch::alpha_dropout(x, 0.1, true) + torch::feature_alpha_dropout(x, 0.1, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'torch::alpha_dropout' runs in training mode {{.*}} [torch-dropout-training-flag]
    // CHECK-MESSAGES: :[[@LINE-2]]:46: warning: 'torch::feature_alpha_dropout' runs in training mode {{.*}} [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = torch::alpha_dropout(x, 0.1, is_training()) + torch::feature_alpha_dropout(x, 0.1, is_training());{{$}}
    torch::dropout_(x, 0.1, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'torch::dropout_' runs in training mode {{.*}} [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    torch::dropout_(x, 0.1, is_training());{{$}}
    x = F::alpha_dropout(x, F::AlphaDropoutFuncOptions().p(0.1).training(true));
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'F::alpha_dropout' runs in training mode even after 'eval()': its options set 'training' to true, {{.*}} [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}    x = F::alpha_dropout(x, F::AlphaDropoutFuncOptions().p(0.1).training(is_training()));{{$}}
    return x;
  }
  torch::Tensor mean, var;
};

// forward() defined out of line.
torch::Tensor BlockImpl::forward(torch::Tensor x) {
  x = F::batch_norm(encode(x), mean, var, F::BatchNormFuncOptions().training(true));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'F::batch_norm' runs in training mode even after 'eval()': its options set 'training' to true, so it keeps normalising with each batch's own statistics and updating the running ones, and evaluation outputs depend on the batch; set '.training(is_training())' [torch-dropout-training-flag]
  // CHECK-FIXES: {{^}}  x = F::batch_norm(encode(x), mean, var, F::BatchNormFuncOptions().training(is_training()));{{$}}
  return torch::batch_norm(x, {}, {}, mean, var, true, 0.1, 1e-5, false);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::batch_norm' runs in training mode even after 'eval()': its 'training' argument is 'true', {{.*}} [torch-dropout-training-flag]
  // CHECK-FIXES: {{^}}  return torch::batch_norm(x, {}, {}, mean, var, is_training(), 0.1, 1e-5, false);{{$}}
}

// A helper the module calls: the warning there, a note at the call, no
// fix-it (the helper has no is_training()).
torch::Tensor drop(const torch::Tensor &x, double p) {
  return torch::dropout(x, p, true);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::dropout' runs in training mode even after 'eval()': its 'train' argument is 'true', {{.*}}; pass the module's 'is_training()' down to 'layer' and on to this call [torch-dropout-training-flag]
}
torch::Tensor layer(const torch::Tensor &x) { return drop(x, 0.3) * 2; }

struct HelperNetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return layer(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: note: 'layer' is called here, in 'HelperNetImpl::forward', a method of a module
  }
};

// A constant, a lambda, a macro, a class template: the warning, no fix-it.
#define DROP(x) torch::dropout(x, 0.5, true)
struct OddImpl : torch::nn::Module {
  static constexpr bool kTrain = true;
  torch::Tensor forward(torch::Tensor x) {
    x = torch::dropout(x, 0.5, kTrain);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'torch::dropout' runs in training mode even after 'eval()': its 'train' argument is a constant that is true, {{.*}}; pass 'is_training()' [torch-dropout-training-flag]
    auto f = [&](torch::Tensor y) { return torch::dropout(y, 0.5, true); };
    // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'torch::dropout' runs in training mode {{.*}} [torch-dropout-training-flag]
    x = DROP(f(x));
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'at::dropout' runs in training mode {{.*}} [torch-dropout-training-flag]
    return x;
  }
};

template <typename T> struct TBlockImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return torch::dropout(x, 0.5, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::dropout' runs in training mode {{.*}}; pass 'is_training()' [torch-dropout-training-flag]
  }
};
template struct TBlockImpl<float>;
template struct TBlockImpl<double>;

// ---------------------------------------------------------------- negatives

struct GoodImpl : torch::nn::Module {
  GoodImpl() : drop(register_module("drop", torch::nn::Dropout(0.5))) {}
  torch::Tensor forward(torch::Tensor x, bool flag) {
    x = torch::dropout(x, 0.5, is_training());
    x = torch::dropout(x, 0.5, this->is_training());
    x = torch::dropout(x, 0.5, false);
    x = torch::dropout(x, 0.5, training_ && flag);
    x = F::dropout(x, F::DropoutFuncOptions().p(0.2).training(is_training()));
    x = F::dropout(x, F::DropoutFuncOptions().training(false));
    x = F::dropout(x, opts);
    x = F::alpha_dropout(x);
    x = F::alpha_dropout(x, F::AlphaDropoutFuncOptions().p(0.2));
    x = F::batch_norm(x, mean, var);
    x = F::batch_norm(x, mean, var, F::BatchNormFuncOptions().momentum(0.2));
    x = F::batch_norm(x, mean, var, F::BatchNormFuncOptions().training(is_training()));
    x = keep(x, is_training());
    // A probability of 0 drops nothing in either mode.
    x = torch::dropout(x, 0.0, true);
    x = F::dropout(x, F::DropoutFuncOptions{}.p(0.0));
    return drop->forward(x) + drop(x);
  }
  // The mode passed down: silent.
  static torch::Tensor keep(torch::Tensor x, bool train) {
    return torch::dropout(x, 0.5, train);
  }
  torch::nn::Dropout drop{nullptr};
  F::DropoutFuncOptions opts;
  torch::Tensor mean, var;
  bool training_ = true;
};

// Code that runs only while the module trains: the flag on is right there.
struct GuardedImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if ((p > 0.0) && (is_training()))
      x = torch::dropout(x, p, /*train=*/true);
    x = is_training() ? F::dropout(x) : x;
    if (!is_training())
      x = x * 2;
    else
      x = torch::dropout(x, p, true);
    return noise(x);
  }
  torch::Tensor noise(torch::Tensor x) {
    if (!is_training() || p == 0.0)
      return x;
    return torch::dropout(x, p, true);
  }
  // Only while evaluating: reported.
  torch::Tensor backwards(torch::Tensor x) {
    if (!is_training())
      x = torch::dropout(x, p, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'torch::dropout' runs in training mode {{.*}} [torch-dropout-training-flag]
    // CHECK-FIXES: {{^}}      x = torch::dropout(x, p, is_training());{{$}}
    return x;
  }
  double p = 0.1;
};

// Outside modules: data augmentation, Monte Carlo dropout in a script.
torch::Tensor augment(torch::Tensor x) {
  return torch::dropout(x, 0.1, true) + F::dropout(x);
}
struct Augmenter {
  torch::Tensor operator()(torch::Tensor x) const {
    return torch::dropout(x, 0.1, true);
  }
};

// A function of the user's own with the same name and parameter.
namespace mylib {
torch::Tensor dropout(torch::Tensor x, double p, bool train) { return x; }
} // namespace mylib
struct OwnImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return mylib::dropout(x, 0.5, true); }
};
