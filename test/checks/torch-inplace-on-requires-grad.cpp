// RUN: %check_torch_tidy %s torch-inplace-on-requires-grad %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-inplace-on-requires-grad %t.real -- %real_flags

#include <torch/torch.h>

#include <algorithm>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

using Loader = decltype(torch::data::make_data_loader(
    torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>()), 64));

torch::Tensor lossOf(Net &model, const torch::Tensor &x, const torch::Tensor &y) {
  return torch::nll_loss(torch::log_softmax(model->forward(x), 1), y);
}

// ---------------------------------------------------------------- positives

// P1: the manual SGD step of a training loop, no guard.
void p1_manual_sgd(Net &model, Loader &loader, double lr) {
  for (auto &batch : *loader) {
    model->zero_grad();
    lossOf(model, batch.data, batch.target).backward();
    for (auto &p : model->parameters()) {
      p -= lr * p.grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: in-place '-=' on 'p', a module parameter, while autograd is recording: autograd cannot record an in-place change to a leaf tensor that requires grad, so this throws at run time; do the update inside a 'torch::NoGradGuard' scope [torch-inplace-on-requires-grad]
      // CHECK-MESSAGES: :[[@LINE-3]]:27: note: 'parameters()' returns the module's parameters, which require grad
      // CHECK-FIXES: {{^}}      { torch::NoGradGuard no_grad; p -= lr * p.grad(); }{{$}}
    }
  }
}

// P2: the parameters copied into a vector, then taken by value.
void p2_by_value(Net &model, double lr) {
  std::vector<torch::Tensor> params = model->parameters();
  for (torch::Tensor p : params)
    p.sub_(lr * p.grad());
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'sub_' on 'p', a module parameter, while autograd is recording: {{.*}}; do the update inside a 'torch::NoGradGuard' scope
  // CHECK-MESSAGES: :[[@LINE-4]]:46: note: 'parameters()' returns the module's parameters
  // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; p.sub_(lr * p.grad()); }{{$}}
}

// P3: named_parameters() items, through value().
void p3_named(Net &model, double lr) {
  for (auto &item : model->named_parameters())
    item.value().add_(item.value().grad(), -lr);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: in-place 'add_' on 'item.value()', a module parameter, while autograd
  // CHECK-MESSAGES: :[[@LINE-3]]:28: note: 'named_parameters()' returns the module's parameters
  // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; item.value().add_(item.value().grad(), -lr); }{{$}}
}

// P4: a Linear's weight through the TORCH_MODULE holder, in a helper.
void p4_clip_weight(Net &model) {
  model->fc->weight.clamp_(-1.0, 1.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: in-place 'clamp_' on 'model->fc->weight', a module parameter, while autograd
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: a layer's weight and bias are parameters that require grad
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; model->fc->weight.clamp_(-1.0, 1.0); }{{$}}
}

// P5: a tensor made with TensorOptions().requires_grad(true), updated in a loop.
void p5_factory(const torch::Tensor &x, const torch::Tensor &y, double lr) {
  auto w = torch::zeros({784, 10}, torch::TensorOptions().requires_grad(true));
  for (int step = 0; step < 100; ++step) {
    auto loss = torch::mse_loss(x.matmul(w), y);
    loss.backward();
    w -= lr * w.grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place '-=' on 'w', a tensor that requires grad, while autograd is recording: autograd cannot record an in-place change to a leaf tensor that requires grad, so this throws at run time; do the update inside a 'torch::NoGradGuard' scope
    // CHECK-MESSAGES: :[[@LINE-6]]:59: note: the tensor is created with 'requires_grad' set here
    // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; w -= lr * w.grad(); }{{$}}
  }
}

// P6: requires_grad_() and torch::requires_grad(), then a view written into.
void p6_set_requires_grad() {
  auto b = torch::randn({10}).requires_grad_();
  b[0] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: in-place '=' on 'b[0]', a view of a tensor that requires grad, while autograd is recording: autograd cannot record an in-place change to a view of a leaf tensor that requires grad, so this throws at run time; do the update inside a 'torch::NoGradGuard' scope
  // CHECK-MESSAGES: :[[@LINE-3]]:31: note: 'requires_grad_()' makes the tensor require grad here
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; b[0] = 0; }{{$}}
  auto scale = torch::ones({1}, torch::requires_grad());
  scale.fill_(2.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: in-place 'fill_' on 'scale', a tensor that requires grad
  // CHECK-MESSAGES: :[[@LINE-3]]:33: note: the tensor is created with 'requires_grad' set here
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; scale.fill_(2.0); }{{$}}
}

// P7: a helper that takes the tensor by reference; the loop passes parameters.
void apply_update(torch::Tensor &param, double lr) {
  param.sub_(lr * param.grad());
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: in-place 'sub_' on 'param', a module parameter, while autograd is recording
  // CHECK-MESSAGES: :[[@LINE+7]]:7: note: the tensor is passed to 'apply_update' here
  // CHECK-MESSAGES: :[[@LINE+5]]:27: note: 'parameters()' returns the module's parameters
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; param.sub_(lr * param.grad()); }{{$}}
}
void p7_helper_loop(Net &model, double lr) {
  for (int epoch = 0; epoch < 3; ++epoch)
    for (auto &p : model->parameters())
      apply_update(p, lr);
}

// P8: a lambda called from the training loop.
void p8_lambda(Net &model, Loader &loader, double lr) {
  auto update = [&](torch::Tensor &p) { p.add_(p.grad(), -lr); };
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: in-place 'add_' on 'p', a module parameter, while autograd
  // CHECK-MESSAGES: :[[@LINE+6]]:7: note: the tensor is passed to a lambda here
  // CHECK-MESSAGES: :[[@LINE+4]]:27: note: 'parameters()' returns
  // CHECK-FIXES: {{^}}  auto update = [&](torch::Tensor &p) { { torch::NoGradGuard no_grad; p.add_(p.grad(), -lr); } };{{$}}
  for (auto &batch : *loader) {
    lossOf(model, batch.data, batch.target).backward();
    for (auto &p : model->parameters())
      update(p);
  }
}

// P9: a module member registered as a parameter, changed by a member function.
struct TemperatureImpl : torch::nn::Module {
  TemperatureImpl() { t = register_parameter("t", torch::ones({1})); }
  torch::Tensor forward(torch::Tensor logits) { return logits / t; }
  void anneal(double factor) { t.mul_(factor); }
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: in-place 'mul_' on 't', a module parameter, while autograd
  // CHECK-MESSAGES: :[[@LINE-4]]:27: note: 'register_parameter()' makes it a parameter that requires grad
  // CHECK-FIXES: {{^}}  void anneal(double factor) { { torch::NoGradGuard no_grad; t.mul_(factor); } }{{$}}
  torch::Tensor t;
};
TORCH_MODULE(Temperature);

// P10: the guard's block ended before the update (a sibling block).
void p10_sibling_block(Net &model, double lr) {
  {
    torch::NoGradGuard no_grad;
    model->fc->bias.zero_();
  }
  model->fc->weight.normal_(0.0, 0.02);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: in-place 'normal_' on 'model->fc->weight', a module parameter
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: a layer's weight and bias are parameters that require grad
  // CHECK-MESSAGES: :[[@LINE-6]]:24: note: the no-grad guard declared here ends with its block, before this statement
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; model->fc->weight.normal_(0.0, 0.02); }{{$}}
}

// P11: AutoGradMode(true) inside a no-grad scope turns autograd back on.
void p11_enable_inside(Net &model) {
  torch::NoGradGuard no_grad;
  {
    torch::AutoGradMode enable_grad(true);
    for (auto &p : model->parameters())
      p.mul_(0.5);
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: in-place 'mul_' on 'p', a module parameter
      // CHECK-MESSAGES: :[[@LINE-3]]:27: note: 'parameters()' returns
      // CHECK-MESSAGES: :[[@LINE-5]]:5: note: autograd is switched back on here
      // CHECK-FIXES: {{^}}      { torch::NoGradGuard no_grad; p.mul_(0.5); }{{$}}
  }
}

// P12: AutoGradMode with a value that is not a literal is not a no-grad scope.
void p12_autogradmode_flag(Net &model, bool training) {
  torch::AutoGradMode mode(training);
  model->fc->bias.zero_();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: in-place 'zero_' on 'model->fc->bias', a module parameter
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: a layer's weight
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this grad-mode switch takes a value that is not a literal, so autograd may still record
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; model->fc->bias.zero_(); }{{$}}
}

// P13: a Sequential's parameters re-initialised, with ATen's in-place function.
void p13_sequential(torch::nn::Sequential &seq) {
  for (auto &p : seq->parameters())
    torch::relu_(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: in-place 'relu_' on 'p', a module parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: 'parameters()' returns
  // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; torch::relu_(p); }{{$}}
}

// P14: the result is used: part of a computation, so no fix-it.
torch::Tensor p14_masked_forward(Net &model, const torch::Tensor &x, const torch::Tensor &mask) {
  auto w = model->fc->weight.mul_(mask);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: in-place 'mul_' on 'model->fc->weight', a module parameter, while autograd is recording: {{.*}}; do it inside a 'torch::NoGradGuard' scope if it should change the stored values, or use the out-of-place 'mul' if it is part of the computation
  // CHECK-MESSAGES: :[[@LINE-2]]:23: note: a layer's weight
  return x.matmul(w.t());
}

// P15: the optimizer's own view of the parameters, in a Trainer.
class Trainer {
public:
  explicit Trainer(Net model)
      : model_(model), optimizer_(model_->parameters(), torch::optim::SGDOptions(0.1)) {}
  void decay(double factor) {
    for (auto &group : optimizer_.param_groups())
      for (auto &p : group.params())
        p *= factor;
        // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: in-place '*=' on 'p', a module parameter
        // CHECK-MESSAGES: :[[@LINE-3]]:28: note: 'params()' returns the parameters the optimizer updates, which require grad
        // CHECK-FIXES: {{^}}        { torch::NoGradGuard no_grad; p *= factor; }{{$}}
  }

private:
  Net model_;
  torch::optim::SGD optimizer_;
};

// P16: a helper called both under a guard and without one.
void shrink(Net &model) {
  for (auto &p : model->parameters())
    p.mul_(0.9);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'mul_' on 'p', a module parameter
    // CHECK-MESSAGES: :[[@LINE-3]]:25: note: 'parameters()' returns
    // CHECK-MESSAGES: :[[@LINE+8]]:3: note: 'shrink' runs with autograd recording when called here
    // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; p.mul_(0.9); }{{$}}
}
void p16_callers(Net &model) {
  {
    torch::NoGradGuard no_grad;
    shrink(model);
  }
  shrink(model);
}

// P17: a function template, reported once for its instantiation.
template <typename Model>
void p17_template(Model &model, double lr) {
  for (auto &p : model->parameters())
    p.add_(p.grad(), -lr);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'add_' on 'p', a module parameter
    // CHECK-MESSAGES: :[[@LINE-3]]:25: note: 'parameters()' returns
    // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; p.add_(p.grad(), -lr); }{{$}}
}
template void p17_template<Net>(Net &, double);

// P18: weight initialisation through Module::apply and a lambda.
void p18_apply_init(Net &model) {
  model->apply([](torch::nn::Module &m) {
    if (auto *linear = m.as<torch::nn::Linear>())
      linear->weight.normal_(0.0, 0.02);
      // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: in-place 'normal_' on 'linear->weight', a module parameter
      // CHECK-MESSAGES: :[[@LINE-2]]:15: note: a layer's weight
      // CHECK-FIXES: {{^}}      { torch::NoGradGuard no_grad; linear->weight.normal_(0.0, 0.02); }{{$}}
  });
}

// P19: the parameters passed by value to a helper that walks them with an
// iterator.
void decay_all(std::vector<torch::Tensor> params, double factor) {
  for (auto it = params.begin(); it != params.end(); ++it)
    it->mul_(factor);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: in-place 'mul_' on 'it', a module parameter
    // CHECK-MESSAGES: :[[@LINE+5]]:3: note: the tensor is passed to 'decay_all' here
    // CHECK-MESSAGES: :[[@LINE+4]]:20: note: 'parameters()' returns
    // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; it->mul_(factor); }{{$}}
}
void p19_by_value_helper(Net &model) {
  decay_all(model->parameters(), 0.9);
}

// P20: the update written by a macro: reported, no fix-it inside the macro.
#define SGD_UPDATE(p, lr) (p) -= (lr) * (p).grad()
void p20_macro(Net &model, double lr) {
  for (auto &p : model->parameters())
    SGD_UPDATE(p, lr);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place '-=' on 'p', a module parameter
  // CHECK-MESSAGES: :[[@LINE-5]]:31: note: expanded from macro 'SGD_UPDATE'
  // CHECK-MESSAGES: :[[@LINE-4]]:25: note: 'parameters()' returns
}

// ---------------------------------------------------------------- negatives

// N1: the canonical manual update, under a guard in the same block.
void n1_guarded(Net &model, double lr) {
  torch::NoGradGuard no_grad;
  for (auto &p : model->parameters())
    p -= lr * p.grad();
}

// N2: the guard in an enclosing block covers nested scopes.
void n2_nested(Net &model, Loader &loader, double lr) {
  for (auto &batch : *loader) {
    lossOf(model, batch.data, batch.target).backward();
    {
      torch::NoGradGuard no_grad;
      for (auto &p : model->parameters()) {
        if (p.grad().defined()) {
          p.sub_(lr * p.grad());
        }
      }
    }
  }
}

// N3: InferenceMode and AutoGradMode(false).
void n3_other_guards(Net &model) {
  {
    c10::InferenceMode guard;
    model->fc->weight.clamp_(-1.0, 1.0);
  }
  {
    torch::AutoGradMode disable(false);
    model->fc->bias.zero_();
  }
}

// N4: gradients, data() and detach() are other tensors.
void n4_lookalikes(Net &model, double lr) {
  for (auto &p : model->parameters()) {
    p.grad().zero_();
    p.mutable_grad().mul_(0.5);
    p.data().sub_(lr * p.grad());
    p.detach().clamp_(-1.0, 1.0);
  }
}

// N5: tensors that do not require grad: inputs, results, clones, buffers.
void n5_no_grad_tensors(Net &model, torch::Tensor x, torch::nn::BatchNorm1d &bn) {
  x.sub_(x.mean()).div_(x.std());
  auto h = model->forward(x);
  h.relu_();
  auto copy = model->fc->weight.clone();
  copy.mul_(2.0);
  auto plain = torch::zeros({3}, torch::TensorOptions().requires_grad(false));
  plain += 1;
  bn->running_mean.zero_();
}

// N6: a helper that holds its own guard.
void sgd_step(std::vector<torch::Tensor> &params, double lr) {
  torch::NoGradGuard no_grad;
  for (auto &p : params)
    p -= lr * p.grad();
}
void n6_helper_with_guard(Net &model, Loader &loader, double lr) {
  auto params = model->parameters();
  for (auto &batch : *loader) {
    lossOf(model, batch.data, batch.target).backward();
    sgd_step(params, lr);
  }
}

// N7: a helper only ever called under a guard.
void reset_bias(Net &model) { model->fc->bias.fill_(0.0); }
void n7_caller_guard(Net &model) {
  torch::NoGradGuard no_grad;
  reset_bias(model);
}

// N8: a lambda only ever called under a guard.
void n8_lambda_under_guard(Net &model, double lr) {
  auto step = [&] {
    for (auto &p : model->parameters())
      p.add_(p.grad(), -lr);
  };
  {
    torch::NoGradGuard no_grad;
    step();
  }
}

// N9: a helper with a tensor parameter, called with tensors that do not
// require grad only.
void normalise_(torch::Tensor &t) { t.div_(t.norm()); }
void n9_helper_plain_args(Net &model, torch::Tensor x) {
  normalise_(x);
  auto out = model->forward(x);
  normalise_(out);
}

// N10: the tensor stops requiring grad, or is replaced, before the change.
void n10_rebound(Net &model) {
  auto w = torch::randn({3}, torch::requires_grad());
  w.requires_grad_(false);
  w.add_(1);
  auto v = model->fc->weight;
  v = v.detach();
  v.mul_(2);
}

// N10b: the same in the body of a range-for over the parameters, where the
// loop variable is declared: the change runs on a tensor that no longer
// requires grad. A change under a further branch does not count.
void n10b_rebound_loop_variable(Net &model, bool freeze) {
  for (auto &p : model->parameters()) {
    p.requires_grad_(false);
    p.mul_(0.5);
  }
  for (auto p : model->parameters()) {
    p = p.detach();
    p.mul_(0.5);
  }
  for (auto &p : model->parameters()) {
    p.set_requires_grad(false);
    p.add_(1);
  }
  for (auto &p : model->parameters()) {
    if (freeze)
      p.requires_grad_(false);
    p.mul_(0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'mul_' on 'p', a module parameter, while autograd is recording: {{.*}} [torch-inplace-on-requires-grad]
    // CHECK-MESSAGES: :[[@LINE-5]]:{{[0-9]+}}: note: 'parameters()' returns the module's parameters
    // CHECK-FIXES: {{^}}    { torch::NoGradGuard no_grad; p.mul_(0.5); }{{$}}
  }
}

// N10c: the change runs only where the tensor is tested not to require grad.
void n10c_tested(Net &model) {
  for (auto &p : model->parameters()) {
    if (!p.requires_grad())
      p.mul_(2);
    if (p.requires_grad()) {
    } else {
      p.add_(1);
    }
  }
  for (auto &p : model->parameters()) {
    if (p.requires_grad())
      p.mul_(2);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: in-place 'mul_' on 'p', a module parameter, while autograd is recording: {{.*}} [torch-inplace-on-requires-grad]
    // CHECK-MESSAGES: :[[@LINE-4]]:{{[0-9]+}}: note: 'parameters()' returns the module's parameters
    // CHECK-FIXES: {{^}}      { torch::NoGradGuard no_grad; p.mul_(2); }{{$}}
  }
}

// N11: parameters registered without requires_grad, and buffers.
struct FrozenImpl : torch::nn::Module {
  FrozenImpl() {
    scale = register_parameter("scale", torch::ones({1}), /*requires_grad=*/false);
    count = register_buffer("count", torch::zeros({1}));
  }
  void tick() {
    count += 1;
    scale.mul_(0.99);
  }
  torch::Tensor scale, count;
};

// N12: torch::nn::init functions disable autograd themselves.
void n12_init(Net &model) {
  torch::nn::init::normal_(model->fc->weight, 0.0, 0.02);
  torch::nn::init::zeros_(model->fc->bias);
}

// N13: a guard in a Trainer member around a call to another member.
class GuardedTrainer {
public:
  explicit GuardedTrainer(Net model) : model_(model) {}
  void step(double lr) {
    torch::NoGradGuard no_grad;
    update(lr);
  }

private:
  void update(double lr) {
    for (auto &p : model_->parameters())
      p -= lr * p.grad();
  }
  Net model_;
};

// N14: GradMode::set_enabled(false) for the rest of the block.
void n14_set_enabled(Net &model) {
  torch::autograd::GradMode::set_enabled(false);
  model->fc->weight.uniform_(-0.1, 0.1);
  torch::autograd::GradMode::set_enabled(true);
}

// N15: classes that only look like LibTorch's.
struct FakeTensor {
  FakeTensor &sub_(double) { return *this; }
  FakeTensor &operator-=(double) { return *this; }
};
struct FakeModule {
  std::vector<FakeTensor> parameters() { return {}; }
};
void n15_fakes(FakeModule &m) {
  for (auto &p : m.parameters()) {
    p.sub_(0.1);
    p -= 0.1;
  }
}

// N16: a lambda written inside a guarded block and run there.
void n16_lambda_in_guard(Net &model) {
  torch::NoGradGuard no_grad;
  auto params = model->parameters();
  std::for_each(params.begin(), params.end(), [](torch::Tensor &p) { p.mul_(0.5); });
}

// N18: Module::apply under a guard.
void n18_apply_guarded(Net &model) {
  torch::NoGradGuard no_grad;
  model->apply([](torch::nn::Module &m) {
    if (auto *linear = m.as<torch::nn::Linear>())
      linear->bias.zero_();
  });
}

// N19: a recursive helper, only ever given tensors that do not require grad.
void smooth_(torch::Tensor &t, int n) {
  if (n > 0)
    smooth_(t, n - 1);
  t.mul_(0.5);
}
void n19_recursion(Net &model, torch::Tensor x) {
  smooth_(x, 3);
  auto weights = model->fc->weight.detach();
  smooth_(weights, 2);
}

// N17: a template never instantiated is not analysed.
template <typename Model>
void n17_uninstantiated(Model &model) {
  for (auto &p : model->parameters())
    p.zero_();
}

// A helper that leaves autograd off for the rest of its caller's block, and
// helpers that only look like it.
void freeze_autograd() { torch::autograd::GradMode::set_enabled(false); }
void thaw_autograd() { torch::autograd::GradMode::set_enabled(true); }
void freeze_through() { freeze_autograd(); }
void guard_only() { torch::NoGradGuard no_grad; }
void freeze_maybe(bool f) {
  if (f)
    torch::autograd::GradMode::set_enabled(false);
}
void freeze_unless(bool f) {
  if (f)
    return;
  torch::autograd::GradMode::set_enabled(false);
}
void freeze_then_thaw() {
  freeze_autograd();
  torch::autograd::GradMode::set_enabled(true);
}

// N20: the helper's switch lasts past its return, also through a helper.
void n20_helper_switch(Net &model) {
  freeze_autograd();
  model->fc->weight.uniform_(-0.1, 0.1);
  thaw_autograd();
}
void n20_through(Net &model) {
  freeze_through();
  model->fc->bias.zero_();
}

// P-switch: a guard ends with the helper; a switch in a branch or after an
// early return may not run; switched back on by the helper or by a helper
// called after.
void p_guard_only(Net &model) {
  guard_only();
  model->fc->bias.zero_();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: in-place 'zero_' on {{.*}} [torch-inplace-on-requires-grad]
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; model->fc->bias.zero_(); }{{$}}
}
void p_maybe(Net &model, bool f) {
  freeze_maybe(f);
  model->fc->bias.zero_();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: in-place 'zero_' on {{.*}} [torch-inplace-on-requires-grad]
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; model->fc->bias.zero_(); }{{$}}
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: 'freeze_maybe' switches grad mode in a way not known when it returns, so autograd may still record after this call
}
void p_unless(Net &model, bool f) {
  freeze_unless(f);
  model->fc->bias.zero_();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: in-place 'zero_' on {{.*}} [torch-inplace-on-requires-grad]
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; model->fc->bias.zero_(); }{{$}}
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: 'freeze_unless' switches grad mode in a way not known
}
void p_thawed(Net &model) {
  freeze_then_thaw();
  model->fc->bias.zero_();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: in-place 'zero_' on {{.*}} [torch-inplace-on-requires-grad]
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; model->fc->bias.zero_(); }{{$}}
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: autograd is switched back on by this call of 'freeze_then_thaw', and stays on after it returns
}
void p_thawed_after(Net &model) {
  freeze_autograd();
  thaw_autograd();
  model->fc->bias.zero_();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: in-place 'zero_' on {{.*}} [torch-inplace-on-requires-grad]
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; model->fc->bias.zero_(); }{{$}}
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: autograd is switched back on by this call of 'thaw_autograd'
}
