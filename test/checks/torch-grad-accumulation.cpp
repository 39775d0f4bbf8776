// RUN: %check_torch_tidy %s torch-grad-accumulation %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-grad-accumulation %t.real -- %real_flags

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
  return torch::nll_loss(model->forward(x), y);
}
torch::Tensor scaledLossOf(Net &model, torch::Tensor x, torch::Tensor y, int k) {
  return torch::nll_loss(model->forward(x), y) / k;
}
void applyStep(torch::optim::Optimizer &opt) {
  opt.step();
  opt.zero_grad();
}

// ---------------------------------------------------------------- positives

// P1: the textbook shape: a data loader, a separate counter, (i + 1) % k.
void p1_textbook(Net &model, Loader &loader, torch::optim::SGD &opt, int accum_steps) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    int i = 0;
    opt.zero_grad();
    for (auto &batch : *loader) {
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradients of the batches after the last 'step()' of this loop are never applied: the optimizer steps only every 'accum_steps' batches and not after the loop, so when the number of batches is not a multiple of 'accum_steps' the last ones are left out of training; call 'opt.step()' and 'opt.zero_grad()' after the loop when batches are left over [torch-grad-accumulation]
    // CHECK-MESSAGES: :[[@LINE+7]]:19: note: the optimizer steps only on the iterations where this test holds
    // CHECK-MESSAGES: :[[@LINE+7]]:9: note: the optimizer steps here
      auto loss = torch::nll_loss(model->forward(batch.data), batch.target);
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradients of 'accum_steps' batches are added up before each 'step()' but the loss is not divided by 'accum_steps', so the optimizer applies 'accum_steps' times the gradient of one batch, as if the learning rate were 'accum_steps' times larger; divide the loss by 'accum_steps' before 'backward()' [torch-grad-accumulation]
      // CHECK-MESSAGES: :[[@LINE+2]]:19: note: the optimizer steps only on the iterations where this test holds
      // CHECK-MESSAGES: :[[@LINE+2]]:9: note: the optimizer steps here
      if ((i + 1) % accum_steps == 0) {
        opt.step();
        opt.zero_grad();
      }
      ++i;
    }
  }
}

// P2: written with continue, a constant k, a temporary loss.
void p2_continue(Net &model, Loader &loader, torch::optim::Adam &opt) {
  int i = 0;
  for (auto &batch : *loader) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the gradients of the batches after the last 'step()' of this{{.*}} [torch-grad-accumulation]
  // CHECK-MESSAGES: :[[@LINE+6]]:13: note: the optimizer steps only on the iterations where this test holds
  // CHECK-MESSAGES: :[[@LINE+7]]:5: note: the optimizer steps here
    torch::nll_loss(model->forward(batch.data), batch.target).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradients of 4 batches are added up before each 'step()' but the loss is not divided by 4, so the optimizer applies 4 times the gradient of one batch, as if the learning rate were 4 times larger; divide the loss by 4 before 'backward()' [torch-grad-accumulation]
    // CHECK-MESSAGES: :[[@LINE+2]]:13: note: the optimizer steps only on the iterations where this test holds
    // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the optimizer steps here
    if (++i % 4 != 0)
      continue;
    opt.step();
    opt.zero_grad();
  }
}

// P3: an index loop with i % k == k - 1, the step in a helper, the loss from
// a helper that does not scale it, an optimizer through a shared_ptr.
void p3_helpers(Net &model, std::vector<torch::Tensor> &xs,
                std::vector<torch::Tensor> &ys, int k) {
  auto opt = std::make_shared<torch::optim::SGD>(model->parameters(),
                                                 torch::optim::SGDOptions(0.1));
  for (size_t i = 0; i < xs.size(); ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the gradients of the batches after the last 'step()' of this{{.*}} [torch-grad-accumulation]
  // CHECK-MESSAGES: :[[@LINE+7]]:11: note: the optimizer steps only on the iterations where this test holds
  // CHECK-MESSAGES: :[[@LINE-56]]:3: note: the optimizer steps here, called from the loop through 'applyStep'
    torch::Tensor loss = lossOf(model, xs[i], ys[i]);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradients of 'k' batches are added up before each 'step()' but the loss is not divided by 'k', so the optimizer applies 'k' times the gradient of one batch, as if the learning rate were 'k' times larger; divide the loss by 'k' before 'backward()' [torch-grad-accumulation]
    // CHECK-MESSAGES: :[[@LINE+2]]:11: note: the optimizer steps only on the iterations where this test holds
    // CHECK-MESSAGES: :[[@LINE-61]]:3: note: the optimizer steps here, called from the loop through 'applyStep'
    if (i % k == k - 1)
      applyStep(*opt);
  }
}

// P4: scaled, but no flush after the loop (only the second message).
void p4_scaled_no_flush(Net &model, Loader &loader, torch::optim::SGD &opt, int k) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    opt.zero_grad();
    int step = 0;
    for (auto &batch : *loader) {
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradients of the batches after the last 'step()' of this{{.*}} [torch-grad-accumulation]
    // CHECK-MESSAGES: :[[@LINE+5]]:16: note: the optimizer steps only on the iterations where this test holds
    // CHECK-MESSAGES: :[[@LINE+5]]:9: note: the optimizer steps here
      auto loss = torch::nll_loss(model->forward(batch.data), batch.target) / k;
      loss.backward();
      step++;
      if (step % k == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

// P5: flushed after the loop, but the loss is not scaled; a lambda steps.
void p5_flushed_unscaled(Net &model, Loader &loader, torch::optim::SGD &opt) {
  auto do_step = [&] {
    opt.step();
    opt.zero_grad();
  };
  int batch_idx = 0;
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradients of 8 batches are added up before each 'step()' but the loss is not divided by 8, so the optimizer applies 8 times the gradient of one batch, as if the learning rate were 8 times larger; divide the loss by 8 before 'backward()' [torch-grad-accumulation]
    // CHECK-MESSAGES: :[[@LINE+2]]:21: note: the optimizer steps only on the iterations where this test holds
    // CHECK-MESSAGES: :[[@LINE-9]]:5: note: the optimizer steps here, called from the loop through a lambda
    if (++batch_idx % 8 == 0)
      do_step();
  }
  if (batch_idx % 8 != 0)
    do_step();
}

// P6: a constant bound that is not a multiple of k.
void p6_constant_bound(Net &model, torch::Tensor x, torch::Tensor y,
                       torch::optim::SGD &opt) {
  for (int i = 0; i < 10; ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the gradients of the batches after the last 'step()' of this{{.*}} [torch-grad-accumulation]
  // CHECK-MESSAGES: :[[@LINE+4]]:17: note: the optimizer steps only on the iterations where this test holds
  // CHECK-MESSAGES: :[[@LINE+4]]:7: note: the optimizer steps here
    auto loss = lossOf(model, x, y) / 4;
    loss.backward();
    if ((i + 1) % 4 == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// ---------------------------------------------------------------- negatives

// N1: scaled (loss / k) and flushed after the loop under if (n % k != 0).
void n1_correct(Net &model, Loader &loader, torch::optim::SGD &opt, int k) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    opt.zero_grad();
    int n = 0;
    for (auto &batch : *loader) {
      auto loss = torch::nll_loss(model->forward(batch.data), batch.target);
      (loss / k).backward();
      if (++n % k == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
    if (n % k != 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// N2: loss.div_(k), loss = loss / k, a scale variable, a divisor other than k.
void n2_scalings(Net &model, Loader &loader, torch::optim::SGD &opt, int k) {
  const double scale = 1.0 / k;
  int a = 0;
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target);
    loss.div_(k);
    loss.backward();
    if (++a % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
  int b = 0;
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target);
    loss = loss / k;
    loss.backward();
    if (++b % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
  int c = 0;
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target) * scale;
    loss.backward();
    if (++c % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
  int d = 0;
  for (auto &batch : *loader) {
    auto loss = scaledLossOf(model, batch.data, batch.target, 16);
    loss.backward();
    if (++d % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
}

// N3: a constant loop bound that is a multiple of a constant k.
void n3_multiple(Net &model, torch::Tensor x, torch::Tensor y, torch::optim::SGD &opt) {
  for (int i = 0; i < 100; ++i) {
    lossOf(model, x, y).div(4).backward();
    if ((i + 1) % 4 == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// N4: a bound written as steps * k with the same k.
void n4_product(Net &model, torch::Tensor x, torch::Tensor y, torch::optim::SGD &opt,
                int steps, int k) {
  for (int i = 0; i < steps * k; ++i) {
    (lossOf(model, x, y) / k).backward();
    if ((i + 1) % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// N5: no accumulation: zero_grad on every batch, a step every k batches is
// another pattern (not this check's); and a step on every batch with logging
// every k batches.
void n5_not_accumulation(Net &model, Loader &loader, torch::optim::SGD &opt, int k) {
  int i = 0;
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    if (++i % k == 0)
      opt.step();
  }
  int j = 0;
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    opt.step();
    if (++j % k == 0)
      std::printf("%f\n", loss.item<float>());
  }
}

// N6: the last batch handled inside the loop (|| last), k = 1, an epoch
// counter (not advanced in the batch loop), a k from a call.
int accumSteps();
void n6_lookalikes(Net &model, std::vector<torch::Tensor> &xs, torch::optim::SGD &opt,
                   int k, int epoch) {
  for (size_t i = 0; i < xs.size(); ++i) {
    (lossOf(model, xs[i], xs[i]) / k).backward();
    if ((i + 1) % k == 0 || i + 1 == xs.size()) {
      opt.step();
      opt.zero_grad();
    }
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    lossOf(model, xs[i], xs[i]).backward();
    if ((i + 1) % 1 == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    lossOf(model, xs[i], xs[i]).backward();
    if (epoch % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    lossOf(model, xs[i], xs[i]).backward();
    if ((i + 1) % accumSteps() == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// N7: a global step counter that lives across epochs, gradients never cleared
// between epochs: the leftover batches go into the next epoch's first step.
void n7_global_step(Net &model, Loader &loader, torch::optim::SGD &opt, int k) {
  long global_step = 0;
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) {
      (lossOf(model, batch.data, batch.target) / k).backward();
      if (++global_step % k == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

// N8: gradients scaled by hand before the step; the flush through a helper.
void n8_grads_scaled(Net &model, Loader &loader, torch::optim::SGD &opt, int k) {
  int i = 0;
  for (auto &batch : *loader) {
    lossOf(model, batch.data, batch.target).backward();
    if (++i % k == 0) {
      for (auto &p : model->parameters())
        p.mutable_grad().div_(k);
      opt.step();
      opt.zero_grad();
    }
  }
  applyStep(opt);
}

// N9: a template: dependent code is silent, its instantiation is analysed.
template <typename Opt>
void n9_template(Net &model, Loader &loader, Opt &opt, int k) {
  int i = 0;
  for (auto &batch : *loader) {
    (lossOf(model, batch.data, batch.target) / k).backward();
    if (++i % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
}
template void n9_template<torch::optim::SGD>(Net &, Loader &, torch::optim::SGD &, int);

// P7: a Trainer class: the optimizer a member held by pointer, backward() in a
// member helper, the step in another; range-for with a separate counter.
struct Trainer {
  Net model;
  std::unique_ptr<torch::optim::Adam> optimizer;
  int accumulate = 4;

  void backward_on(torch::Tensor x, torch::Tensor y) {
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
  }
  void update() {
    optimizer->step();
    optimizer->zero_grad();
  }
  void fit(Loader &loader, int epochs) {
    for (int e = 0; e < epochs; ++e) {
      int seen = 0;
      for (auto &batch : *loader) {
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradients of the batches after the last 'step()' of this{{.*}} [torch-grad-accumulation]
      // CHECK-MESSAGES: :[[@LINE+8]]:18: note: the optimizer steps only on the iterations where this test holds
      // CHECK-MESSAGES: :[[@LINE-9]]:5: note: the optimizer steps here, called from the loop through 'update'
        backward_on(batch.data, batch.target);
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the gradients of 'accumulate' batches are added up before each 'step()' but the loss is not divided by 'accumulate', so the optimizer applies 'accumulate' times the gradient of one batch, as if the learning rate were 'accumulate' times larger; divide the loss by 'accumulate' before 'backward()' [torch-grad-accumulation]
        // CHECK-MESSAGES: :[[@LINE-15]]:5: note: 'backward()' is called here, from the loop through 'backward_on'
        // CHECK-MESSAGES: :[[@LINE+3]]:18: note: the optimizer steps only on the iterations where this test holds
        // CHECK-MESSAGES: :[[@LINE-14]]:5: note: the optimizer steps here, called from the loop through 'update'
        ++seen;
        if (seen % accumulate == 0)
          update();
      }
    }
  }
};

// N10: the guard written by a macro: silent.
#define EVERY(n, k) ((n) % (k) == 0)
void n10_macro(Net &model, Loader &loader, torch::optim::SGD &opt, int k) {
  int i = 0;
  for (auto &batch : *loader) {
    lossOf(model, batch.data, batch.target).backward();
    if (EVERY(++i, k)) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// N11: a critic trained on every batch, the generator every n_critic batches
// with its own zero_grad() and backward() in the branch: nothing accumulates
// for the generator's step.
void n11_critic_every_batch(Net &critic, Net &gen, Loader &loader, torch::optim::Adam &c_opt,
                            torch::optim::Adam &g_opt, int n_critic) {
  int i = 0;
  for (auto &batch : *loader) {
    c_opt.zero_grad();
    auto c_loss = critic->forward(batch.data).mean() - critic->forward(gen->forward(batch.data).detach()).mean();
    c_loss.backward();
    c_opt.step();
    if (++i % n_critic == 0) {
      g_opt.zero_grad();
      auto g_loss = -critic->forward(gen->forward(batch.data)).mean();
      g_loss.backward();
      g_opt.step();
    }
  }
}

// P8: a second modulus test of the same counter (logging) after the guarded
// step; flushed after the loop, so only the loss is reported.
void p8_second_test(Net &model, Loader &loader, torch::optim::SGD &opt, int k) {
  int i = 0;
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradients of 'k' batches are added up before each 'step()' but the
    // CHECK-MESSAGES: :[[@LINE+2]]:13: note: the optimizer steps only on the iterations where this test holds
    // CHECK-MESSAGES: :[[@LINE+2]]:7: note: the optimizer steps here
    if (++i % k == 0) {
      opt.step();
      opt.zero_grad();
    }
    if (i % k == 0)
      std::printf("step %d\n", i / k);
  }
  opt.step();
}

// N12: backward() and a step guarded by the counter passed in, both in one
// helper called per batch: the test inside the helper is not read (a limit).
void accumulateIn(Net &model, torch::optim::SGD &opt, torch::Tensor x, torch::Tensor y,
                  int i, int k) {
  lossOf(model, x, y).backward();
  if (i % k == 0) {
    opt.step();
    opt.zero_grad();
  }
}
void n12_helper_test(Net &model, Loader &loader, torch::optim::SGD &opt, int k) {
  int i = 0;
  for (auto &batch : *loader)
    accumulateIn(model, opt, batch.data, batch.target, ++i, k);
}

// N13: more scalings: torch::div, /=, mul_ by a constant scale, and a divisor
// that is not k (the author chose a scale: not second-guessed).
void n13_more_scalings(Net &model, Loader &loader, torch::optim::SGD &opt, int k,
                       int batch_size) {
  int a = 0;
  for (auto &batch : *loader) {
    auto loss = torch::div(lossOf(model, batch.data, batch.target), k);
    loss.backward();
    if (++a % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
  int b = 0;
  for (auto &batch : *loader) {
    torch::Tensor loss = lossOf(model, batch.data, batch.target);
    loss /= k;
    loss.backward();
    if (++b % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
  int c = 0;
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target);
    loss.mul_(0.25);
    loss.backward();
    if (++c % 4 == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
  int d = 0;
  for (auto &batch : *loader) {
    auto loss = lossOf(model, batch.data, batch.target) / batch_size;
    loss.backward();
    if (++d % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
}
