#include "net.h"

// P1: BCELoss on a model whose forward() (model.cpp) ends in a Linear.
void p1_bce_on_remote_forward(Net &net, torch::optim::SGD &opt,
                              torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss bce;
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    auto loss = bce(net->forward(x), y);
    loss.backward();
    opt.step();
  }
}

// P2: binary_cross_entropy on a remote helper's logits, through a holder call.
torch::Tensor p2_bce_function(Net &net, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(logits_of(net(x)), y);
}

// P3: a remote helper returning its parameter: the caller's logits pass.
torch::Tensor p3_passed_through(Net &net, torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(passed_through(net->forward(x)), y);
}

// P4: nll_loss on a remote helper's probabilities (a sigmoid).
torch::Tensor p4_nll_on_probabilities(torch::Tensor x, torch::Tensor y) {
  return torch::nll_loss(probabilities_of(x), y);
}

// P5: the optimizer steps in a remote helper and nothing clears gradients.
void p5_remote_step(Net &net, torch::optim::SGD &opt, torch::Tensor x,
                    torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
    auto loss = torch::mse_loss(net->forward(x), y);
    loss.backward();
    update(opt);
  }
}

// N1: gradients cleared by a helper defined in model.cpp.
void n1_remote_clear(Net &net, torch::optim::SGD &opt, torch::Tensor x,
                     torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
    clear_grads(opt);
    auto loss = torch::mse_loss(net->forward(x), y);
    loss.backward();
    opt.step();
  }
}

// N2: cleared by a remote method, through the trainer's own optimizer.
void n2_remote_method(Trainer &t, torch::Tensor x, torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
    t.reset_gradients();
    auto loss = torch::mse_loss(t.net->forward(x), y);
    loss.backward();
    t.opt.step();
  }
}

// N3: BCELoss on a model whose remote forward() ends in a sigmoid.
torch::Tensor n3_bce_on_probabilities(ProbNet &net, torch::Tensor x,
                                      torch::Tensor y) {
  torch::nn::BCELoss bce;
  return bce(net->forward(x), y);
}

// N4: nll_loss on remote log-probabilities.
torch::Tensor n4_nll_on_log_probabilities(torch::Tensor x, torch::Tensor y) {
  return torch::nll_loss(log_probabilities_of(x), y);
}

// N5: same names in another namespace, defined nowhere: nothing is known.
torch::Tensor n5_other_namespace(torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(other::logits_of(x), y);
}

// N6: a remote helper returning its parameter: the caller's sigmoid passes.
torch::Tensor n6_passed_probabilities(torch::Tensor x, torch::Tensor y) {
  return torch::binary_cross_entropy(passed_through(torch::sigmoid(x)), y);
}

// P7: an epoch-based scheduler stepped by a remote helper in the batch loop.
void p7_scheduler_per_batch(Net &net, torch::optim::SGD &opt,
                            torch::optim::StepLR &scheduler, torch::Tensor x,
                            torch::Tensor y) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int i = 0; i < 100; ++i) {
      opt.zero_grad();
      auto loss = torch::mse_loss(net->forward(x), y);
      loss.backward();
      opt.step();
      end_of_step(scheduler);
    }
  }
}

// N7: the same helper once per epoch.
void n7_scheduler_per_epoch(Net &net, torch::optim::SGD &opt,
                            torch::optim::StepLR &scheduler, torch::Tensor x,
                            torch::Tensor y) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int i = 0; i < 100; ++i) {
      opt.zero_grad();
      auto loss = torch::mse_loss(net->forward(x), y);
      loss.backward();
      opt.step();
    }
    end_of_step(scheduler);
  }
}

// P8: a remote update of the parameters while autograd records.
void p8_remote_update(Net &model, double lr) {
  for (auto &p : model->parameters())
    apply_update(p, lr);
}

// P9: the parameters by value, changed by a remote helper.
void p9_remote_decay(Net &model) { decay_all(model->parameters(), 0.9); }

// P10: through a helper of the other file.
void p10_remote_through(Net &model, double lr) {
  for (auto &p : model->parameters())
    step_through(p, lr);
}

// N8: the same remote update under the caller's guard.
void n8_remote_guarded(Net &model, double lr) {
  torch::NoGradGuard no_grad;
  for (auto &p : model->parameters())
    apply_update(p, lr);
}

// N9: the remote helper holds its own guard.
void n9_remote_own_guard(Net &model, double lr) {
  for (auto &p : model->parameters())
    guarded_update(p, lr);
}

// N10: a tensor that does not require grad.
void n10_remote_plain(double lr) {
  auto t = torch::zeros({3});
  apply_update(t, lr);
}

// N11: the remote helper changes only a copy of its own.
void n11_remote_copy(Net &model) {
  for (auto &p : model->parameters())
    scale_copy(p);
}

// P11: a module whose forward() calls a function of model.cpp that puts its
// input on a hard-coded device.
struct GpuNetImpl : torch::nn::Module {
  GpuNetImpl() { fc = register_module("fc", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(to_gpu(x)) * mask_like(x); }
  torch::nn::Linear fc{nullptr};
};

// N12: the function of model.cpp follows the device of its input.
struct FollowNetImpl : torch::nn::Module {
  FollowNetImpl() { fc = register_module("fc", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(to_device_of(x, x)); }
  torch::nn::Linear fc{nullptr};
};

// N13: the same function outside a module (a training script may pick its
// device).
torch::Tensor n13_script(torch::Tensor x) { return to_gpu(x); }

// P12: an evaluation loop, entered in training mode, over a model whose
// Sequential (built in model.cpp) holds a dropout.
double p12_evaluate(SeqNet &model, torch::Tensor x, torch::Tensor y) {
  torch::NoGradGuard no_grad;
  double total = 0;
  for (int i = 0; i < 10; ++i)
    total += torch::mse_loss(model->forward(x), y).item<double>();
  return total;
}

// N14: the same over a model whose Sequential holds no dropout or batch norm.
double n14_evaluate(PlainNet &model, torch::Tensor x, torch::Tensor y) {
  torch::NoGradGuard no_grad;
  double total = 0;
  for (int i = 0; i < 10; ++i)
    total += torch::mse_loss(model->forward(x), y).item<double>();
  return total;
}

void p12_n14_train(SeqNet &seq, PlainNet &plain, torch::optim::SGD &opt,
                   torch::Tensor x, torch::Tensor y) {
  for (int epoch = 0; epoch < 5; ++epoch) {
    seq->train();
    plain->train();
    for (int i = 0; i < 10; ++i) {
      opt.zero_grad();
      auto loss = torch::mse_loss(seq->forward(x), y) +
                  torch::mse_loss(plain->forward(x), y);
      loss.backward();
      opt.step();
    }
    p12_evaluate(seq, x, y);
    n14_evaluate(plain, x, y);
  }
}

// P13: a module places a tensor on the device a function of model.cpp
// returns, a literal; P14: one picked with an availability query there.
struct RemoteDeviceNetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x + torch::ones({4}, training_device()) +
           torch::zeros({4}, torch::TensorOptions().device(picked_device()));
  }
};

// N15: the device of the input, returned by a function of model.cpp; N16:
// the input's device passed through one, and options that name no device.
// P15: a literal passed through the same function.
struct FollowDeviceNetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x + torch::ones({4}, input_device(x)) +
           torch::ones({4}, or_default(x.device())) +
           torch::ones({4}, float_options()) +
           torch::ones({4}, or_default(torch::kCUDA));
  }
};

// N17: the same functions outside a module.
torch::Tensor n17_script(torch::Tensor x) {
  return x + torch::ones({4}, training_device());
}
