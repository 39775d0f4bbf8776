// RUN: %check_torch_tidy %s torch-unnamed-grad-guard %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-unnamed-grad-guard %t.real -- %real_flags

#include <torch/torch.h>

#include <memory>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

// ---------------------------------------------------------------- positives

torch::Tensor p1_no_grad(Net &net, torch::Tensor x) {
  torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'torch::NoGradGuard' is destroyed at the end of this statement, so the code after it still records gradients; give it a name: 'torch::NoGradGuard no_grad;' [torch-unnamed-grad-guard]
  // CHECK-FIXES: {{^}}  torch::NoGradGuard no_grad;{{$}}
  return net->forward(x);
}

torch::Tensor p2_braces(Net &net, torch::Tensor x) {
  torch::NoGradGuard{};
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'torch::NoGradGuard' {{.*}}; give it a name: 'torch::NoGradGuard no_grad{};' [torch-unnamed-grad-guard]
  // CHECK-FIXES: {{^}}  torch::NoGradGuard no_grad{};{{$}}
  return net->forward(x);
}

void p3_auto_grad_mode(Net &net, torch::Tensor x) {
  torch::AutoGradMode(false);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'torch::AutoGradMode' is destroyed at the end of this statement, so the code after it still records gradients; give it a name: 'torch::AutoGradMode grad_mode(false);' [torch-unnamed-grad-guard]
  // CHECK-FIXES: {{^}}  torch::AutoGradMode grad_mode(false);{{$}}
  net->forward(x);
  {
    torch::AutoGradMode(true);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: temporary 'torch::AutoGradMode' is destroyed at the end of this statement, so autograd stays disabled for the code after it; give it a name: 'torch::AutoGradMode grad_mode_2(true);' [torch-unnamed-grad-guard]
    // CHECK-FIXES: {{^}}    torch::AutoGradMode grad_mode_2(true);{{$}}
    net->forward(x);
  }
}

void p4_inference_and_dispatch(Net &net, torch::Tensor x, bool flag) {
  c10::InferenceMode();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'c10::InferenceMode' {{.*}}; give it a name: 'c10::InferenceMode inference_mode;' [torch-unnamed-grad-guard]
  // CHECK-FIXES: {{^}}  c10::InferenceMode inference_mode;{{$}}
  at::AutoDispatchBelowADInplaceOrView();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'at::AutoDispatchBelowADInplaceOrView' is destroyed at the end of this statement, so the code after it runs unguarded; give it a name: 'at::AutoDispatchBelowADInplaceOrView guard;' [torch-unnamed-grad-guard]
  // CHECK-FIXES: {{^}}  at::AutoDispatchBelowADInplaceOrView guard;{{$}}
  torch::AutoGradMode(!flag);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'torch::AutoGradMode' is destroyed at the end of this statement, so the grad mode it sets does not hold for the code after it; give it a name: 'torch::AutoGradMode grad_mode(!flag);' [torch-unnamed-grad-guard]
  // CHECK-FIXES: {{^}}  torch::AutoGradMode grad_mode(!flag);{{$}}
  net->forward(x);
}

// The name is taken: another one is chosen.
void p5_name_taken(Net &net, torch::Tensor no_grad) {
  torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'torch::NoGradGuard' {{.*}}; give it a name: 'torch::NoGradGuard no_grad_2;' [torch-unnamed-grad-guard]
  // CHECK-FIXES: {{^}}  torch::NoGradGuard no_grad_2;{{$}}
  net->forward(no_grad);
}

// The most vexing parse: a function declaration, no guard at all.
void p6_vexing(Net &net, torch::Tensor x) {
  torch::NoGradGuard guard();
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'guard' declares a function returning 'torch::NoGradGuard', not a guard object (the most vexing parse), so no guard is built and the code after it still records gradients; remove the parentheses: 'torch::NoGradGuard guard;' [torch-unnamed-grad-guard]
  net->forward(x);
}

// The same in a nested block and in a lambda: each reported once.
void p6_vexing_nested(Net &net, torch::Tensor x, bool eval) {
  if (eval) {
    torch::NoGradGuard inner();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'inner' declares a function returning 'torch::NoGradGuard', not a guard object {{.*}} [torch-unnamed-grad-guard]
    net->forward(x);
  }
  auto run = [&] {
    torch::NoGradGuard in_lambda();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'in_lambda' declares a function returning 'torch::NoGradGuard', not a guard object {{.*}} [torch-unnamed-grad-guard]
    return net->forward(x);
  };
  run();
}

// Not a whole statement of a block: the warning, no fix-it (a name would not
// make the guard outlive the `if`).
void p7_no_fix(Net &net, torch::Tensor x, bool eval) {
  if (eval)
    torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: temporary 'torch::NoGradGuard' {{.*}} [torch-unnamed-grad-guard]
  torch::NoGradGuard(), net->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'torch::NoGradGuard' {{.*}} [torch-unnamed-grad-guard]
}

#define NO_GRAD() torch::NoGradGuard()
void p8_macro(Net &net, torch::Tensor x) {
  NO_GRAD();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'c10::NoGradGuard' {{.*}}; give it a name: 'c10::NoGradGuard no_grad;' [torch-unnamed-grad-guard]
  net->forward(x);
}

template <class G> void p9_template(Net &net, torch::Tensor x) {
  G();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: temporary 'c10::NoGradGuard' is destroyed {{.*}} [torch-unnamed-grad-guard]
  net->forward(x);
}
template void p9_template<torch::NoGradGuard>(Net &, torch::Tensor);

// ---------------------------------------------------------------- negatives

struct Evaluator {
  explicit Evaluator(const torch::NoGradGuard &) {}
};
void takes(torch::NoGradGuard &&) {}
std::unique_ptr<torch::NoGradGuard> make_guard() {
  return std::make_unique<torch::NoGradGuard>();
}

torch::Tensor n1_named(Net &net, torch::Tensor x) {
  torch::NoGradGuard no_grad;
  torch::AutoGradMode enable_grad(false);
  c10::InferenceMode guard;
  at::AutoDispatchBelowADInplaceOrView below;
  torch::NoGradGuard braced{};
  const auto &bound = torch::NoGradGuard();
  auto &&bound2 = torch::AutoGradMode(false);
  Evaluator e{torch::NoGradGuard()};
  takes(torch::NoGradGuard());
  auto owned = make_guard();
  (void)bound, (void)bound2;
  return net->forward(x);
}

torch::NoGradGuard *n2_new() { return new torch::NoGradGuard(); }

// Look-alikes: not LibTorch's guards.
struct MyGuard {
  MyGuard() {}
  ~MyGuard() {}
};
torch::Tensor make_tensor();
void n3_lookalikes(torch::Tensor x) {
  MyGuard();
  torch::Tensor();
  at::GradMode::set_enabled(false);
  torch::Device(torch::kCUDA, 0);
  torch::Tensor make_tensor(); // a function declaration returning a tensor
}
