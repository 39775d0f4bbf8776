#include "net.h"

// P1: the features of features.cpp are detached: nothing reaches the model.
void p1_detached(Net &model, torch::optim::SGD &opt, const torch::Tensor &x,
                 const torch::Tensor &y) {
  opt.zero_grad();
  auto loss = torch::mse_loss(frozen_features(model, x), y);
  loss.backward();
  opt.step();
}

// P2: the forward pass of features.cpp runs under its own guard.
void p2_no_grad(Net &model, torch::optim::SGD &opt, const torch::Tensor &x,
                const torch::Tensor &y) {
  opt.zero_grad();
  auto loss = torch::mse_loss(no_grad_scores(model, x), y);
  loss.backward();
  opt.step();
}

// P3: the model output is written here, cut by argmax in features.cpp.
void p3_labels(Net &model, torch::optim::SGD &opt, const torch::Tensor &x,
               const torch::Tensor &y) {
  opt.zero_grad();
  auto loss = torch::mse_loss(to_labels(model->forward(x)), y);
  loss.backward();
  opt.step();
}

// P4: one term cut while the other trains the same model.
void p4_term(Net &model, torch::optim::SGD &opt, const torch::Tensor &x,
             const torch::Tensor &y) {
  opt.zero_grad();
  auto loss = torch::mse_loss(embed(model, x), y) +
              frozen_features(model, x).pow(2).mean();
  loss.backward();
  opt.step();
}

// N1, N2: the graph is kept through features.cpp.
void n1_kept(Net &model, torch::optim::SGD &opt, const torch::Tensor &x,
             const torch::Tensor &y) {
  opt.zero_grad();
  torch::mse_loss(embed(model, x), y).backward();
  torch::mse_loss(rescale(model->forward(x)), y).backward();
  opt.step();
}

// N3: a detached teacher's features are the target, not a term.
void n3_teacher(Net &student, Net &teacher, torch::optim::SGD &opt,
                const torch::Tensor &x) {
  opt.zero_grad();
  torch::mse_loss(student->forward(x), frozen_features(teacher, x)).backward();
  opt.step();
}

// N4: a function no summary describes may carry a graph.
void n4_opaque(Net &model, torch::optim::SGD &opt, const torch::Tensor &x,
               const torch::Tensor &y) {
  opt.zero_grad();
  torch::mse_loss(opaque(model->forward(x).detach()), y).backward();
  opt.step();
}

// N5: the whole step under the caller's guard is not a training step (no
// backward pass runs).
torch::Tensor n5_eval(Net &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  return embed(model, x);
}
