// RUN: %check_torch_tidy %s torch-retained-loss-graph %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-retained-loss-graph %t.real -- %real_flags

#include <torch/torch.h>

#include <map>
#include <memory>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(8, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

using Loader = decltype(torch::data::make_data_loader(
    torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>()), 64));

torch::Tensor train_step(Net &model, torch::optim::Optimizer &opt,
                         const torch::Tensor &x, const torch::Tensor &y) {
  opt.zero_grad();
  auto loss = torch::mse_loss(model->forward(x), y);
  loss.backward();
  opt.step();
  return loss;
}

// ---------------------------------------------------------------- positives

// P1: the loss of every batch kept in a vector declared before the loop.
std::vector<float> p1_push_back(Net &model, Loader &loader, torch::optim::SGD &opt) {
  std::vector<torch::Tensor> losses;
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto loss = torch::nll_loss(model->forward(batch.data), batch.target);
    loss.backward();
    opt.step();
    losses.push_back(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: a loss that carries this iteration's autograd graph is stored in 'losses', which outlives the loop: the graph of every iteration, activations included, stays alive and memory grows with every batch; store its 'detach()', or a number from 'item<double>()' [torch-retained-loss-graph]
    // CHECK-MESSAGES: :[[@LINE-5]]:17: note: the graph is recorded by this loss
    // CHECK-MESSAGES: :[[@LINE-9]]:30: note: 'losses' is declared here, outside the loop
    // CHECK-FIXES: losses.push_back(loss.detach());
  }
  std::vector<float> out;
  for (auto &l : losses)
    out.push_back(l.item<float>());
  return out;
}

// P2: a tensor accumulator declared before the batch loop.
void p2_accumulate(Net &model, std::vector<torch::Tensor> &xs,
                   std::vector<torch::Tensor> &ys, torch::optim::Adam &opt) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    torch::Tensor total_loss = torch::zeros({1});
    for (size_t i = 0; i < xs.size(); ++i) {
      opt.zero_grad();
      torch::Tensor loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
      loss.backward();
      opt.step();
      total_loss += loss;
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: a loss that carries this iteration's autograd graph is accumulated into 'total_loss', which outlives the loop{{.*}}; accumulate its 'detach()', or a number from 'item<double>()' [torch-retained-loss-graph]
      // CHECK-FIXES: total_loss += loss.detach();
    }
    std::printf("%f\n", total_loss.item<double>());
  }
}

// P3: `total = total + loss`, and the loss written in place of the value.
double p3_sum(Net &model, std::vector<torch::Tensor> &xs, torch::optim::SGD &opt) {
  auto criterion = torch::nn::MSELoss();
  torch::Tensor total = torch::zeros({});
  for (auto &x : xs) {
    opt.zero_grad();
    auto out = model(x);
    auto loss = criterion(out, x);
    loss.backward();
    opt.step();
    total = total + criterion(out, x);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: a loss that carries this iteration's autograd graph is accumulated into 'total'{{.*}} [torch-retained-loss-graph]
    // CHECK-FIXES: total = total + criterion(out, x).detach();
  }
  return total.item<double>();
}

// P4: model outputs kept for metrics after the epoch.
void p4_outputs(Net &model, Loader &loader, torch::optim::SGD &opt) {
  std::vector<torch::Tensor> predictions;
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto output = model->forward(batch.data);
    torch::nll_loss(output, batch.target).backward();
    opt.step();
    predictions.emplace_back(output);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: a model output that carries this iteration's autograd graph is stored in 'predictions'{{.*}} [torch-retained-loss-graph]
    // CHECK-MESSAGES: :[[@LINE-5]]:26: note: the graph is recorded by this forward pass
    // CHECK-FIXES: predictions.emplace_back(output.detach());
  }
  std::printf("%d\n", (int)predictions.size());
}

// P5: a map from the epoch to its loss; the loss comes from a helper.
void p5_map_and_helper(Net &model, torch::optim::SGD &opt, torch::Tensor x,
                       torch::Tensor y) {
  std::map<int, torch::Tensor> history;
  int epoch = 0;
  while (epoch < 100) {
    history[epoch] = train_step(model, opt, x, y);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: a loss that carries this iteration's autograd graph is stored in 'history'{{.*}} [torch-retained-loss-graph]
    // CHECK-MESSAGES: :[[@LINE-87]]:15: note: the graph is recorded by this loss, called from the loop through 'train_step'
    // CHECK-FIXES: history[epoch] = train_step(model, opt, x, y).detach();
    ++epoch;
  }
  std::printf("%d\n", (int)history.size());
}

// P6: a Trainer class keeping the losses in a member.
class Trainer {
public:
  Trainer(Net model) : model_(model), opt_(model->parameters(), 0.1) {}
  void fit(Loader &loader) {
    for (auto &batch : *loader) {
      opt_.zero_grad();
      auto loss = torch::nll_loss(model_->forward(batch.data), batch.target);
      loss.backward();
      opt_.step();
      history_.push_back(loss);
      // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: a loss that carries this iteration's autograd graph is stored in 'history_'{{.*}} [torch-retained-loss-graph]
      // CHECK-FIXES: history_.push_back(loss.detach());
    }
  }
  double last() const { return history_.back().item<double>(); }

private:
  Net model_;
  torch::optim::SGD opt_;
  std::vector<torch::Tensor> history_;
};

// P7: the loss accumulated in a lambda's loop, the accumulator captured.
void p7_lambda(Net &model, std::vector<torch::Tensor> &xs, torch::optim::SGD &opt) {
  torch::Tensor running = torch::zeros({});
  auto epoch = [&] {
    for (auto &x : xs) {
      opt.zero_grad();
      auto loss = model(x).sum();
      loss.backward();
      opt.step();
      running -= loss;
      // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: a model output that carries this iteration's autograd graph is accumulated into 'running'{{.*}} [torch-retained-loss-graph]
      // CHECK-FIXES: running -= loss.detach();
    }
  };
  epoch();
  std::printf("%f\n", running.item<double>());
}

// ---------------------------------------------------------------- negatives

// N1: numbers, detached tensors and scalars.
void n1_detached(Net &model, Loader &loader, torch::optim::SGD &opt) {
  std::vector<float> a;
  std::vector<torch::Tensor> b;
  std::vector<float> c;
  double total = 0;
  torch::Tensor t = torch::zeros({});
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto output = model->forward(batch.data);
    auto loss = torch::nll_loss(output, batch.target);
    loss.backward();
    opt.step();
    a.push_back(loss.item<float>());
    b.push_back(loss.detach());
    b.push_back(output.detach());
    c.push_back(loss.item().toFloat());
    total += loss.item<double>();
    t += loss.detach();
    t = t + output.detach().mean();
  }
  std::printf("%f %d %d %d %f\n", total, (int)a.size(), (int)b.size(), (int)c.size(),
              t.item<double>());
}

// N2: an evaluation loop under a no-grad guard, and under InferenceMode.
double n2_eval(Net &model, Loader &loader) {
  torch::Tensor total = torch::zeros({});
  std::vector<torch::Tensor> outs;
  {
    torch::NoGradGuard no_grad;
    for (auto &batch : *loader) {
      auto out = model->forward(batch.data);
      total += torch::nll_loss(out, batch.target);
      outs.push_back(out);
    }
  }
  {
    c10::InferenceMode guard;
    for (auto &batch : *loader)
      total = total + torch::nll_loss(model->forward(batch.data), batch.target);
  }
  return total.item<double>() + outs.size();
}

// N3: an evaluation helper only ever called under no-grad.
double evaluate(Net &model, std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (auto &x : xs)
    total += model(x).sum();
  return total.item<double>();
}
double n3_caller(Net &model, std::vector<torch::Tensor> &xs) {
  torch::NoGradGuard no_grad;
  return evaluate(model, xs);
}

// N4: losses of a sequence summed on purpose, one backward after the loop
// (truncated backpropagation through time).
void n4_bptt(Net &model, std::vector<torch::Tensor> &steps, torch::optim::SGD &opt) {
  opt.zero_grad();
  torch::Tensor seq_loss = torch::zeros({});
  for (auto &x : steps)
    seq_loss += model(x).pow(2).mean();
  seq_loss.backward();
  opt.step();
}

// N5: outputs collected for one torch::cat and a single backward.
void n5_cat(Net &model, std::vector<torch::Tensor> &chunks, torch::Tensor target,
            torch::optim::SGD &opt) {
  std::vector<torch::Tensor> outputs;
  for (auto &c : chunks)
    outputs.push_back(model->forward(c));
  auto all = torch::cat(outputs);
  auto loss = torch::mse_loss(all, target);
  loss.backward();
  opt.step();
}

// N6: per-step losses kept, then summed and backpropagated with
// torch::autograd::backward.
void n6_autograd_backward(Net &model, std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> parts;
  for (auto &x : xs)
    parts.push_back(model(x).sum());
  torch::autograd::backward({torch::stack(parts).sum()});
}

// N7: the container lives for one iteration only.
void n7_per_iteration(Net &model, Loader &loader, torch::optim::SGD &opt) {
  for (auto &batch : *loader) {
    std::vector<torch::Tensor> parts;
    parts.push_back(torch::nll_loss(model->forward(batch.data), batch.target));
    opt.zero_grad();
    torch::stack(parts).sum().backward();
    opt.step();
  }
}

// N8: the outputs are returned to the caller, which may backpropagate.
std::vector<torch::Tensor> n8_returned(Net &model, std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> outs;
  for (auto &x : xs)
    outs.push_back(model(x));
  return outs;
}

// N9: data, not a loss or an output, and a loss computed before the loop.
void n9_not_recorded_here(Net &model, std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> scaled;
  torch::Tensor fixed = model(xs[0]).sum();
  std::vector<torch::Tensor> same;
  for (auto &x : xs) {
    scaled.push_back(x * 2);
    same.push_back(fixed);
  }
  std::printf("%d %d\n", (int)scaled.size(), (int)same.size());
}

// ------------------------------------------------------- more shapes

// P8: a history kept across epochs, filled in the batch loop: reported once,
// at the batch loop.
void p8_across_epochs(Net &model, Loader &loader, torch::optim::SGD &opt) {
  std::vector<torch::Tensor> history;
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &batch : *loader) {
      opt.zero_grad();
      auto loss = torch::nll_loss(model->forward(batch.data), batch.target);
      loss.backward();
      opt.step();
      history.push_back(loss);
      // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: a loss that carries this iteration's autograd graph is stored in 'history'{{.*}} [torch-retained-loss-graph]
      // CHECK-FIXES: history.push_back(loss.detach());
    }
  std::printf("%d\n", (int)history.size());
}

// P9: a do-while loop, a Sequential behind a shared_ptr-held holder, a map
// filled with emplace.
void p9_do_sequential(std::vector<torch::Tensor> &xs, torch::optim::SGD &opt) {
  torch::nn::Sequential seq(torch::nn::Linear(8, 4), torch::nn::ReLU(), torch::nn::Linear(4, 1));
  std::map<size_t, torch::Tensor> by_step;
  size_t i = 0;
  do {
    auto y = seq->forward(xs[i]);
    opt.zero_grad();
    y.sum().backward();
    opt.step();
    by_step.emplace(i, y);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: a model output that carries this iteration's autograd graph is stored in 'by_step'{{.*}} [torch-retained-loss-graph]
    // CHECK-FIXES: by_step.emplace(i, y.detach());
  } while (++i < xs.size());
  std::printf("%d\n", (int)by_step.size());
}

// P10: a function template, reported in its instantiation.
template <typename Model>
double p10_template(Model &model, std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (auto &x : xs)
    total += model->forward(x).mean();
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: a model output that carries this iteration's autograd graph is accumulated into 'total'{{.*}} [torch-retained-loss-graph]
  // CHECK-FIXES: total += model->forward(x).mean().detach();
  return total.item<double>();
}
double p10_caller(Net &model, std::vector<torch::Tensor> &xs) { return p10_template(model, xs); }

// N10: a helper called under a guard from the loop, and a closure given to
// LBFGS that backpropagates the kept losses.
torch::Tensor batch_loss(Net &model, torch::Tensor x) { return model(x).sum(); }
double n10_guarded_helper(Net &model, std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (auto &x : xs) {
    torch::NoGradGuard no_grad;
    total += batch_loss(model, x);
  }
  return total.item<double>();
}
void n10_closure(Net &model, std::vector<torch::Tensor> &xs, torch::optim::LBFGS &opt) {
  std::vector<torch::Tensor> parts;
  for (auto &x : xs)
    parts.push_back(model(x).sum());
  opt.step([&] {
    opt.zero_grad();
    auto loss = torch::stack(parts).sum();
    loss.backward();
    return loss;
  });
}

// N11: the caller's vector, filled by a helper: the caller decides.
void n11_parameter(Net &model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &out) {
  for (auto &x : xs)
    out.push_back(model(x));
}

// N12: integer and boolean results carry no graph: predicted classes kept
// for an epoch accuracy (reduced from a greedy captioning decoder).
double n12_classes(Net &model, Loader &loader, torch::optim::SGD &opt) {
  std::vector<torch::Tensor> predicted, correct;
  torch::Tensor hits = torch::zeros({});
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto output = model->forward(batch.data);
    torch::nll_loss(output, batch.target).backward();
    opt.step();
    predicted.push_back(output.argmax(1));
    correct.push_back(output.argmax(1) == batch.target);
    hits += torch::eq(output.argmax(1), batch.target).sum();
  }
  return hits.item<double>() + predicted.size() + correct.size();
}

// N13: a module's forward() runs its branches in a loop and concatenates
// their outputs into its by-value parameter, which it returns: the graph is
// the forward pass's result, wanted by the caller's backward (a false
// positive of the corpus scan on multi-branch decoders).
struct ForkImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> parts;
    for (int i = 0; i < 3; ++i)
      parts.push_back(arms[i]->as<torch::nn::Linear>()->forward(x));
    x = torch::cat(parts, 1);
    return x;
  }
  torch::nn::ModuleList arms;
};

// P11: the same loop in a function whose by-value parameter is overwritten
// but not returned: the outputs stay kept in 'parts' only.
int p11_parameter_not_returned(Net &model, torch::Tensor x) {
  std::vector<torch::Tensor> parts;
  for (int i = 0; i < 3; ++i)
    parts.push_back(model(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: a model output that carries this iteration's autograd graph is stored in 'parts'{{.*}} [torch-retained-loss-graph]
  // CHECK-FIXES: parts.push_back(model(x).detach());
  x = torch::cat(parts, 1);
  return (int)x.size(0);
}
