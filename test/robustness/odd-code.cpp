// Templates, macros, recursion, deep helper chains, function pointers, virtual
// calls: every check runs, nothing crashes, and fix-its never land in macros.
// RUN: %check_torch_tidy %s 'torch-*' %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s 'torch-*' %t.real -- %real_flags

#include <torch/torch.h>

#include <functional>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

#define TRAIN_LOOP(OPT, LOSS)                                                                      \
  for (int i_ = 0; i_ < 3; ++i_) {                                                                 \
    LOSS.backward();                                                                               \
    OPT.step();                                                                                    \
  }

void macro_loop(torch::optim::SGD &opt, torch::Tensor loss) {
  TRAIN_LOOP(opt, loss)
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} [torch-missing-zero-grad]
}

// Recursion does not loop the analysis forever.
void recurse(torch::optim::SGD &opt, torch::Tensor loss, int n) {
  if (n > 0)
    recurse(opt, loss, n - 1);
  loss.backward();
}
void recursive_helper(torch::optim::SGD &opt, torch::Tensor loss) {
  for (int i = 0; i < 3; ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} [torch-missing-zero-grad]
    recurse(opt, loss, 3);
    // CHECK-FIXES: {{^}}    opt.zero_grad();{{$}}
    opt.step();
  }
}

// A chain deeper than MaxCallDepth (4) is not followed: no warning, no crash.
void d5(torch::Tensor l) { l.backward(); }
void d4(torch::Tensor l) { d5(l); }
void d3(torch::Tensor l) { d4(l); }
void d2(torch::Tensor l) { d3(l); }
void d1(torch::Tensor l) { d2(l); }
void deep_chain(torch::optim::SGD &opt, torch::Tensor loss) {
  for (int i = 0; i < 3; ++i) {
    d1(loss);
    opt.step();
  }
}

// Calls through function pointers and std::function are not followed.
void through_pointers(torch::optim::SGD &opt, torch::Tensor loss, void (*fp)(torch::Tensor),
                      std::function<void()> fn) {
  for (int i = 0; i < 3; ++i) {
    fp(loss);
    fn();
    opt.step();
  }
}

// A virtual helper is followed to its statically known body.
struct Base {
  virtual ~Base() = default;
  virtual void run(torch::optim::Optimizer &opt, torch::Tensor loss) {
    loss.backward();
    opt.step();
  }
};
void virtual_call(Base &b, torch::optim::Adam &adam, torch::Tensor loss) {
  for (int i = 0; i < 3; ++i)
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} optimizer 'adam' {{.*}} [torch-missing-zero-grad]
    b.run(adam, loss);
}

// Class templates and their instantiations.
template <typename Opt> struct TemplTrainer {
  Opt opt;
  Net net;
  void fit(torch::Tensor x, torch::Tensor y) {
    for (int i = 0; i < 3; ++i) {
      opt.zero_grad();
      torch::mse_loss(net->forward(x), y).backward();
      opt.step();
    }
  }
};
template struct TemplTrainer<torch::optim::SGD>;

// An empty loop body, a loop with only a declaration, a range-for over an initializer list.
void trivia(torch::optim::SGD &opt) {
  for (;;)
    break;
  for (int v : {1, 2, 3})
    (void)v;
  while (false) {
  }
}

// A std::function initialised with itself: following the closure handed to
// step() must end (it once looped forever). No diagnostic: the closure is unknown.
void self_initialised_closure(torch::optim::LBFGS &opt) {
  for (int i = 0; i < 3; ++i) {
    std::function<torch::Tensor()> closure = closure;
    opt.step(closure);
  }
}

// from_blob in a macro, through a dependent type and with a storage of
// incomplete or odd shapes: nothing crashes, no fix-it lands in a macro.
#define BLOB_OF(v) torch::from_blob((v).data(), {4})
torch::Tensor blob_in_a_macro() {
  std::vector<float> v(4, 1.f);
  return BLOB_OF(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'blob_in_a_macro' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
}
template <typename Buffer> torch::Tensor blob_of_dependent(Buffer b) {
  return torch::from_blob(b.data(), {4});
}
torch::Tensor blob_self_assigned(int n) {
  std::vector<float> v(4, 1.f);
  torch::Tensor t = t;
  t = torch::from_blob(v.data(), {4});
  t = n > 0 ? t : t;
  return n > 1 ? t.clone() : torch::Tensor();
}
