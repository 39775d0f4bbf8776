// RUN: %check_torch_tidy %s torch-scheduler-misuse %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-scheduler-misuse %t.real -- %real_flags

#include <torch/torch.h>

#include <memory>
#include <vector>

#if !__has_include(<torch/optim/schedulers/reduce_on_plateau_scheduler.h>)
// LibTorch 1.13 has no ReduceLROnPlateauScheduler: declared as 2.x declares it.
namespace torch {
namespace optim {
class ReduceLROnPlateauScheduler {
public:
  enum SchedulerMode { min, max };
  enum ThresholdMode { rel, abs };
  ReduceLROnPlateauScheduler(Optimizer &optimizer, SchedulerMode mode = min,
                             float factor = 0.1, int patience = 10,
                             double threshold = 1e-4,
                             ThresholdMode threshold_mode = rel, int cooldown = 0,
                             const std::vector<float> &min_lr = std::vector<float>(),
                             double eps = 1e-8, bool verbose = false);
  virtual ~ReduceLROnPlateauScheduler() = default;
  void step(float metric);

private:
  Optimizer &optimizer;
};
} // namespace optim
} // namespace torch
#endif

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

using Loader = decltype(torch::data::make_data_loader(
    torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>()), 64));

// A scheduler of the user's own, derived from LRScheduler: epoch-based too.
struct HalvingLR : torch::optim::LRScheduler {
  explicit HalvingLR(torch::optim::Optimizer &o) : LRScheduler(o) {}
  std::vector<double> get_lrs() override {
    std::vector<double> lrs = get_current_lrs();
    for (double &lr : lrs)
      lr /= 2;
    return lrs;
  }
};

float train_epoch(Net &model, Loader &loader, torch::optim::Optimizer &opt) {
  float total = 0;
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto loss = torch::nll_loss(model->forward(batch.data), batch.target);
    loss.backward();
    opt.step();
    total += loss.item<float>();
  }
  return total;
}

float evaluate(Net &model, Loader &loader) {
  torch::NoGradGuard no_grad;
  model->eval();
  float total = 0;
  for (auto &batch : *loader)
    total += torch::nll_loss(model->forward(batch.data), batch.target).item<float>();
  return total;
}

void end_of_batch(torch::optim::StepLR &s) { s.step(); }

// ---------------------------------------------------------------- positives

// P1: StepLR by value, stepped in the batch loop nested in the epoch loop.
void p1_step_lr_per_batch(Net &model, Loader &loader) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(opt, 30, 0.1);
  for (int epoch = 0; epoch < 90; ++epoch) {
    for (auto &batch : *loader) {
      opt.zero_grad();
      auto loss = torch::nll_loss(model->forward(batch.data), batch.target);
      loss.backward();
      opt.step();
      sched.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: epoch-based scheduler 'sched' ('StepLR') is stepped in the per-batch loop: it decays the learning rate after every batch, as many times too fast as an epoch has batches; step it once per epoch, after the batch loop [torch-scheduler-misuse]
      // CHECK-MESSAGES: :[[@LINE-7]]:5: note: the per-batch loop is here
    }
  }
}

// P2: an LRScheduler subclass through a shared_ptr, index loops.
void p2_subclass_index_loops(Net &model, std::vector<torch::Tensor> &xs,
                             std::vector<torch::Tensor> &ys) {
  auto opt = std::make_shared<torch::optim::Adam>(model->parameters());
  std::shared_ptr<torch::optim::LRScheduler> sched = std::make_shared<HalvingLR>(*opt);
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (size_t i = 0; i < xs.size(); ++i) {
      opt->zero_grad();
      torch::nll_loss(model->forward(xs[i]), ys[i]).backward();
      opt->step();
      sched->step();
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: epoch-based scheduler 'sched' ('LRScheduler') is stepped in the per-batch loop{{.*}} [torch-scheduler-misuse]
    }
  }
}

// P3: a loop over a data loader in a helper (no epoch loop in sight), the
// scheduler stepped through another helper.
void p3_loader_loop_helper(Net &model, Loader &loader, torch::optim::SGD &opt,
                           torch::optim::StepLR &sched) {
  for (auto &batch : *loader) {
    opt.zero_grad();
    torch::nll_loss(model->forward(batch.data), batch.target).backward();
    opt.step();
    end_of_batch(sched);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: epoch-based scheduler 'sched' ('StepLR') is stepped in the per-batch loop{{.*}} [torch-scheduler-misuse]
  }
}

// P4: a Trainer class holding the scheduler by unique_ptr.
struct Trainer {
  Net model;
  torch::optim::SGD opt{model->parameters(), torch::optim::SGDOptions(0.1)};
  std::unique_ptr<torch::optim::StepLR> sched =
      std::make_unique<torch::optim::StepLR>(opt, 10);
  void fit(Loader &loader, int epochs) {
    while (epochs-- > 0) {
      for (auto &batch : *loader) {
        opt.zero_grad();
        torch::nll_loss(model->forward(batch.data), batch.target).backward();
        opt.step();
        sched->step();
        // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: epoch-based scheduler 'sched' ('StepLR') is stepped in the per-batch loop{{.*}} [torch-scheduler-misuse]
      }
    }
  }
};

// P5: ReduceLROnPlateau given the training loss; validation written inline.
void p5_plateau_inline(Net &model, Loader &train, Loader &val) {
  torch::optim::Adam opt(model->parameters());
  torch::optim::ReduceLROnPlateauScheduler sched(opt);
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    float train_loss = 0;
    for (auto &b : *train) {
      opt.zero_grad();
      auto loss = torch::nll_loss(model->forward(b.data), b.target);
      loss.backward();
      opt.step();
      train_loss += loss.item<float>();
    }
    model->eval();
    float val_loss = 0;
    {
      torch::NoGradGuard no_grad;
      for (auto &b : *val)
        val_loss += torch::nll_loss(model->forward(b.data), b.target).item<float>();
    }
    sched.step(train_loss / 100);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: scheduler 'sched' ('ReduceLROnPlateauScheduler') is stepped with the training loss while a validation loss is computed in the same epoch: the training loss keeps falling as the model overfits, so the learning rate is cut when training stalls, not when the model stops improving on unseen data; pass the validation loss to 'step()' [torch-scheduler-misuse]
    // CHECK-MESSAGES: :[[@LINE-13]]:12: note: the metric is computed from the loss 'backward()' is called on here
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: a validation loss is computed here
  }
}

// P6: the same through helpers that train and evaluate.
void p6_plateau_helpers(Net &model, Loader &train, Loader &val) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  auto sched = std::make_unique<torch::optim::ReduceLROnPlateauScheduler>(opt);
  for (int epoch = 0; epoch < 10; ++epoch) {
    float train_loss = train_epoch(model, train, opt);
    float val_loss = evaluate(model, val);
    (void)val_loss;
    sched->step(train_loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: scheduler 'sched' ('ReduceLROnPlateauScheduler') is stepped with the training loss{{.*}} [torch-scheduler-misuse]
    // CHECK-MESSAGES: :[[@LINE-5]]:24: note: the metric is the result of 'train_epoch', which trains the model
    // CHECK-MESSAGES: :[[@LINE-5]]:22: note: a validation loss is computed here
  }
}

// P7: stepped at the top of the epoch, before the batch loop steps.
void p7_before_optimizer(Net &model, Loader &loader) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(opt, 30);
  for (int epoch = 0; epoch < 90; ++epoch) {
    sched.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: scheduler 'sched' ('StepLR') is stepped before the optimizer's first 'step()' in this iteration: the learning rate changes before the optimizer has used the current one, so the schedule runs one step ahead; step the scheduler after the optimizer [torch-scheduler-misuse]
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: the optimizer steps here, after the scheduler
    for (auto &batch : *loader) {
      opt.zero_grad();
      torch::nll_loss(model->forward(batch.data), batch.target).backward();
      opt.step();
    }
  }
}

// P8: the same with the training in a helper.
void p8_before_helper(Net &model, Loader &loader) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(opt, 30);
  for (int epoch = 0; epoch < 90; ++epoch) {
    sched.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: scheduler 'sched' ('StepLR') is stepped before the optimizer's first 'step()'{{.*}} [torch-scheduler-misuse]
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: the optimizer steps here, after the scheduler
    train_epoch(model, loader, opt);
  }
}

// P9: a template, reported once whatever the instantiations.
template <typename Opt> void p9_template(Net &model, Loader &loader, Opt &opt) {
  torch::optim::StepLR sched(opt, 5);
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &batch : *loader) {
      opt.zero_grad();
      torch::nll_loss(model->forward(batch.data), batch.target).backward();
      opt.step();
      sched.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: epoch-based scheduler 'sched' ('StepLR') is stepped in the per-batch loop{{.*}} [torch-scheduler-misuse]
      // CHECK-MESSAGES: :[[@LINE-6]]:5: note: the per-batch loop is here
    }
}
void p9_instantiate(Net &model, Loader &loader, torch::optim::SGD &sgd,
                    torch::optim::Adam &adam) {
  p9_template(model, loader, sgd);
  p9_template(model, loader, adam);
}

// ---------------------------------------------------------------- negatives

// N1: StepLR stepped once per epoch, after the batch loop.
void n1_per_epoch(Net &model, Loader &loader) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(opt, 30, 0.1);
  for (int epoch = 0; epoch < 90; ++epoch) {
    for (auto &batch : *loader) {
      opt.zero_grad();
      torch::nll_loss(model->forward(batch.data), batch.target).backward();
      opt.step();
    }
    sched.step();
  }
}

// N2: ReduceLROnPlateau given the validation loss.
void n2_plateau_validation(Net &model, Loader &train, Loader &val) {
  torch::optim::Adam opt(model->parameters());
  torch::optim::ReduceLROnPlateauScheduler sched(opt);
  for (int epoch = 0; epoch < 10; ++epoch) {
    float train_loss = 0;
    for (auto &b : *train) {
      opt.zero_grad();
      auto loss = torch::nll_loss(model->forward(b.data), b.target);
      loss.backward();
      opt.step();
      train_loss += loss.item<float>();
    }
    model->eval();
    float val_loss = 0;
    {
      torch::NoGradGuard no_grad;
      for (auto &b : *val)
        val_loss += torch::nll_loss(model->forward(b.data), b.target).item<float>();
    }
    sched.step(val_loss);
    model->train();
  }
}

// N3: the training loss, but there is no validation pass to use instead.
void n3_plateau_no_validation(Net &model, Loader &train) {
  torch::optim::Adam opt(model->parameters());
  torch::optim::ReduceLROnPlateauScheduler sched(opt);
  for (int epoch = 0; epoch < 10; ++epoch)
    sched.step(train_epoch(model, train, opt));
}

// N4: the validation loss through helpers, straight into step().
void n4_plateau_helper_metric(Net &model, Loader &train, Loader &val) {
  torch::optim::Adam opt(model->parameters());
  torch::optim::ReduceLROnPlateauScheduler sched(opt);
  for (int epoch = 0; epoch < 10; ++epoch) {
    float train_loss = train_epoch(model, train, opt);
    (void)train_loss;
    sched.step(evaluate(model, val));
  }
}

// N5: a value that is either loss: not known to be the training loss.
void n5_plateau_either(Net &model, Loader &train, Loader &val, bool use_val) {
  torch::optim::Adam opt(model->parameters());
  torch::optim::ReduceLROnPlateauScheduler sched(opt);
  for (int epoch = 0; epoch < 10; ++epoch) {
    float train_loss = train_epoch(model, train, opt);
    float val_loss = evaluate(model, val);
    sched.step(use_val ? val_loss : train_loss);
  }
}

// N6: stepped every N batches on purpose (under a branch): not reported.
void n6_every_n_batches(Net &model, Loader &loader) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(opt, 1, 0.99);
  for (int epoch = 0; epoch < 10; ++epoch) {
    int i = 0;
    for (auto &batch : *loader) {
      opt.zero_grad();
      torch::nll_loss(model->forward(batch.data), batch.target).backward();
      opt.step();
      if (++i % 100 == 0)
        sched.step();
    }
  }
}

// N7: one loop over iterations (no epochs, no data loader): the schedule
// counts iterations.
void n7_iteration_loop(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(opt, 1000);
  for (int it = 0; it < 100000; ++it) {
    opt.zero_grad();
    torch::nll_loss(model->forward(x), y).backward();
    opt.step();
    sched.step();
  }
}

// N8: an inner loop over schedulers, after the batch loop.
void n8_loop_over_schedulers(Net &model, Loader &loader,
                             std::vector<std::unique_ptr<torch::optim::StepLR>> &scheds,
                             torch::optim::SGD &opt) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    train_epoch(model, loader, opt);
    for (auto &s : scheds)
      s->step();
  }
}

// N9: stepped first only from the second epoch on (the previous epoch's step).
void n9_guarded_first(Net &model, Loader &loader) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(opt, 30);
  for (int epoch = 0; epoch < 90; ++epoch) {
    if (epoch > 0)
      sched.step();
    train_epoch(model, loader, opt);
  }
}

// N10: stepped after the optimizer in a single loop.
void n10_after_optimizer(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(opt, 30);
  for (int epoch = 0; epoch < 90; ++epoch) {
    opt.zero_grad();
    torch::nll_loss(model->forward(x), y).backward();
    opt.step();
    sched.step();
  }
}

// N11: a training loss in the epoch of a loop with no validation loss (only a
// forward pass under no_grad that prints predictions).
void n11_plateau_no_val_loss(Net &model, Loader &train, torch::Tensor sample) {
  torch::optim::Adam opt(model->parameters());
  torch::optim::ReduceLROnPlateauScheduler sched(opt);
  for (int epoch = 0; epoch < 10; ++epoch) {
    float train_loss = train_epoch(model, train, opt);
    {
      torch::NoGradGuard no_grad;
      auto pred = model->forward(sample).argmax(1);
      (void)pred;
    }
    sched.step(train_loss);
  }
}

// N12: a scheduler made for each model of an ensemble, each trained full-batch
// with one optimizer step per epoch: the inner loop is the epoch loop.
void n12_ensemble(std::vector<Net> &models, torch::Tensor x, torch::Tensor y) {
  for (auto &model : models) {
    torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
    torch::optim::StepLR sched(opt, 30);
    for (int epoch = 0; epoch < 90; ++epoch) {
      opt.zero_grad();
      torch::nll_loss(model->forward(x), y).backward();
      opt.step();
      sched.step();
    }
  }
}
