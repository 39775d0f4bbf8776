// MaxCallDepth: a helper N calls below the function holding the loop is read
// when N <= MaxCallDepth, and so is a caller N calls above it. With 2, a
// forward two helpers down is seen (and reported), three helpers down it is
// not; a mode set three helpers down is unknown (never taken as absent); a
// model built two callers up is seen in training mode, three callers up not.
// RUN: %check_torch_tidy %s torch-missing-eval %t.mock -config="{CheckOptions: [{key: torch-missing-eval.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-missing-eval %t.real -config="{CheckOptions: [{key: torch-missing-eval.MaxCallDepth, value: 2}]}" -- %real_flags

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(8, 2))),
              drop(register_module("drop", torch::nn::Dropout(0.5))) {}
  torch::Tensor forward(torch::Tensor x) { return drop->forward(fc->forward(x)); }
  torch::nn::Linear fc;
  torch::nn::Dropout drop;
};
TORCH_MODULE(Net);

// Forward two helpers down: followed.
torch::Tensor fwd_b(Net &m, torch::Tensor x) { return m->forward(x); }
torch::Tensor fwd_a(Net &m, torch::Tensor x) { return fwd_b(m, x); }

void positive_forward_depth2(torch::Tensor x) {
  Net model;
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 10; ++i)
    fwd_a(model, x).argmax(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'model' runs in training mode in this evaluation loop{{.*}} [torch-missing-eval]
}

// Forward three helpers down: not followed.
torch::Tensor fwd_z(Net &m, torch::Tensor x) { return m->forward(x); }
torch::Tensor fwd_y(Net &m, torch::Tensor x) { return fwd_z(m, x); }
torch::Tensor fwd_x(Net &m, torch::Tensor x) { return fwd_y(m, x); }

void negative_forward_depth3(torch::Tensor x) {
  Net model;
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 10; ++i)
    fwd_x(model, x).argmax(1);
}

// eval() three helpers down: not read, so the mode is unknown, not training.
void eval_z(Net &m) { m->eval(); }
void eval_y(Net &m) { eval_z(m); }
void eval_x(Net &m) { eval_y(m); }

void negative_eval_depth3(torch::Tensor x) {
  Net model;
  eval_x(model);
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 10; ++i)
    model->forward(x).argmax(1);
}

// The model is built two callers up: followed.
double evaluate2(Net &model, torch::Tensor x) {
  torch::NoGradGuard no_grad;
  double total = 0;
  for (int i = 0; i < 10; ++i)
    total += model->forward(x).argmax(1).sum().item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'model' runs in training mode in this evaluation loop{{.*}} [torch-missing-eval]
    // CHECK-MESSAGES: :[[@LINE+3]]:54: note: 'evaluate2' is called here with 'model' in training mode
  return total;
}
double middle2(Net &model, torch::Tensor x) { return evaluate2(model, x); }
void top2(torch::Tensor x) {
  Net model;
  middle2(model, x);
}

// Three callers up: not followed.
double evaluate3(Net &model, torch::Tensor x) {
  torch::NoGradGuard no_grad;
  double total = 0;
  for (int i = 0; i < 10; ++i)
    total += model->forward(x).argmax(1).sum().item<double>();
  return total;
}
double lower3(Net &model, torch::Tensor x) { return evaluate3(model, x); }
double upper3(Net &model, torch::Tensor x) { return lower3(model, x); }
void top3(torch::Tensor x) {
  Net model;
  upper3(model, x);
}
