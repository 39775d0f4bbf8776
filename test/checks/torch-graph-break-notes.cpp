// The notes: where the graph is cut, where numbers are made a new tensor,
// which forward pass the model output comes from (and the helper it was
// reached through), and for a cut term where the loss reaches backward().
// RUN: %check_torch_tidy %s torch-graph-break %t.mock -- %mock_flags

#include <torch/torch.h>

struct HeadsImpl : torch::nn::Module {
  HeadsImpl()
      : body(register_module("body", torch::nn::Linear(8, 8))),
        cls(register_module("cls", torch::nn::Linear(8, 3))),
        reg(register_module("reg", torch::nn::Linear(8, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::relu(body->forward(x)); }
  torch::nn::Linear body, cls, reg;
};
TORCH_MODULE(Heads);

torch::Tensor score(Heads &model, torch::Tensor x) {
  return model->cls(model->forward(x));
}

void whole(Heads &model, torch::optim::SGD &opt, torch::Tensor x) {
  auto logits = score(model, x);
  auto p = logits.softmax(1).max().item<double>();
  auto loss = torch::scalar_tensor(1.0 - p);
  loss.backward();
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: the tensor given to the backward pass is cut from the graph of the model output 'model->cls(model->forward(x))' by 'item()' re-wrapped with 'torch::scalar_tensor': the backward pass throws ('element 0 of tensors does not require grad') and the model never learns from it; compute it with tensor operations on the model output, not on a copy of its values [torch-graph-break]
  // CHECK-NOTES: :[[@LINE-4]]:36: note: the graph is cut here
  // CHECK-NOTES: :[[@LINE-4]]:15: note: the values are made a new tensor here, with no autograd history
  // CHECK-NOTES: :[[@LINE-11]]:10: note: the model output comes from this forward pass, reached through 'score'
  opt.step();
}

void term(Heads &model, torch::Tensor x, torch::Tensor y, torch::Tensor t) {
  torch::optim::Adam opt(model->parameters());
  auto h = model->forward(x);
  auto loss = torch::nll_loss(torch::log_softmax(model->cls(h), 1), y);
  auto r = model->reg(h);
  loss = loss + torch::mse_loss(r.detach(), t);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: a term of the loss is cut from the graph of the model output 'model->reg(h)' by 'detach()': training runs, but no gradient flows through this term, so what only it would train never learns; compute it from the model output itself, without the detached copy [torch-graph-break]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: the model output comes from this forward pass
  loss.backward();
  // CHECK-NOTES: :[[@LINE-1]]:8: note: the loss reaches the backward pass here
  opt.step();
}

void no_grad(Heads &model, torch::optim::SGD &opt, torch::Tensor x) {
  torch::NoGradGuard guard;
  auto loss = model->forward(x).sum();
  loss.backward();
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: the tensor given to the backward pass is cut from the graph of the model output 'model->forward(x)' by running it while autograd does not record: the backward pass throws ('element 0 of tensors does not require grad') and the model never learns from it; run the forward pass outside the no-grad scope [torch-graph-break]
  // CHECK-NOTES: :[[@LINE-3]]:22: note: the model output comes from this forward pass
  opt.step();
}
