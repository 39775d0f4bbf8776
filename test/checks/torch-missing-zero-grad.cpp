// RUN: %check_torch_tidy %s torch-missing-zero-grad %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-missing-zero-grad %t.real -- %real_flags

#include <torch/torch.h>

#include <memory>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

using Loader = decltype(torch::data::make_data_loader(
    torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>()), 64));

torch::Tensor lossOf(Net &model, torch::Tensor x, torch::Tensor y) {
  return torch::nll_loss(torch::log_softmax(model->forward(x), 1), y);
}

// ---------------------------------------------------------------- positives

// P1: range-for over a DataLoader, optimizer by value.
void p1_range_for(Net &model, Loader &loader) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared in this training loop: 'backward()' adds to the gradients of earlier iterations and optimizer 'optimizer' steps with their running sum; call 'optimizer.zero_grad()' at the start of each iteration [torch-missing-zero-grad]
    auto loss = lossOf(model, batch.data, batch.target);
    // CHECK-FIXES: {{^}}    optimizer.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = lossOf(model, batch.data, batch.target);{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: note: 'backward()' computes gradients here
    optimizer.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:15: note: the optimizer steps here
  }
}

// P2: index loop, optimizer through a raw pointer.
void p2_index_loop(Net &model, torch::optim::Adam *opt, std::vector<torch::Tensor> &xs,
                   std::vector<torch::Tensor> &ys) {
  for (size_t i = 0; i < xs.size(); ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt->zero_grad()' at the start of each iteration
    torch::Tensor loss = lossOf(model, xs[i], ys[i]);
    // CHECK-FIXES: {{^}}    opt->zero_grad();{{$}}
    loss.backward();
    opt->step();
  }
}

// P3: while loop, optimizer in a shared_ptr to the base class.
void p3_while(Net &model, std::shared_ptr<torch::optim::Optimizer> opt, torch::Tensor x,
              torch::Tensor y) {
  int it = 0;
  while (it++ < 100) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt->zero_grad()'
    auto loss = lossOf(model, x, y);
    // CHECK-FIXES: {{^}}    opt->zero_grad();{{$}}
    loss.backward();
    opt->step();
  }
}

// P4: do-while, optimizer by reference to the base class, module by value.
void p4_do_while(Net model, torch::optim::Optimizer &opt, torch::Tensor x, torch::Tensor y) {
  int it = 0;
  do {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
    auto loss = lossOf(model, x, y);
    // CHECK-FIXES: {{^}}    opt.zero_grad();{{$}}
    loss.backward();
    opt.step();
  } while (++it < 10);
}

// P5: nested epoch and batch loops; gradients cleared once per epoch only.
void p5_nested(Net &model, Loader &loader) {
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-3));
  for (int epoch = 0; epoch < 10; ++epoch) {
    optimizer.zero_grad();
    for (auto &batch : *loader) {
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradients are never cleared {{.*}} call 'optimizer.zero_grad()'
    // CHECK-MESSAGES: :[[@LINE+6]]:12: note: 'backward()' computes gradients here
    // CHECK-MESSAGES: :[[@LINE+6]]:17: note: the optimizer steps here
    // CHECK-MESSAGES: :[[@LINE-5]]:15: note: 'zero_grad()' is only called in the enclosing loop, so gradients are cleared once per pass of that loop, not once per iteration of this one
      auto loss = lossOf(model, batch.data, batch.target);
      // CHECK-FIXES: {{^}}      optimizer.zero_grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      auto loss = lossOf(model, batch.data, batch.target);{{$}}
      loss.backward();
      optimizer.step();
    }
  }
}

// P6: the step is in a helper; the optimizer reaches it as a parameter.
void train_step(Net &model, torch::optim::Optimizer &opt, torch::Tensor x, torch::Tensor y) {
  auto loss = lossOf(model, x, y);
  loss.backward();
  opt.step();
}
void p6_helper(Net &model, Loader &loader) {
  torch::optim::RMSprop rms(model->parameters(), torch::optim::RMSpropOptions(0.01));
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} optimizer 'rms' steps {{.*}} call 'rms.zero_grad()'
  // CHECK-MESSAGES: :[[@LINE-7]]:8: note: 'backward()' computes gradients here, called from the loop through 'train_step'
    train_step(model, rms, batch.data, batch.target);
    // CHECK-FIXES: {{^}}    rms.zero_grad();{{$}}
  }
}

// P7: a Trainer class; the loop and the step are member functions.
class Trainer {
public:
  explicit Trainer(Net model)
      : model_(model), optimizer_(model_->parameters(), torch::optim::SGDOptions(0.1)) {}
  void fit(Loader &loader) {
    for (auto &batch : *loader) {
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradients are never cleared {{.*}} optimizer 'optimizer_' steps {{.*}} call 'optimizer_.zero_grad()'
      trainBatch(batch.data, batch.target);
      // CHECK-FIXES: {{^}}      optimizer_.zero_grad();{{$}}
    }
  }

private:
  void trainBatch(torch::Tensor x, torch::Tensor y) {
    auto loss = lossOf(model_, x, y);
    loss.backward();
    optimizer_.step();
  }
  Net model_;
  torch::optim::SGD optimizer_;
};

// P8: a generic lambda does the work.
void p8_lambda(Net &model, Loader &loader) {
  torch::optim::Adagrad opt(model->parameters(), torch::optim::AdagradOptions(0.01));
  auto step = [&](auto &batch) {
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    opt.step();
  };
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: 'backward()' computes gradients here, called from the loop through a lambda
    step(batch);
    // CHECK-FIXES: {{^}}    opt.zero_grad();{{$}}
  }
}

// P9: zero_grad() between backward() and step() throws the gradients away.
void p9_wrong_order(Net &model, torch::optim::SGD &optimizer, Loader &loader) {
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    optimizer.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'zero_grad()' between 'backward()' and 'step()' discards the gradients just computed, so the optimizer steps with zero gradients; clear gradients before 'backward()' instead [torch-missing-zero-grad]
    // CHECK-MESSAGES: :[[@LINE-3]]:10: note: 'backward()' computes gradients here
    // CHECK-MESSAGES: :[[@LINE+1]]:15: note: the optimizer steps here
    optimizer.step();
  }
}

// P10: two optimizers (a GAN); only one of them is ever cleared.
void p10_gan(Net &gen, Net &disc, torch::Tensor x, torch::Tensor y) {
  torch::optim::Adam optG(gen->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam optD(disc->parameters(), torch::optim::AdamOptions(2e-4));
  for (int i = 0; i < 100; ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} optimizer 'optG' steps {{.*}} call 'optG.zero_grad()'
    optD.zero_grad();
    // CHECK-FIXES: {{^}}    optG.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    optD.zero_grad();{{$}}
    auto lossD = lossOf(disc, x, y);
    lossD.backward();
    optD.step();
    auto lossG = lossOf(gen, x, y);
    lossG.backward();
    optG.step();
  }
}

// P11: LBFGS with a closure that never clears gradients.
void p11_lbfgs(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::LBFGS opt(model->parameters(), torch::optim::LBFGSOptions(1));
  for (int i = 0; i < 20; ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'zero_grad()' inside the closure given to 'step()'
    opt.step([&] {
      auto loss = lossOf(model, x, y);
      loss.backward();
      return loss;
    });
  }
}

// P12: a function template, reported once for its instantiation.
template <typename Model>
void p12_template(Model &model, torch::optim::SGD &opt, torch::Tensor x, torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
    auto loss = torch::mse_loss(model->forward(x), y);
    // CHECK-FIXES: {{^}}    opt.zero_grad();{{$}}
    loss.backward();
    opt.step();
  }
}
template void p12_template<Net>(Net &, torch::optim::SGD &, torch::Tensor, torch::Tensor);

// P13: torch::autograd::backward instead of the method.
void p13_autograd_backward(Net &model, torch::optim::SGD &opt, torch::Tensor x, torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
    auto loss = lossOf(model, x, y);
    // CHECK-FIXES: {{^}}    opt.zero_grad();{{$}}
    torch::autograd::backward({loss});
    opt.step();
  }
}

// P14: accumulation without any clearing; no fix-it (clearing every iteration
// would silently drop the accumulation).
void p14_accumulate_never_cleared(Net &model, torch::optim::SGD &opt, Loader &loader) {
  int i = 0;
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    if (++i % 4 == 0)
      opt.step();
  }
}

// P15: accumulation written with an early `continue`, never cleared. No fix-it:
// the step runs only on the iterations that get past the `continue`, so
// clearing at the top of every iteration would drop the accumulation.
void p15_accumulate_continue_never_cleared(Net &model, torch::optim::SGD &opt,
                                           Loader &loader) {
  int i = 0;
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    if (++i % 4 != 0)
      continue;
    opt.step();
  }
}

// P16: the same with the early exit a `break`, a `return` or a `throw`: the step
// is skipped on some paths, so no fix-it either.
void p16_step_after_exits(Net &model, torch::optim::SGD &opt, Loader &loader, int mode) {
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
    lossOf(model, batch.data, batch.target).backward();
    if (mode == 1)
      break;
    opt.step();
  }
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
    lossOf(model, batch.data, batch.target).backward();
    if (mode == 2)
      throw 1;
    opt.step();
  }
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
    lossOf(model, batch.data, batch.target).backward();
    if (mode == 3)
      return;
    opt.step();
  }
}

// P17: a helper that returns early before stepping: the step is skipped on
// some paths of the iteration, so no fix-it.
void maybe_step(torch::optim::Optimizer &opt, int i) {
  if (i % 4 != 0)
    return;
  opt.step();
}
void p17_helper_returns_early(Net &model, torch::optim::SGD &opt, Loader &loader) {
  int i = 0;
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
    lossOf(model, batch.data, batch.target).backward();
    maybe_step(opt, ++i);
  }
}

// P18: exits that leave less than the iteration: a `break` in a `switch` or in
// a nested loop, a `return` in a lambda. The step still runs on every
// iteration, so the fix-it is offered.
void p18_inner_exits(Net &model, torch::optim::SGD &opt, Loader &loader, int mode) {
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} call 'opt.zero_grad()'
    switch (mode) {
    // CHECK-FIXES: {{^}}    opt.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    switch (mode) {{[{]}}{{$}}
    case 0:
      ++mode;
      break;
    default:
      break;
    }
    for (int k = 0; k < 3; ++k)
      if (k == mode)
        break;
    auto check = [&] {
      if (mode < 0)
        return;
      ++mode;
    };
    check();
    lossOf(model, batch.data, batch.target).backward();
    opt.step();
  }
}

// P19: zero_grad() between backward() and step() after an early `continue`: on
// every path that reaches the step it runs just before it, so it still
// discards the gradients just computed.
void p19_wrong_order_after_continue(Net &model, torch::optim::SGD &optimizer, Loader &loader) {
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    if (loss.item<double>() > 1e6)
      continue;
    optimizer.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'zero_grad()' between 'backward()' and 'step()' discards the gradients just computed
    optimizer.step();
  }
}

// ---------------------------------------------------------------- negatives

// N1: the canonical loop.
void n1_canonical(Net &model, torch::optim::SGD &optimizer, Loader &loader) {
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    optimizer.step();
  }
}

// N2: cleared after the step, ready for the next iteration.
void n2_clear_after_step(Net &model, torch::optim::SGD &optimizer, Loader &loader) {
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    optimizer.step();
    optimizer.zero_grad();
  }
}

// N3: gradients cleared on the module (a TORCH_MODULE holder).
void n3_module_zero_grad(Net &model, torch::optim::SGD &optimizer, Loader &loader) {
  for (auto &batch : *loader) {
    model->zero_grad();
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    optimizer.step();
  }
}

// N4: gradient accumulation: step and clear together every 4 batches.
void n4_accumulation(Net &model, torch::optim::SGD &optimizer, Loader &loader) {
  int i = 0;
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target) / 4;
    loss.backward();
    if (++i % 4 == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// N5: a helper that does the whole step correctly.
void full_step(Net &model, torch::optim::Optimizer &opt, torch::Tensor x, torch::Tensor y) {
  opt.zero_grad();
  auto loss = lossOf(model, x, y);
  loss.backward();
  opt.step();
}
void n5_helper(Net &model, torch::optim::SGD &opt, Loader &loader) {
  for (auto &batch : *loader)
    full_step(model, opt, batch.data, batch.target);
}

// N6: a Trainer whose member clears gradients.
struct GoodTrainer {
  Net model;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  void batch(torch::Tensor x, torch::Tensor y) {
    optimizer->zero_grad();
    auto loss = lossOf(model, x, y);
    loss.backward();
    optimizer->step();
  }
  void fit(Loader &loader) {
    for (auto &b : *loader)
      batch(b.data, b.target);
  }
};

// N7: an evaluation loop: no backward, no step.
double n7_evaluate(Net &model, Loader &loader) {
  torch::NoGradGuard no_grad;
  model->eval();
  double total = 0;
  for (auto &batch : *loader)
    total += lossOf(model, batch.data, batch.target).item<double>();
  return total;
}

// N8: full-batch gradient descent: backward per batch, one step per epoch.
void n8_full_batch(Net &model, torch::optim::SGD &opt, Loader &loader) {
  for (int epoch = 0; epoch < 5; ++epoch) {
    opt.zero_grad();
    for (auto &batch : *loader)
      lossOf(model, batch.data, batch.target).backward();
    opt.step();
  }
}

// N9: look-alikes that are not LibTorch types.
struct FakeTensor {
  void backward() {}
};
struct Stepper {
  void step() {}
  void zero_grad() {}
};
void n9_lookalikes(FakeTensor t, Stepper s) {
  for (int i = 0; i < 3; ++i) {
    t.backward();
    s.step();
  }
}

// N10: a GAN that clears both optimizers.
void n10_gan(Net &gen, Net &disc, torch::Tensor x, torch::Tensor y) {
  torch::optim::Adam optG(gen->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam optD(disc->parameters(), torch::optim::AdamOptions(2e-4));
  for (int i = 0; i < 100; ++i) {
    optD.zero_grad();
    lossOf(disc, x, y).backward();
    optD.step();
    optG.zero_grad();
    lossOf(gen, x, y).backward();
    optG.step();
  }
}

// N11: LBFGS clearing inside its closure.
void n11_lbfgs(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::LBFGS opt(model->parameters(), torch::optim::LBFGSOptions(1));
  for (int i = 0; i < 20; ++i) {
    auto closure = [&] {
      opt.zero_grad();
      auto loss = lossOf(model, x, y);
      loss.backward();
      return loss;
    };
    opt.step(closure);
  }
}

// N12: the same optimizer under another name.
void n12_alias(Net &model, std::shared_ptr<torch::optim::SGD> sgd, torch::Tensor x,
               torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
    auto &opt = *sgd;
    opt.zero_grad();
    lossOf(model, x, y).backward();
    sgd->step();
  }
}

// N13: a conditional zero_grad between backward and step skips a bad batch.
void n13_skip_bad_batch(Net &model, torch::optim::SGD &opt, Loader &loader) {
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    if (loss.item<double>() > 1e6) {
      opt.zero_grad();
      continue;
    }
    opt.step();
  }
}

// N14: a scheduler's step() is not an optimizer step.
void n14_scheduler(Net &model, torch::optim::SGD &opt, Loader &loader) {
  torch::optim::StepLR scheduler(opt, 30, 0.1);
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (auto &batch : *loader) {
      opt.zero_grad();
      lossOf(model, batch.data, batch.target).backward();
      opt.step();
    }
    scheduler.step();
  }
}

// N15: an uninstantiated template says nothing.
template <typename Model, typename Opt>
void n15_template(Model &model, Opt &opt, torch::Tensor x, torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    opt.step();
  }
}

// N16: suppressed with NOLINT, as every clang-tidy check.
void n16_nolint(Net &model, torch::optim::SGD &opt, torch::Tensor x, torch::Tensor y) {
  for (int i = 0; i < 10; ++i) { // NOLINT(torch-missing-zero-grad): accumulating on purpose
    lossOf(model, x, y).backward();
    opt.step();
  }
}

// N17: a bad batch skipped with `continue` before anything runs; the iterations
// that train clear, compute and step.
void n17_skip_first(Net &model, torch::optim::SGD &opt, Loader &loader, int mode) {
  for (auto &batch : *loader) {
    if (mode < 0)
      continue;
    opt.zero_grad();
    lossOf(model, batch.data, batch.target).backward();
    opt.step();
  }
}

// N18: gradient accumulation written with `continue`: step and clear run
// together once every 4 batches.
void n18_accumulation_continue(Net &model, torch::optim::SGD &opt, Loader &loader) {
  int i = 0;
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target) / 4;
    loss.backward();
    if (++i % 4 != 0)
      continue;
    opt.step();
    opt.zero_grad();
  }
}

// N19: zero_grad() skipped by an early `continue` on some iterations. On those,
// the next backward() adds to gradients nobody cleared. Not reported, by the
// documented rule: a clearing anywhere in the iteration counts, conditional or
// not (the rule that lets accumulation under an `if` through), and an early
// `continue` only makes the clearing conditional.
void n19_clear_skipped_sometimes(Net &model, torch::optim::SGD &opt, Loader &loader,
                                 int mode) {
  for (auto &batch : *loader) {
    lossOf(model, batch.data, batch.target).backward();
    opt.step();
    if (mode < 0)
      continue;
    opt.zero_grad();
  }
}

// N20: gradients cleared by hand, tensor by tensor, as zero_grad() does:
// zero_() on grad() or mutable_grad(), reset(), or assigning an undefined
// tensor to mutable_grad().
void n20_cleared_by_hand(Net &model, torch::optim::SGD &opt, Loader &loader, int how) {
  for (auto &batch : *loader) {
    for (auto &p : model->parameters())
      if (p.grad().defined())
        p.grad().zero_();
    lossOf(model, batch.data, batch.target).backward();
    opt.step();
  }
  for (auto &batch : *loader) {
    lossOf(model, batch.data, batch.target).backward();
    opt.step();
    for (auto &p : model->parameters())
      p.mutable_grad() = torch::Tensor();
  }
  for (auto &batch : *loader) {
    for (auto &p : model->parameters())
      p.mutable_grad().reset();
    lossOf(model, batch.data, batch.target).backward();
    opt.step();
  }
}

// P-look-alike: reading a gradient, or zeroing a copy of a parameter, clears
// nothing.
void p_not_cleared_by_hand(Net &model, torch::optim::SGD &opt, Loader &loader) {
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared in this training loop{{.*}} [torch-missing-zero-grad]
  // CHECK-MESSAGES: :[[@LINE+6]]:{{[0-9]+}}: note: 'backward()' computes gradients here
  // CHECK-MESSAGES: :[[@LINE+6]]:{{[0-9]+}}: note: the optimizer steps here
  // CHECK-FIXES: {{^}}    opt.zero_grad();{{$}}
    for (auto &p : model->parameters())
      if (p.grad().defined())
        p.grad().clone().zero_();
    lossOf(model, batch.data, batch.target).backward();
    opt.step();
  }
}

// P21: the module's own zero_grad() between backward() and step() of an
// optimizer built over that module's parameters wipes the fresh gradients as
// optimizer.zero_grad() would.
void p21_module_zero_grad_between(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  for (int i = 0; i < 10; ++i) {
    lossOf(model, x, y).backward();
    model->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'zero_grad()' between 'backward()' and 'step()' discards the gradients just computed{{.*}} [torch-missing-zero-grad]
    // CHECK-MESSAGES: :[[@LINE-3]]:{{[0-9]+}}: note: 'backward()' computes gradients here
    // CHECK-MESSAGES: :[[@LINE+1]]:{{[0-9]+}}: note: the optimizer steps here
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-8]]:22: note: 'opt' is built over the parameters of 'model', so clearing the module clears the optimizer's gradients
  }
}

// P22: the same with the parameters first put in a local list.
void p22_param_list(Net &model, torch::Tensor x, torch::Tensor y) {
  auto params = model->parameters();
  torch::optim::SGD opt(params, torch::optim::SGDOptions(0.1));
  for (int i = 0; i < 10; ++i) {
    lossOf(model, x, y).backward();
    model->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'zero_grad()' between 'backward()' and 'step()'{{.*}} [torch-missing-zero-grad]
    // CHECK-MESSAGES: :[[@LINE-3]]:{{[0-9]+}}: note: 'backward()' computes gradients here
    // CHECK-MESSAGES: :[[@LINE+1]]:{{[0-9]+}}: note: the optimizer steps here
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-8]]:21: note: 'opt' is built over the parameters of 'model'{{.*}}
  }
}

// P23: a trainer whose members hold the model and the optimizer, built in its
// constructor's initialiser list.
struct Trainer23 {
  explicit Trainer23(Net m)
      : model_(m), opt_(model_->parameters(), torch::optim::SGDOptions(0.1)) {}
  void fit(torch::Tensor x, torch::Tensor y) {
    for (int i = 0; i < 10; ++i) {
      lossOf(model_, x, y).backward();
      model_->zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'zero_grad()' between 'backward()' and 'step()'{{.*}} [torch-missing-zero-grad]
      // CHECK-MESSAGES: :[[@LINE-3]]:{{[0-9]+}}: note: 'backward()' computes gradients here
      // CHECK-MESSAGES: :[[@LINE+1]]:{{[0-9]+}}: note: the optimizer steps here
      opt_.step();
      // CHECK-MESSAGES: :[[@LINE+4]]:21: note: 'opt_' is built over the parameters of 'model_'{{.*}}
    }
  }
  Net model_;
  torch::optim::SGD opt_;
};

// N21: a GAN clears the other network between the discriminator's backward()
// and step(): the discriminator's optimizer does not hold those parameters.
void n21_gan_other_network(Net &gen, Net &disc, torch::Tensor x, torch::Tensor y) {
  torch::optim::Adam optG(gen->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam optD(disc->parameters(), torch::optim::AdamOptions(2e-4));
  for (int i = 0; i < 100; ++i) {
    optD.zero_grad();
    lossOf(disc, x, y).backward();
    gen->zero_grad();
    optD.step();
    optG.zero_grad();
    lossOf(gen, x, y).backward();
    optG.step();
  }
}

// N22: an optimizer handed in from elsewhere: whose parameters it holds is not
// known here, so a module's zero_grad() there says nothing.
void n22_unknown_optimizer(Net &model, torch::optim::SGD &opt, torch::Tensor x,
                           torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    lossOf(model, x, y).backward();
    model->zero_grad();
    opt.step();
  }
}

// Functions defined in another file (no body here, no whole-program summary).
void clearElsewhere(torch::optim::Optimizer &opt);
torch::Tensor lossElsewhere(Net &model, torch::Tensor x, torch::Tensor y);
void logElsewhere(const torch::optim::SGD &opt);
struct TrainerElsewhere {
  void resetGradients(); // defined in another file
  Net model;
  torch::optim::SGD opt{model->parameters(), torch::optim::SGDOptions(0.1)};
};

// N23: the loop hands the optimizer to code this file cannot read, which may
// clear it (docs: helpers in other files); "never cleared" is not claimed.
void n23_optimizer_to_unknown_code(Net &model, torch::optim::SGD &opt,
                                   torch::Tensor x, torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
    clearElsewhere(opt);
    lossOf(model, x, y).backward();
    opt.step();
  }
}

// N24: a method of the trainer defined elsewhere may clear its optimizer.
void n24_trainer_method_elsewhere(TrainerElsewhere &t, torch::Tensor x,
                                  torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
    t.resetGradients();
    lossOf(t.model, x, y).backward();
    t.opt.step();
  }
}

// P24: code elsewhere handed only the model (a loss helper), or the optimizer
// as a const reference, cannot clear the optimizer's gradients.
void p24_model_to_unknown_code(Net &model, torch::optim::SGD &sgd,
                               torch::Tensor x, torch::Tensor y) {
  for (int i = 0; i < 10; ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared in this training loop: {{.*}} call 'sgd.zero_grad()' at the start of each iteration [torch-missing-zero-grad]
    // CHECK-FIXES: {{^}}    sgd.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = lossElsewhere(model, x, y);{{$}}
    auto loss = lossElsewhere(model, x, y);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: note: 'backward()' computes gradients here
    logElsewhere(sgd);
    sgd.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: note: the optimizer steps here
  }
}
