#include "net.h"

#include <vector>

// P1: the loss of every batch, from losses.cpp, kept in a vector.
double p1_history(Net &model, torch::optim::SGD &opt,
                  std::vector<torch::Tensor> &xs,
                  std::vector<torch::Tensor> &ys) {
  std::vector<torch::Tensor> history;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    torch::Tensor loss = compute_loss(model, xs[i], ys[i]);
    loss.backward();
    opt.step();
    history.push_back(loss);
  }
  double sum = 0;
  for (auto &l : history)
    sum += l.item<double>();
  return sum;
}

// P2: forward outputs of another file summed over an evaluation loop that
// records.
double p2_total(Net &model, std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({1});
  for (auto &x : xs)
    total += predict(model, x).sum();
  return total.item<double>();
}

// P3: the loss two calls down, through a helper of losses.cpp.
double p3_helper(Net &model, torch::optim::SGD &opt,
                 std::vector<torch::Tensor> &xs,
                 std::vector<torch::Tensor> &ys) {
  std::vector<torch::Tensor> history;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    auto loss = through_helper(model, xs[i], ys[i]);
    loss.backward();
    opt.step();
    history.push_back(loss);
  }
  double sum = 0;
  for (auto &l : history)
    sum += l.item<double>();
  return sum;
}

// P4: in place on a tensor autograd saved: exp() keeps its result for the
// backward pass, and the forward output comes from losses.cpp.
void p4_saved(Net &model, torch::optim::SGD &opt, const torch::Tensor &x) {
  opt.zero_grad();
  torch::Tensor e = predict(model, x).exp();
  e.add_(1);
  e.sum().backward();
  opt.step();
}

// N1-N4: the helpers return no graph.
double n1_detached(Net &model, std::vector<torch::Tensor> &xs,
                   std::vector<torch::Tensor> &ys) {
  torch::Tensor total = torch::zeros({1});
  for (size_t i = 0; i < xs.size(); ++i)
    total += detached_loss(model, xs[i], ys[i]);
  for (size_t i = 0; i < xs.size(); ++i)
    total += guarded_loss(model, xs[i], ys[i]);
  for (size_t i = 0; i < xs.size(); ++i)
    total += accuracy(model, xs[i], ys[i]);
  for (size_t i = 0; i < xs.size(); ++i)
    total += scaled(xs[i]);
  return total.item<double>();
}

// N5: a number, not the tensor, is kept.
double n5_item(Net &model, std::vector<torch::Tensor> &xs,
               std::vector<torch::Tensor> &ys) {
  double total = 0;
  for (size_t i = 0; i < xs.size(); ++i)
    total += compute_loss(model, xs[i], ys[i]).item<double>();
  return total;
}

// N6: the loop runs with autograd off: the helper records no graph.
double n6_guarded(Net &model, std::vector<torch::Tensor> &xs,
                  std::vector<torch::Tensor> &ys) {
  torch::NoGradGuard no_grad;
  torch::Tensor total = torch::zeros({1});
  for (size_t i = 0; i < xs.size(); ++i)
    total += compute_loss(model, xs[i], ys[i]);
  return total.item<double>();
}

// N7: the stored loss is detached.
double n7_detach(Net &model, std::vector<torch::Tensor> &xs,
                 std::vector<torch::Tensor> &ys) {
  std::vector<torch::Tensor> history;
  for (size_t i = 0; i < xs.size(); ++i)
    history.push_back(compute_loss(model, xs[i], ys[i]).detach());
  double sum = 0;
  for (auto &l : history)
    sum += l.item<double>();
  return sum;
}
