// RUN: %check_torch_tidy %s torch-loss-activation-mismatch %t.mock --fix-notes -- %mock_flags
// RUN: %check_torch_tidy %s torch-loss-activation-mismatch %t.real --fix-notes -- %real_flags

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace F = torch::nn::functional;

// ------------------------------------------------------------------ models

// Ends in a Linear layer: raw logits.
struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(16, 32));
    out = register_module("out", torch::nn::Linear(32, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    return out->forward(x);
  }
  torch::nn::Linear fc1{nullptr}, out{nullptr};
};
TORCH_MODULE(Net);

// Ends in torch::sigmoid: probabilities.
struct ProbNetImpl : torch::nn::Module {
  ProbNetImpl() : fc(register_module("fc", torch::nn::Linear(16, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::sigmoid(fc->forward(x)); }
  torch::nn::Linear fc;
};
TORCH_MODULE(ProbNet);

// A Sequential member ending in Softmax: probabilities.
struct SoftNetImpl : torch::nn::Module {
  SoftNetImpl() {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(16, 10),
                                                         torch::nn::Softmax(1)));
  }
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(SoftNet);

// A Sequential member ending in LogSoftmax: log-probabilities.
struct LogSoftNetImpl : torch::nn::Module {
  LogSoftNetImpl() {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(16, 10),
                                                         torch::nn::LogSoftmax(1)));
  }
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(LogSoftNet);

// Defined in another translation unit: nothing is known about it.
struct ExternalNetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
TORCH_MODULE(ExternalNet);

// ------------------------------------------------- positives: NLL on logits

// P1: an NLLLoss module on a holder whose forward() ends in Linear.
torch::Tensor p1_nll_module(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::NLLLoss criterion;
  return criterion(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'torch::nn::NLLLoss' expects log-probabilities, but it is given raw logits from 'NetImpl::forward()', which ends in a 'torch::nn::Linear' layer: it computes -x[target], which has no lower bound, so training pushes the target logit towards +inf; apply 'torch::log_softmax' first, or use 'torch::nn::CrossEntropyLoss' on the logits [torch-loss-activation-mismatch]
  // CHECK-MESSAGES: :[[@LINE-49]]:12: note: a 'torch::nn::Linear' layer outputs raw logits here, and no log_softmax follows
}

// P2: torch::nll_loss on a model held by value, called through operator().
torch::Tensor p2_nll_function(Net model, torch::Tensor x, torch::Tensor y) {
  return torch::nll_loss(model(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'torch::nll_loss' expects log-probabilities, but it is given raw logits from 'NetImpl::forward()'{{.*}}; apply 'torch::log_softmax' first, or use 'torch::cross_entropy_loss' on the logits
}

// P3: torch::nn::functional::nll_loss on a model held by std::shared_ptr.
torch::Tensor p3_nll_shared_ptr(std::shared_ptr<NetImpl> net, torch::Tensor x, torch::Tensor y) {
  return F::nll_loss(net->forward(x), y, F::NLLLossFuncOptions().ignore_index(-1));
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'torch::nn::functional::nll_loss' expects log-probabilities, but it is given raw logits from 'NetImpl::forward()'{{.*}}, or use 'torch::nn::functional::cross_entropy' on the logits
}

// P4: at::nll_loss2d on a convolution, through a reference to the Impl.
struct SegNetImpl : torch::nn::Module {
  SegNetImpl() : conv(register_module("conv", torch::nn::Conv2d(3, 4, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) { return conv->forward(x); }
  torch::nn::Conv2d conv;
};
torch::Tensor p4_nll2d(SegNetImpl &net, torch::Tensor x, torch::Tensor y) {
  return at::nll_loss2d(net.forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'torch::nll_loss2d' expects log-probabilities, but it is given raw logits from 'SegNetImpl::forward()', which ends in a 'torch::nn::Conv2d' layer
  // CHECK-MESSAGES: :[[@LINE-6]]:58: note: a 'torch::nn::Conv2d' layer outputs raw logits here, and no log_softmax follows
}

// P5: a local Sequential ending in Linear, through a variable.
torch::Tensor p5_nll_sequential(torch::Tensor x, torch::Tensor y) {
  torch::nn::Sequential seq(torch::nn::Linear(16, 8), torch::nn::ReLU(),
                            torch::nn::Linear(8, 4));
  auto scores = seq->forward(x);
  return torch::nll_loss(scores, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: {{.*}} raw logits from a 'torch::nn::Sequential' whose last module is a 'torch::nn::Linear' layer
  // CHECK-MESSAGES: :[[@LINE-4]]:29: note: the last module of the 'torch::nn::Sequential' is a 'torch::nn::Linear' layer, which outputs raw logits
}

// ------------------------------------------ positives: NLL on probabilities

// P6: a Sequential member ending in Softmax.
torch::Tensor p6_nll_softmax_model(SoftNet &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::NLLLoss nll(torch::nn::NLLLossOptions().reduction(torch::kSum));
  return nll->forward(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'torch::nn::NLLLoss' expects log-probabilities, but it is given probabilities from 'SoftNetImpl::forward()', which ends in a 'torch::nn::Softmax' layer: without the log it computes -p[target], whose gradient vanishes for confidently wrong predictions; use 'torch::log_softmax' instead, or 'torch::nn::CrossEntropyLoss' on the logits [torch-loss-activation-mismatch]
  // CHECK-MESSAGES: :[[@LINE-75]]:58: note: the last module of the 'torch::nn::Sequential' is a 'torch::nn::Softmax' layer, which outputs probabilities
}

// P7: torch::softmax written as the argument: it becomes log_softmax.
torch::Tensor p7_nll_softmax_here(Net &model, torch::Tensor x, torch::Tensor y) {
  return torch::nll_loss(torch::softmax(model->forward(x), 1), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'torch::nll_loss' expects log-probabilities, but it is given probabilities from 'torch::softmax'
  // CHECK-MESSAGES: :[[@LINE-2]]:33: note: 'log_softmax' gives the log-probabilities 'torch::nll_loss' expects
  // CHECK-FIXES: {{^}}  return torch::nll_loss(torch::log_softmax(model->forward(x), 1), y);{{$}}
}

// P8: the Tensor method, and a sigmoid through a variable.
torch::Tensor p8_nll_methods(Net &model, torch::Tensor x, torch::Tensor y) {
  auto logits = model->forward(x);
  auto probs = logits.sigmoid();
  return F::nll_loss(logits.softmax(-1), y) + F::nll_loss(probs, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'torch::nn::functional::nll_loss' expects log-probabilities, but it is given probabilities from '.softmax()'
  // CHECK-MESSAGES: :[[@LINE-2]]:29: note: 'log_softmax' gives the log-probabilities
  // CHECK-MESSAGES: :[[@LINE-3]]:59: warning: 'torch::nn::functional::nll_loss' expects log-probabilities, but it is given probabilities from '.sigmoid()'
  // CHECK-MESSAGES: :[[@LINE-5]]:16: note: '.sigmoid()' outputs probabilities here
  // CHECK-FIXES: {{^}}  return F::nll_loss(logits.log_softmax(-1), y) + F::nll_loss(probs, y);{{$}}
}

// -------------------------------------------- positives: CE on probabilities

// P9: a helper returning softmax.
torch::Tensor class_probabilities(Net &model, const torch::Tensor &x) {
  return torch::softmax(model->forward(x), /*dim=*/1);
}
torch::Tensor p9_ce_helper(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::CrossEntropyLoss criterion;
  return criterion(class_probabilities(model, x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'torch::nn::CrossEntropyLoss' applies log_softmax itself, but it is given probabilities from 'class_probabilities()', which ends in 'torch::softmax': a softmax over values in [0, 1] stays close to uniform, so the loss cannot approach 0 and its gradients are tiny; pass the logits instead [torch-loss-activation-mismatch]
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: 'torch::softmax' outputs probabilities here
}

// P10: softmax over the class dimension written as the argument: dropped.
torch::Tensor p10_ce_softmax_here(torch::Tensor z, torch::Tensor y) {
  return torch::cross_entropy_loss(torch::softmax(z, 1), y) +
         F::cross_entropy((z.softmax(1)), y, F::CrossEntropyFuncOptions().label_smoothing(0.1));
  // CHECK-MESSAGES: :[[@LINE-2]]:36: warning: 'torch::cross_entropy_loss' applies log_softmax itself, but it is given probabilities from 'torch::softmax'
  // CHECK-MESSAGES: :[[@LINE-3]]:36: note: pass the logits to 'torch::cross_entropy_loss'
  // CHECK-MESSAGES: :[[@LINE-3]]:27: warning: 'torch::nn::functional::cross_entropy' applies log_softmax itself, but it is given probabilities from '.softmax()'
  // CHECK-MESSAGES: :[[@LINE-4]]:28: note: pass the logits to 'torch::nn::functional::cross_entropy'
  // CHECK-FIXES: {{^}}  return torch::cross_entropy_loss(z, y) +{{$}}
  // CHECK-FIXES: {{^}}         F::cross_entropy(z, y, F::CrossEntropyFuncOptions().label_smoothing(0.1));{{$}}
}

// P11: a softmax over another dimension, or with a dtype, or through the
// options form: reported, not rewritten.
torch::Tensor p11_ce_softmax_other(torch::Tensor z, torch::Tensor y) {
  return F::cross_entropy(torch::softmax(z, -1), y) +
         F::cross_entropy(torch::softmax(z, 1, torch::kDouble), y) +
         F::cross_entropy(F::softmax(z, F::SoftmaxFuncOptions(1)), y);
  // CHECK-MESSAGES: :[[@LINE-3]]:27: warning: 'torch::nn::functional::cross_entropy' applies log_softmax itself
  // CHECK-MESSAGES: :[[@LINE-4]]:27: note: 'torch::softmax' outputs probabilities here
  // CHECK-MESSAGES: :[[@LINE-4]]:27: warning: 'torch::nn::functional::cross_entropy' applies log_softmax itself
  // CHECK-MESSAGES: :[[@LINE-5]]:27: note: 'torch::softmax' outputs probabilities here
  // CHECK-MESSAGES: :[[@LINE-5]]:27: warning: 'torch::nn::functional::cross_entropy' applies log_softmax itself, but it is given probabilities from 'torch::nn::functional::softmax'
  // CHECK-MESSAGES: :[[@LINE-6]]:27: note: 'torch::nn::functional::softmax' outputs probabilities here
}

// P12: in a lambda of a training loop, on a Sequential ending in Softmax.
void p12_lambda(std::vector<torch::Tensor> &xs, torch::Tensor y) {
  torch::nn::Sequential seq(torch::nn::Linear(16, 10), torch::nn::Softmax(1));
  torch::optim::SGD opt(seq->parameters(), torch::optim::SGDOptions(0.1));
  torch::nn::CrossEntropyLoss criterion;
  auto step = [&](const torch::Tensor &in) {
    opt.zero_grad();
    auto loss = criterion(seq->forward(in), y);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'torch::nn::CrossEntropyLoss' applies log_softmax itself, but it is given probabilities from a 'torch::nn::Sequential' whose last module is a 'torch::nn::Softmax' layer
    // CHECK-MESSAGES: :[[@LINE-7]]:56: note: the last module of the 'torch::nn::Sequential' is a 'torch::nn::Softmax' layer, which outputs probabilities
    loss.backward();
    opt.step();
  };
  for (auto &x : xs)
    step(x);
}

// P13: member functions of a Trainer class, on a model held by value.
class Trainer {
public:
  explicit Trainer(SoftNet model)
      : model_(model), optimizer_(model_->parameters(), torch::optim::SGDOptions(0.1)) {}
  float trainBatch(const torch::Tensor &x, const torch::Tensor &y) {
    optimizer_.zero_grad();
    auto loss = criterion_(predict(x), y);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'torch::nn::CrossEntropyLoss' applies log_softmax itself, but it is given probabilities from 'Trainer::predict()', which ends in a 'torch::nn::Softmax' layer
    // CHECK-MESSAGES: :[[@LINE-163]]:58: note: the last module of the 'torch::nn::Sequential' is a 'torch::nn::Softmax' layer, which outputs probabilities
    loss.backward();
    optimizer_.step();
    return loss.item<float>();
  }

private:
  torch::Tensor predict(const torch::Tensor &x) { return model_->forward(x); }
  SoftNet model_;
  torch::optim::SGD optimizer_;
  torch::nn::CrossEntropyLoss criterion_;
};

// P14: a sigmoid model fed to cross-entropy: no rewrite (the intent may be
// multi-label).
torch::Tensor p14_ce_sigmoid(ProbNet &model, torch::Tensor x, torch::Tensor y) {
  return F::cross_entropy(torch::sigmoid(x), y) + torch::cross_entropy_loss(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'torch::nn::functional::cross_entropy' applies log_softmax itself, but it is given probabilities from 'torch::sigmoid'
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: 'torch::sigmoid' outputs probabilities here
  // CHECK-MESSAGES: :[[@LINE-3]]:77: warning: 'torch::cross_entropy_loss' applies log_softmax itself, but it is given probabilities from 'ProbNetImpl::forward()', which ends in 'torch::sigmoid'
  // CHECK-MESSAGES: :[[@LINE-192]]:51: note: 'torch::sigmoid' outputs probabilities here
}

// ------------------------------- positives: BCEWithLogits on probabilities

// P15: a BCEWithLogitsLoss module on a model ending in torch::sigmoid.
torch::Tensor p15_bce_logits_module(ProbNet &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCEWithLogitsLoss criterion;
  return criterion(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'torch::nn::BCEWithLogitsLoss' applies a sigmoid itself, but it is given probabilities from 'ProbNetImpl::forward()', which ends in 'torch::sigmoid': a second sigmoid maps them into [0.5, 0.73], so its predictions never fall below 0.5 and its gradients are tiny; pass the logits instead [torch-loss-activation-mismatch]
  // CHECK-MESSAGES: :[[@LINE-202]]:51: note: 'torch::sigmoid' outputs probabilities here
}

// P16: the sigmoid written as the argument: dropped.
torch::Tensor p16_bce_logits_sigmoid_here(Net &model, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy_with_logits(torch::sigmoid(model->forward(x)), y) +
         F::binary_cross_entropy_with_logits(model->forward(x).sigmoid(), y) +
         F::binary_cross_entropy_with_logits(torch::special::expit(x), y);
  // CHECK-MESSAGES: :[[@LINE-3]]:50: warning: 'torch::binary_cross_entropy_with_logits' applies a sigmoid itself, but it is given probabilities from 'torch::sigmoid'
  // CHECK-MESSAGES: :[[@LINE-4]]:50: note: pass the logits to 'torch::binary_cross_entropy_with_logits'
  // CHECK-MESSAGES: :[[@LINE-4]]:46: warning: 'torch::nn::functional::binary_cross_entropy_with_logits' applies a sigmoid itself, but it is given probabilities from '.sigmoid()'
  // CHECK-MESSAGES: :[[@LINE-5]]:46: note: pass the logits to
  // CHECK-MESSAGES: :[[@LINE-5]]:46: warning: 'torch::nn::functional::binary_cross_entropy_with_logits' applies a sigmoid itself, but it is given probabilities from 'torch::special::expit'
  // CHECK-MESSAGES: :[[@LINE-6]]:46: note: pass the logits to
  // CHECK-FIXES: {{^}}  return torch::binary_cross_entropy_with_logits(model->forward(x), y) +{{$}}
  // CHECK-FIXES: {{^}}         F::binary_cross_entropy_with_logits(model->forward(x), y) +{{$}}
  // CHECK-FIXES: {{^}}         F::binary_cross_entropy_with_logits(x, y);{{$}}
}

// P17: the sigmoid through a variable: no rewrite (the probabilities may have
// other uses).
torch::Tensor p17_bce_logits_variable(Net &model, torch::Tensor x, torch::Tensor y) {
  auto probs = torch::sigmoid(model->forward(x));
  torch::nn::BCEWithLogitsLoss criterion(torch::nn::BCEWithLogitsLossOptions().pos_weight(torch::ones({1})));
  return criterion(probs, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'torch::nn::BCEWithLogitsLoss' applies a sigmoid itself, but it is given probabilities from 'torch::sigmoid'
  // CHECK-MESSAGES: :[[@LINE-4]]:16: note: 'torch::sigmoid' outputs probabilities here
}

// P18: a function template, reported for its instantiation; no rewrite, since
// the template serves other instantiations too.
template <typename Model>
torch::Tensor p18_template(Model &model, torch::Tensor x, torch::Tensor y) {
  return torch::nll_loss(model->forward(x).softmax(1), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'torch::nll_loss' expects log-probabilities, but it is given probabilities from '.softmax()'
  // CHECK-MESSAGES: :[[@LINE-2]]:26: note: '.softmax()' outputs probabilities here
}
template torch::Tensor p18_template<Net>(Net &, torch::Tensor, torch::Tensor);
template torch::Tensor p18_template<ProbNet>(ProbNet &, torch::Tensor, torch::Tensor);

// P19: a loss written through a macro: reported where the macro is used; no
// rewrite inside a macro.
#define CLASS_LOSS(input, target) torch::nll_loss(input, target)
torch::Tensor p19_macro(Net &model, torch::Tensor x, torch::Tensor y) {
  return CLASS_LOSS(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'torch::nll_loss' expects log-probabilities, but it is given raw logits
  // CHECK-MESSAGES: :[[@LINE-257]]:12: note: a 'torch::nn::Linear' layer outputs raw logits here
}

// ---------------------------------------------------------------- negatives

// N1: NLL on log-probabilities: log_softmax as a function, a method, the
// functional form, a LogSoftmax module, a Sequential ending in LogSoftmax.
torch::Tensor n1_nll_log_probabilities(Net &model, LogSoftNet &lsm, torch::Tensor x,
                                       torch::Tensor y) {
  torch::nn::NLLLoss criterion;
  torch::nn::LogSoftmax log_softmax(1);
  torch::nn::Sequential seq(torch::nn::Linear(16, 10), torch::nn::LogSoftmax(1),
                            torch::nn::Dropout(0.1));
  auto logits = model->forward(x);
  return criterion(torch::log_softmax(logits, 1), y) +
         torch::nll_loss(logits.log_softmax(1), y) +
         F::nll_loss(F::log_softmax(logits, F::LogSoftmaxFuncOptions(1)), y) +
         criterion(log_softmax(logits), y) + criterion->forward(lsm->forward(x), y) +
         at::nll_loss_nd(seq->forward(x), y);
}

// N2: cross-entropy on logits, and on log-probabilities (log_softmax is
// idempotent: the loss is the same).
torch::Tensor n2_ce_logits(Net &model, LogSoftNet &lsm, torch::Tensor x, torch::Tensor y) {
  torch::nn::CrossEntropyLoss criterion;
  return criterion(model->forward(x), y) + F::cross_entropy(model(x), y) +
         torch::cross_entropy_loss(torch::log_softmax(model->forward(x), 1), y) +
         criterion(lsm->forward(x), y);
}

// N3: BCEWithLogits on logits.
torch::Tensor n3_bce_logits_on_logits(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCEWithLogitsLoss criterion;
  return criterion(model->forward(x), y) +
         torch::binary_cross_entropy_with_logits(model->forward(x), y);
}

// N4: unknown activations: a model from another file, a parameter, a
// Sequential received as a parameter.
torch::Tensor n4_unknown(ExternalNet &model, torch::nn::Sequential &seq,
                         const torch::Tensor &scores, torch::Tensor x, torch::Tensor y) {
  torch::nn::NLLLoss nll;
  torch::nn::CrossEntropyLoss ce;
  return nll(model->forward(x), y) + torch::nll_loss(scores, y) +
         ce(seq->forward(x), y) + F::cross_entropy(scores, y);
}

// N5: softmax for a metric that never reaches the loss.
double n5_metric(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::nn::CrossEntropyLoss criterion;
  auto logits = model->forward(x);
  auto probs = torch::softmax(logits, 1);
  auto accuracy = probs.argmax(1).eq(y).to(torch::kFloat).mean();
  auto loss = criterion(logits, y);
  loss.backward();
  return accuracy.item<double>();
}

// N6: a variable called "probs" that holds logits.
torch::Tensor n6_names_do_not_matter(Net &model, torch::Tensor x, torch::Tensor y) {
  auto probs = model->forward(x);
  return F::cross_entropy(probs, y) + F::binary_cross_entropy_with_logits(probs, y);
}

// N7: a class called NLLLoss in another namespace.
namespace mylib {
struct NLLLoss {
  torch::Tensor operator()(const torch::Tensor &in, const torch::Tensor &t) { return in - t; }
};
} // namespace mylib
torch::Tensor n7_other_nllloss(Net &model, torch::Tensor x, torch::Tensor y) {
  mylib::NLLLoss criterion;
  return criterion(model->forward(x), y);
}

// N8: other losses are other checks' business.
torch::Tensor n8_other_losses(Net &model, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(model->forward(x), y) +
         torch::mse_loss(torch::softmax(model->forward(x), 1), y);
}

// N9: an uninstantiated template says nothing.
template <typename Model>
torch::Tensor n9_uninstantiated(Model &model, torch::Tensor x, torch::Tensor y) {
  return torch::nll_loss(model->forward(x), y);
}

// N10: probabilities only on some paths.
torch::Tensor n10_conditional(Net &model, torch::Tensor x, torch::Tensor y, bool calibrated) {
  auto out = model->forward(x);
  if (calibrated)
    out = torch::softmax(out, 1);
  return F::cross_entropy(out, y);
}
