// RUN: %check_torch_tidy %s torch-inplace-on-saved-tensor %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-inplace-on-saved-tensor %t.real -- %real_flags

#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <vector>

namespace F = torch::nn::functional;

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(8, 8))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

// ---------------------------------------------------------------- positives

// P1: a gate's sigmoid output scaled in place in forward(), then returned.
struct GateImpl : torch::nn::Module {
  GateImpl() : fc(register_module("fc", torch::nn::Linear(8, 8))) {}
  torch::Tensor forward(torch::Tensor x) {
    auto g = torch::sigmoid(fc->forward(x));
    g.mul_(2.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'mul_' on 'g', the output of 'sigmoid', which autograd saved for its backward pass: backward() will throw 'one of the variables needed for gradient computation has been modified by an inplace operation' after the forward pass has run; use the out-of-place 'mul', or change 'g.clone()' instead [torch-inplace-on-saved-tensor]
    // CHECK-MESSAGES: :[[@LINE-3]]:21: note: 'sigmoid' saves its output for the backward pass here
    return g;
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(Gate);

// P2: the variable rebound to the sigmoid's output, then changed: the saved
// tensor is the output.
void p2_rebound(Net &model, const torch::Tensor &x, const torch::Tensor &y) {
  auto h = model->forward(x);
  h = h.sigmoid();
  h.mul_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'mul_' on 'h', the output of 'sigmoid', which autograd saved
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'sigmoid' saves its output
  torch::mse_loss(h, y).backward();
}

// P3: exp, tanh, softmax and relu as tensor methods, ATen functions and
// torch::nn::functional calls, in a training loop.
void p3_outputs(Net &model, const std::vector<torch::Tensor> &xs,
                torch::optim::SGD &opt) {
  for (const auto &x : xs) {
    opt.zero_grad();
    auto h = model->forward(x);
    auto e = h.exp();
    e.add_(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'add_' on 'e', the output of 'exp'
    // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'exp' saves its output
    auto t = torch::tanh(h);
    t.clamp_(-0.5, 0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'clamp_' on 't', the output of 'tanh'
    // CHECK-MESSAGES: :[[@LINE-3]]:21: note: 'tanh' saves its output
    auto p = F::softmax(h, F::SoftmaxFuncOptions(1));
    p.div_(p.sum());
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'div_' on 'p', the output of 'softmax'
    // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'softmax' saves its output
    auto r = F::relu(h);
    r += 1;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place '+=' on 'r', the output of 'relu', which autograd saved for its backward pass: {{.*}}; use the out-of-place '+', or change 'r.clone()' instead
    // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'relu' saves its output
    auto s = torch::softmax(h, 1);
    s.mul_(2);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'mul_' on 's', the output of 'softmax'
    // CHECK-MESSAGES: :[[@LINE-3]]:21: note: 'softmax' saves its output
    (e + t + p + r + s).sum().backward();
    opt.step();
  }
}

// P4: module forms: a ReLU member applied, a Sigmoid's forward().
struct BlockImpl : torch::nn::Module {
  BlockImpl()
      : fc(register_module("fc", torch::nn::Linear(8, 8))),
        act(register_module("act", torch::nn::ReLU())),
        gate(register_module("gate", torch::nn::Sigmoid())) {}
  torch::Tensor forward(torch::Tensor x) {
    auto h = act(fc(x));
    h.mul_(0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'mul_' on 'h', the output of 'ReLU'
    // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'ReLU' saves its output
    auto g = gate->forward(h);
    g.sub_(0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'sub_' on 'g', the output of 'Sigmoid'
    // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'Sigmoid' saves its output
    return h + g;
  }
  torch::nn::Linear fc;
  torch::nn::ReLU act;
  torch::nn::Sigmoid gate;
};
TORCH_MODULE(Block);

// P5: an operand of '*' whose other operand requires grad: mul saves the
// plain operand to compute the gradient of the other.
void p5_operand(Net &model, torch::Tensor mask, const torch::Tensor &x) {
  auto h = model->forward(x);
  auto y = mask * h;
  mask.mul_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: in-place 'mul_' on 'mask', which '*' saved for the gradient of its other operand: backward() will throw {{.*}}; use the out-of-place 'mul', or change 'mask.clone()' instead
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: '*' saves 'mask' here to compute the gradient of its other operand
  y.sum().backward();
}

// P6: matmul, mm, div and pow with a parameter or a forward result.
void p6_operands(Net &model, const torch::Tensor &x, torch::Tensor a,
                 torch::Tensor b, torch::Tensor c, torch::Tensor d) {
  auto y1 = a.matmul(model->fc->weight.t());
  a.add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'add_' on 'a', which 'matmul' saved
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'matmul' saves 'a' here
  auto h = model->forward(x);
  auto y2 = torch::mm(b, h);
  b.zero_();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'zero_' on 'b', which 'mm' saved for the gradient of its other operand: {{.*}}; change 'b.clone()' instead [torch-inplace-on-saved-tensor]
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'mm' saves 'b' here
  auto y3 = h / c;
  c.clamp_(1.0, 2.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'clamp_' on 'c', which '/' saved
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: '/' saves 'c' here
  auto y4 = d.pow(h);
  d.mul_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'mul_' on 'd', which 'pow' saved
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'pow' saves 'd' here
  auto sq = h.pow(2);
  h.add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'add_' on 'h', which 'pow' saved to compute its gradient: backward() will throw
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: 'pow' saves 'h' here to compute its own gradient{{$}}
  (y1.sum() + y2.sum() + y3.sum() + y4.sum() + sq.sum()).backward();
}

// P7: relu_ keeps its own output; a later change of it throws.
torch::Tensor p7_relu_then_scale(Net &model, const torch::Tensor &x) {
  auto h = model->forward(x);
  h.relu_();
  h.mul_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'mul_' on 'h', the output of 'relu_'
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: 'relu_' saves its output
  return h;
}

// P8: the result is assigned and the saved tensor is not used again: the
// out-of-place form is the fix.
torch::Tensor p8_assigned(Net &model, const torch::Tensor &x) {
  auto y = model->forward(x).sigmoid();
  auto z = y.mul_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: in-place 'mul_' on 'y', the output of 'sigmoid'
  // CHECK-MESSAGES: :[[@LINE-3]]:30: note: 'sigmoid' saves its output
  // CHECK-FIXES: {{^}}  auto z = y.mul(2);{{$}}
  return z;
}

// P9: the fresh output changed at once, in a chain: the out-of-place form.
torch::Tensor p9_chain(Net &model, const torch::Tensor &x) {
  auto y = torch::tanh(model->forward(x)).add_(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: in-place 'add_' on the output of 'tanh', which autograd saved for its backward pass: {{.*}}; use the out-of-place 'add', or change 'torch::tanh(model->forward(x)).clone()' instead
  // CHECK-MESSAGES: :[[@LINE-2]]:19: note: 'tanh' saves its output
  // CHECK-FIXES: {{^}}  auto y = torch::tanh(model->forward(x)).add(1);{{$}}
  return y;
}

// P10: a no-grad scope around the change does not help: the version counter
// still moves, and backward() still throws.
void p10_guarded_change(Net &model, const torch::Tensor &x) {
  auto p = torch::softmax(model->forward(x), 1);
  {
    torch::NoGradGuard no_grad;
    p.clamp_(1e-6, 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place 'clamp_' on 'p', the output of 'softmax'
    // CHECK-MESSAGES: :[[@LINE-5]]:19: note: 'softmax' saves its output
  }
  p.log().sum().backward();
}

// P11: in a lambda.
void p11_lambda(Net &model, const std::vector<torch::Tensor> &xs) {
  auto step = [&](const torch::Tensor &x) {
    auto g = model->forward(x).sigmoid();
    g *= 0.5;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: in-place '*=' on 'g', the output of 'sigmoid'
    // CHECK-MESSAGES: :[[@LINE-3]]:32: note: 'sigmoid' saves its output
    g.sum().backward();
  };
  for (const auto &x : xs)
    step(x);
}

// P12: a function template, reported once for its instantiation.
template <typename Model>
torch::Tensor p12_template(Model &model, const torch::Tensor &x) {
  auto y = torch::relu(model->forward(x));
  y.add_(0.1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'add_' on 'y', the output of 'relu'
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'relu' saves its output
  return y;
}
template torch::Tensor p12_template<Net>(Net &, const torch::Tensor &);

// ---------------------------------------------------------------- negatives

// N1: sigmoid saves its output, not its input.
void n1_input_changed(Net &model, const torch::Tensor &x) {
  auto h = model->forward(x);
  auto y = h.sigmoid();
  h.mul_(2);
  y.sum().backward();
}

// N2: add and sub do not use their operands' values in their backward pass.
void n2_add_sub(Net &model, const torch::Tensor &x, torch::Tensor a) {
  auto h = model->forward(x);
  auto y = a + h;
  a.add_(1);
  auto z = a - h;
  a.sub_(1);
  (y + z).sum().backward();
}

// N3: a clone is another tensor.
torch::Tensor n3_clone(Net &model, const torch::Tensor &x) {
  auto y = model->forward(x).sigmoid();
  auto z = y.clone();
  z.mul_(2);
  return z;
}

// N4: recorded under a no-grad guard: nothing saved.
torch::Tensor n4_no_grad(Net &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  auto p = torch::softmax(model->forward(x), 1);
  p.mul_(100);
  return p;
}

// N5: the change comes after the backward pass that used the graph.
void n5_after_backward(Net &model, const torch::Tensor &x) {
  auto y = model->forward(x).sigmoid();
  y.sum().backward();
  y.mul_(2);
}

// N6: a reassignment makes the variable another tensor; multiplying by a
// number saves nothing.
torch::Tensor n6_reassigned(Net &model, const torch::Tensor &x) {
  auto h = model->forward(x);
  auto y = h.sigmoid();
  y = y * 2;
  y.mul_(2);
  auto k = h * 3;
  h.mul_(2);
  return y + k;
}

// N7: relu_ on a fresh value, and the plain activation of a forward result.
torch::Tensor n7_fresh_relu(Net &model, const torch::Tensor &x) {
  auto h = model->forward(x);
  h.relu_();
  return h;
}

// N8: no graph: data that does not require grad.
torch::Tensor n8_plain_data(const torch::Tensor &batch) {
  auto p = torch::sigmoid(batch);
  p.mul_(2);
  auto a = batch * 3;
  auto q = a * batch;
  a.add_(1);
  return p + q;
}

// N9: a leaf that requires grad: torch-inplace-on-requires-grad's case.
void n9_leaf(Net &model, const torch::Tensor &x) {
  auto w = torch::ones({8}, torch::requires_grad());
  auto h = model->forward(x);
  auto y = w * h;
  w.mul_(2);
  y.sum().backward();
}

// N10: the variable is rebound by a helper that takes it by reference.
void refresh(torch::Tensor &t) { t = t.detach().clone(); }
torch::Tensor n10_helper_rebinds(Net &model, const torch::Tensor &x) {
  auto y = model->forward(x).exp();
  refresh(y);
  y.mul_(2);
  return y;
}

// N11: the graph is never wanted: a number read from the changed output.
double n11_not_wanted(Net &model, const torch::Tensor &x) {
  auto p = torch::softmax(model->forward(x), 1);
  p.mul_(100);
  return p.max().item<double>();
}

// N12: the reparameterisation trick: exp_ on a fresh result, then an in-place
// add on the product, which nothing saved.
torch::Tensor n12_reparameterise(const torch::Tensor &mu,
                                 const torch::Tensor &log_var) {
  auto std = log_var.div(2).exp_();
  auto eps = torch::randn_like(std);
  return eps.mul(std).add_(mu);
}

// N13: attention scores masked in place: matmul saves its operands, not its
// output.
torch::Tensor n13_masked_scores(Net &model, const torch::Tensor &x,
                                const torch::Tensor &mask) {
  auto q = model->forward(x);
  auto scores = torch::matmul(q, q.transpose(0, 1));
  scores.masked_fill_(mask, -std::numeric_limits<float>::infinity());
  auto weights = torch::softmax(scores / std::sqrt(8.0), -1);
  return torch::matmul(weights, q);
}

// N14: a kernel built from constants and normalised in place: no graph.
torch::Tensor n14_gaussian_kernel(int size, float sigma) {
  auto coords = torch::arange(size, torch::kFloat);
  coords -= size / 2;
  auto g = torch::exp(-(coords.pow(2)) / (2 * sigma * sigma));
  g /= g.sum();
  return g;
}
