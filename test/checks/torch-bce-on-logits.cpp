// RUN: %check_torch_tidy %s torch-bce-on-logits %t.mock --fix-notes -- %mock_flags
// RUN: %check_torch_tidy %s torch-bce-on-logits %t.real --fix-notes -- %real_flags

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace F = torch::nn::functional;

// ------------------------------------------------------------------ models
// (each model that a positive reports on is defined right above it)

// The same layers as Net below, but forward() ends in torch::sigmoid.
struct ProbNetImpl : torch::nn::Module {
  ProbNetImpl() : fc(register_module("fc", torch::nn::Linear(16, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::sigmoid(fc->forward(x)); }
  torch::nn::Linear fc;
};
TORCH_MODULE(ProbNet);

// The same shape as SeqNet below, ending in a Sigmoid module.
struct SeqProbNetImpl : torch::nn::Module {
  SeqProbNetImpl() {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(16, 1),
                                                         torch::nn::Sigmoid()));
  }
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(SeqProbNet);

// Defined in another translation unit: nothing is known about it.
struct ExternalNetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
TORCH_MODULE(ExternalNet);

// Returns logits while training and probabilities otherwise.
struct DualNetImpl : torch::nn::Module {
  DualNetImpl() : fc(register_module("fc", torch::nn::Linear(16, 1))) {}
  torch::Tensor forward(torch::Tensor x) {
    auto z = fc->forward(x);
    if (is_training())
      return z;
    return torch::sigmoid(z);
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(DualNet);

// ---------------------------------------------------------------- positives

// P1: a holder's forward() ending in a Linear layer; the local criterion is
// used only here, so its type can change with it.
struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(16, 32));
    out = register_module("out", torch::nn::Linear(32, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    return out->forward(x);
  }
  torch::nn::Linear fc1{nullptr}, out{nullptr};
};
TORCH_MODULE(Net);

torch::Tensor p1_holder_forward(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss criterion;
  // CHECK-FIXES: {{^}}  torch::nn::BCEWithLogitsLoss criterion;{{$}}
  return criterion(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'torch::nn::BCELoss' expects probabilities in [0, 1], but it is given raw logits from 'NetImpl::forward()', which ends in a 'torch::nn::Linear' layer: it fails at run time on the first logit outside [0, 1] and computes a wrong loss for the others; use 'torch::nn::BCEWithLogitsLoss', which applies the sigmoid itself [torch-bce-on-logits]
  // CHECK-MESSAGES: :[[@LINE-11]]:12: note: a 'torch::nn::Linear' layer outputs raw logits here, and no sigmoid follows
  // CHECK-MESSAGES: :[[@LINE-5]]:22: note: use 'torch::nn::BCEWithLogitsLoss' on the logits
}

// P2: through ModuleHolder::operator(); the criterion is used twice: no fix.
void p2_holder_call(Net &model, torch::Tensor x, torch::Tensor y, torch::Tensor vx,
                    torch::Tensor vy) {
  torch::nn::BCELoss criterion;
  auto train_loss = criterion(model(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'torch::nn::BCELoss' expects probabilities {{.*}} raw logits from 'NetImpl::forward()'
  auto val_loss = criterion(model(vx), vy);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'torch::nn::BCELoss' expects probabilities
}

// P3: a module held in a std::shared_ptr, forward() ending in Conv2d and a
// flatten; the criterion's forward() called explicitly.
struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl() : conv(register_module("conv", torch::nn::Conv2d(3, 1, 3))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    auto h = conv->forward(x);
    return h.flatten(1);
  }
  torch::nn::Conv2d conv;
};

torch::Tensor p3_shared_ptr(std::shared_ptr<ConvNetImpl> net, torch::nn::BCELoss &criterion,
                            torch::Tensor x, torch::Tensor y) {
  return criterion->forward(net->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: {{.*}} raw logits from 'ConvNetImpl::forward()', which ends in a 'torch::nn::Conv2d' layer
  // CHECK-MESSAGES: :[[@LINE-10]]:14: note: a 'torch::nn::Conv2d' layer outputs raw logits here, and no sigmoid follows
}

// P4: the functional form, on a matmul model: the fix renames the function.
struct LogRegImpl : torch::nn::Module {
  LogRegImpl() {
    w = register_parameter("w", torch::zeros({16, 1}));
    b = register_parameter("b", torch::zeros({1}));
  }
  torch::Tensor forward(torch::Tensor x) { return torch::matmul(x, w) + b; }
  torch::Tensor w, b;
};
TORCH_MODULE(LogReg);

torch::Tensor p4_functional(LogReg &model, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'torch::binary_cross_entropy' expects probabilities in [0, 1], but it is given raw logits from 'LogRegImpl::forward()', which ends in 'torch::matmul': {{.*}}; use 'torch::binary_cross_entropy_with_logits', which applies the sigmoid itself
  // CHECK-MESSAGES: :[[@LINE-8]]:51: note: 'torch::matmul' outputs raw logits here, and no sigmoid follows
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: use 'torch::binary_cross_entropy_with_logits' on the logits
  // CHECK-FIXES: {{^}}  return torch::binary_cross_entropy_with_logits(model->forward(x), y);{{$}}
}

// P5: a local Sequential ending in Linear, torch::nn::functional form.
torch::Tensor p5_sequential(torch::Tensor x, torch::Tensor y) {
  torch::nn::Sequential seq(torch::nn::Linear(16, 8), torch::nn::ReLU(),
                            torch::nn::Linear(8, 1));
  return F::binary_cross_entropy(seq->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'torch::nn::functional::binary_cross_entropy' expects {{.*}} raw logits from a 'torch::nn::Sequential' whose last module is a 'torch::nn::Linear' layer
  // CHECK-MESSAGES: :[[@LINE-3]]:29: note: the last module of the 'torch::nn::Sequential' is a 'torch::nn::Linear' layer, which outputs raw logits
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: use 'torch::nn::functional::binary_cross_entropy_with_logits' on the logits
  // CHECK-FIXES: {{^}}  return F::binary_cross_entropy_with_logits(seq->forward(x), y);{{$}}
}

// P6: a Sequential built with push_back; the trailing Dropout passes logits on.
torch::Tensor p6_push_back(torch::Tensor x, torch::Tensor y) {
  torch::nn::Sequential seq;
  seq->push_back(torch::nn::Linear(16, 8));
  seq->push_back(torch::nn::ReLU());
  seq->push_back(torch::nn::Linear(8, 1));
  seq->push_back(torch::nn::Dropout(0.2));
  torch::nn::BCELoss bce;
  // CHECK-FIXES: {{^}}  torch::nn::BCEWithLogitsLoss bce;{{$}}
  return bce(seq->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: {{.*}} raw logits from a 'torch::nn::Sequential' whose last module is a 'torch::nn::Linear' layer
  // CHECK-MESSAGES: :[[@LINE-6]]:18: note: the last module of the 'torch::nn::Sequential' is a 'torch::nn::Linear' layer
  // CHECK-MESSAGES: :[[@LINE-5]]:22: note: use 'torch::nn::BCEWithLogitsLoss' on the logits
}

// P7: through local variables, reshaped on the way; a criterion with options.
double p7_locals(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss criterion(torch::nn::BCELossOptions().reduction(torch::kSum));
  auto scores = model->forward(x);
  auto flat = scores.view({-1});
  auto loss = criterion(flat, y.view({-1}));
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: {{.*}} raw logits from 'NetImpl::forward()'
  return loss.item<double>();
}

// P8: through a helper defined in this file.
torch::Tensor predict(Net &model, const torch::Tensor &x) { return model->forward(x).squeeze(1); }

torch::Tensor p8_helper(Net &model, torch::Tensor x, torch::Tensor y) {
  return F::binary_cross_entropy(predict(model, x), y,
                                 F::BinaryCrossEntropyFuncOptions().reduction(torch::kMean));
  // CHECK-MESSAGES: :[[@LINE-2]]:34: warning: {{.*}} raw logits from 'predict()', which ends in a 'torch::nn::Linear' layer
}

// P9: a Trainer class whose member function computes the loss, on a model
// whose Sequential member is built in the constructor.
struct SeqNetImpl : torch::nn::Module {
  SeqNetImpl() {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(16, 8),
                                                         torch::nn::ReLU(),
                                                         torch::nn::Linear(8, 1)));
  }
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(SeqNet);

class Trainer {
public:
  explicit Trainer(SeqNet model)
      : model_(model), optimizer_(model_->parameters(), torch::optim::SGDOptions(0.1)) {}
  float trainBatch(const torch::Tensor &x, const torch::Tensor &y) {
    optimizer_.zero_grad();
    auto loss = criterion_(model_->forward(x), y);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: {{.*}} raw logits from 'SeqNetImpl::forward()', which ends in a 'torch::nn::Linear' layer
    // CHECK-MESSAGES: :[[@LINE-15]]:58: note: the last module of the 'torch::nn::Sequential' is a 'torch::nn::Linear' layer, which outputs raw logits
    loss.backward();
    optimizer_.step();
    return loss.item<float>();
  }

private:
  SeqNet model_;
  torch::optim::SGD optimizer_;
  torch::nn::BCELoss criterion_;
};

// P10: a factory returning a Sequential; logits scaled by a temperature.
torch::nn::Sequential make_head(int64_t in) {
  return torch::nn::Sequential(torch::nn::Linear(in, 4), torch::nn::ReLU(),
                               torch::nn::Linear(4, 1));
}

torch::Tensor p10_factory(torch::Tensor x, torch::Tensor y, double temperature) {
  auto head = make_head(16);
  torch::nn::BCELoss criterion;
  // CHECK-FIXES: {{^}}  torch::nn::BCEWithLogitsLoss criterion;{{$}}
  auto logits = head->forward(x) / temperature;
  return criterion(logits, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: {{.*}} raw logits from a 'torch::nn::Sequential' whose last module is a 'torch::nn::Linear' layer
  // CHECK-MESSAGES: :[[@LINE-10]]:32: note: the last module of the 'torch::nn::Sequential' is a 'torch::nn::Linear' layer, which outputs raw logits
  // CHECK-MESSAGES: :[[@LINE-6]]:22: note: use 'torch::nn::BCEWithLogitsLoss'
}

// P11: a lambda called from a training loop; the criterion is used once.
void p11_lambda(Net &model, std::vector<torch::Tensor> &xs, torch::Tensor y) {
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  torch::nn::BCELoss criterion;
  // CHECK-FIXES: {{^}}  torch::nn::BCEWithLogitsLoss criterion;{{$}}
  auto step = [&](const torch::Tensor &in) {
    opt.zero_grad();
    auto out = model->forward(in);
    auto loss = criterion(out, y);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: {{.*}} raw logits from 'NetImpl::forward()'
    // CHECK-MESSAGES: :[[@LINE-7]]:22: note: use 'torch::nn::BCEWithLogitsLoss'
    loss.backward();
    opt.step();
  };
  for (auto &x : xs)
    step(x);
}

// P12: a function template, reported for its instantiation; no fix, since
// the template serves other instantiations too.
template <typename Model>
torch::Tensor p12_template(Model &model, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(model->forward(x), y, torch::ones_like(y));
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: {{.*}} raw logits from 'NetImpl::forward()'
}
template torch::Tensor p12_template<Net>(Net &, torch::Tensor, torch::Tensor);
template torch::Tensor p12_template<ProbNet>(ProbNet &, torch::Tensor, torch::Tensor);

// P13: sigmoid right before BCELoss: a stable rewrite is offered.
torch::Tensor p13_sigmoid_module(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss bce;
  // CHECK-FIXES: {{^}}  torch::nn::BCEWithLogitsLoss bce;{{$}}
  return bce(torch::sigmoid(model->forward(x)), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'torch::nn::BCELoss' applied to the output of 'torch::sigmoid' is numerically unstable: once the sigmoid saturates, confidently wrong predictions get no gradient; use 'torch::nn::BCEWithLogitsLoss' on the logits [torch-bce-on-logits]
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'torch::nn::BCEWithLogitsLoss' computes the same loss from the logits in one stable step
  // CHECK-FIXES: {{^}}  return bce(model->forward(x), y);{{$}}
}

// P14: the same with the functional form and the Tensor method.
torch::Tensor p14_sigmoid_functional(torch::Tensor z, torch::Tensor y) {
  return torch::binary_cross_entropy(z.sigmoid(), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'torch::binary_cross_entropy' applied to the output of '.sigmoid()' is numerically unstable
  // CHECK-MESSAGES: :[[@LINE-2]]:17: note: 'torch::binary_cross_entropy_with_logits' computes the same loss
  // CHECK-FIXES: {{^}}  return torch::binary_cross_entropy_with_logits(z, y);{{$}}
}

// P14b: torch::special::expit is the same sigmoid.
torch::Tensor p14b_expit(Net &model, torch::Tensor x, torch::Tensor y) {
  return F::binary_cross_entropy(torch::special::expit(model->forward(x)), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'torch::nn::functional::binary_cross_entropy' applied to the output of 'torch::special::expit' is numerically unstable
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: 'torch::nn::functional::binary_cross_entropy_with_logits' computes the same loss
  // CHECK-FIXES: {{^}}  return F::binary_cross_entropy_with_logits(model->forward(x), y);{{$}}
}

// P15: the sigmoid through a local variable: reported, no fix (the
// probabilities may be used for more than the loss).
torch::Tensor p15_sigmoid_variable(Net &model, torch::Tensor x, torch::Tensor y) {
  auto probs = torch::sigmoid(model->forward(x));
  return F::binary_cross_entropy(probs, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'torch::nn::functional::binary_cross_entropy' applied to the output of 'torch::sigmoid' is numerically unstable
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: the sigmoid is applied here
}

// P16: a reassigned variable: the last assignment counts.
torch::Tensor p16_reassigned(Net &model, ProbNet &probe, torch::Tensor x, torch::Tensor y) {
  auto out = probe->forward(x);
  out = model->forward(x);
  return torch::nn::functional::binary_cross_entropy(out, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: {{.*}} raw logits from 'NetImpl::forward()'
  // CHECK-MESSAGES: :[[@LINE-2]]:33: note: use 'torch::nn::functional::binary_cross_entropy_with_logits'
  // CHECK-FIXES: {{^}}  return torch::nn::functional::binary_cross_entropy_with_logits(out, y);{{$}}
}

// P17: a loss written through a macro: reported where the macro is used; no fix
// inside a macro.
#define BINARY_LOSS(input, target) torch::binary_cross_entropy(input, target)
torch::Tensor p17_macro(Net &model, torch::Tensor x, torch::Tensor y) {
  return BINARY_LOSS(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'torch::binary_cross_entropy' expects probabilities {{.*}} raw logits from 'NetImpl::forward()'
}

// P18: a Sequential of named modules.
torch::Tensor p18_named_sequential(torch::Tensor x, torch::Tensor y) {
  torch::nn::Sequential seq({{"hidden", torch::nn::Linear(16, 8)},
                             {"act", torch::nn::Tanh()},
                             {"score", torch::nn::Linear(8, 1)}});
  return torch::binary_cross_entropy(seq->forward(x), y, {}, at::Reduction::Sum);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: {{.*}} raw logits from a 'torch::nn::Sequential' whose last module is a 'torch::nn::Linear' layer
  // CHECK-MESSAGES: :[[@LINE-3]]:40: note: the last module of the 'torch::nn::Sequential' is a 'torch::nn::Linear' layer, which outputs raw logits
}

// ---------------------------------------------------------------- negatives


// N1: BCEWithLogitsLoss on logits is the right loss.
torch::Tensor n1_with_logits(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCEWithLogitsLoss criterion;
  return criterion(model->forward(x), y) +
         torch::binary_cross_entropy_with_logits(model->forward(x), y) +
         F::binary_cross_entropy_with_logits(model->forward(x), y);
}

// N2: the model's forward() ends in torch::sigmoid (even if the variable
// is called "logits").
torch::Tensor n2_probability_model(ProbNet &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss criterion;
  auto logits = model->forward(x);
  return criterion(logits, y);
}

// N3: a Sequential ending in Sigmoid, as a member and as a local.
torch::Tensor n3_sequential_sigmoid(SeqProbNet &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::Sequential local(torch::nn::Linear(16, 1), torch::nn::Sigmoid(),
                              torch::nn::Dropout(0.1));
  return torch::binary_cross_entropy(model->forward(x), y) +
         torch::binary_cross_entropy(local->forward(x), y);
}

// N4: a Sequential ending in a Functional that wraps torch::sigmoid.
torch::Tensor n4_functional_sigmoid(torch::Tensor x, torch::Tensor y) {
  torch::nn::Sequential seq(torch::nn::Linear(16, 1));
  seq->push_back(torch::nn::Functional(torch::sigmoid));
  return F::binary_cross_entropy(seq->forward(x), y);
}

// N5: a model defined in another translation unit.
torch::Tensor n5_external(ExternalNet &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss criterion;
  return criterion(model->forward(x), y);
}

// N6: a Sequential received as a parameter: its contents are unknown here.
torch::Tensor n6_sequential_parameter(torch::nn::Sequential &seq, torch::Tensor x,
                                      torch::Tensor y) {
  return torch::binary_cross_entropy(seq->forward(x), y);
}

// N7: logits only on some paths.
torch::Tensor n7_conditional(Net &model, torch::Tensor x, torch::Tensor y, bool calibrated) {
  auto out = model->forward(x);
  if (calibrated)
    out = torch::sigmoid(out);
  else
    out = out.clamp(0, 1);
  return torch::binary_cross_entropy(out, y);
}

// N8: a forward() that returns logits in training and probabilities otherwise.
torch::Tensor n8_mixed_returns(DualNet &model, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(model->forward(x), y);
}

// N9: softmax outputs are in [0, 1] too.
torch::Tensor n9_softmax(Net &model, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(torch::softmax(model->forward(x), 1), y);
}

// N10: the sigmoid is applied inside a helper, not right before the loss.
torch::Tensor probabilities(Net &model, const torch::Tensor &x) {
  return torch::sigmoid(model->forward(x));
}
torch::Tensor n10_helper_sigmoid(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss criterion;
  return criterion(probabilities(model, x), y);
}

// N11: other losses on logits are none of this check's business.
torch::Tensor n11_other_losses(Net &model, torch::Tensor x, torch::Tensor y) {
  return torch::mse_loss(model->forward(x), y) +
         F::cross_entropy(model->forward(x), y.to(torch::kLong));
}

// N12: a class that happens to be called BCELoss in another namespace.
namespace mylib {
struct BCELoss {
  torch::Tensor operator()(const torch::Tensor &in, const torch::Tensor &t) { return in - t; }
};
} // namespace mylib
torch::Tensor n12_other_bceloss(Net &model, torch::Tensor x, torch::Tensor y) {
  mylib::BCELoss criterion;
  return criterion(model->forward(x), y);
}

// N13: logits received as a parameter: the caller is not followed.
torch::Tensor n13_parameter(const torch::Tensor &logits, const torch::Tensor &y) {
  return torch::binary_cross_entropy(logits, y);
}

// N14: logits only from the second iteration on (mixed paths).
torch::Tensor n14_loop(Net &model, std::vector<torch::Tensor> &xs, torch::Tensor y) {
  torch::Tensor out = torch::zeros_like(y);
  torch::Tensor total = torch::zeros({});
  for (auto &x : xs) {
    total = total + torch::binary_cross_entropy(out, y);
    out = model->forward(x);
  }
  return total;
}

// N15: an uninstantiated template says nothing.
template <typename Model>
torch::Tensor n15_uninstantiated(Model &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss criterion;
  return criterion(model->forward(x), y);
}

// N16: the sigmoid suggestion is only about BCELoss, not BCEWithLogitsLoss.
torch::Tensor n16_probabilities_from_sigmoid_module(torch::Tensor z, torch::Tensor y) {
  torch::nn::Sigmoid sigmoid;
  torch::nn::BCEWithLogitsLoss criterion;
  return criterion(z, y) + torch::binary_cross_entropy(torch::softmax(z, 0), y);
}

// N17: recursion does not loop the analysis.
torch::Tensor refine(Net &model, torch::Tensor x, int steps) {
  return steps == 0 ? x : refine(model, model->forward(x), steps - 1);
}
torch::Tensor n17_recursion(Net &model, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(refine(model, x, 3), y);
}

// N18: a Sigmoid pushed only under a condition: unknown.
torch::Tensor n18_conditional_push_back(torch::Tensor x, torch::Tensor y, bool probabilities) {
  torch::nn::Sequential seq(torch::nn::Linear(16, 1));
  if (probabilities)
    seq->push_back(torch::nn::Sigmoid());
  return torch::binary_cross_entropy(seq->forward(x), y);
}

// N19: a Functional wrapping a lambda that applies the sigmoid.
torch::Tensor n19_functional_lambda(torch::Tensor x, torch::Tensor y) {
  torch::nn::Sequential seq(
      torch::nn::Linear(16, 1),
      torch::nn::Functional([](torch::Tensor t) { return torch::sigmoid(t); }));
  torch::nn::BCELoss criterion;
  return criterion(seq->forward(x), y);
}
