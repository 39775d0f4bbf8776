// RUN: %check_torch_tidy %s torch-missing-eval %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-missing-eval %t.real -- %real_flags

#include <torch/torch.h>

#include <memory>
#include <vector>

// A model with dropout and batch norm: its forward differs in training and
// eval mode.
struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(784, 64))),
        bn(register_module("bn", torch::nn::BatchNorm1d(64))),
        drop(register_module("drop", torch::nn::Dropout(0.5))),
        fc2(register_module("fc2", torch::nn::Linear(64, 10))) {}
  torch::Tensor forward(torch::Tensor x) {
    return fc2->forward(drop->forward(torch::relu(bn->forward(fc1->forward(x)))));
  }
  torch::nn::Linear fc1;
  torch::nn::BatchNorm1d bn;
  torch::nn::Dropout drop;
  torch::nn::Linear fc2;
};
TORCH_MODULE(Net);

// A model with nothing that depends on the mode.
struct PlainImpl : torch::nn::Module {
  PlainImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::relu(fc->forward(x)); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Plain);

// A model built from a Sequential: what it holds is decided elsewhere.
struct SeqNetImpl : torch::nn::Module {
  explicit SeqNetImpl(torch::nn::Sequential s) : body(register_module("body", s)) {}
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body;
};
TORCH_MODULE(SeqNet);

using Loader = decltype(torch::data::make_data_loader(
    torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>()), 64));

void trainEpoch(Net &model, torch::optim::Optimizer &opt, Loader &loader) {
  model->train();
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto loss = torch::nll_loss(torch::log_softmax(model->forward(batch.data), 1), batch.target);
    loss.backward();
    opt.step();
  }
}

// ---------------------------------------------------------------- positives

// P1: a model built here and evaluated under no_grad without eval().
void p1_fresh(Loader &loader) {
  Net model;
  torch::load(model, "model.pt");
  torch::NoGradGuard no_grad;
  int64_t correct = 0;
  for (auto &batch : *loader) {
    auto out = model->forward(batch.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'model' runs in training mode in this evaluation loop, which has no 'eval()' before it on every path: batch norm normalises with each batch's own statistics and overwrites its running averages with evaluation data, so the loss and metrics computed here are wrong and noisy; call 'model->eval()' before the loop, and 'model->train()' before training resumes [torch-missing-eval]
    // CHECK-MESSAGES: :[[@LINE-7]]:7: note: 'model' is built here, in training mode, and no 'eval()' reaches the loop
    // CHECK-MESSAGES: :21:26: note: 'bn' is a 'BatchNorm1dImpl', which behaves differently in training and eval mode
    correct += out.argmax(1).eq(batch.target).sum().item<int64_t>();
  }
}

// P2: an evaluation helper without eval(), called after training.
double evaluate(Net &model, Loader &loader) {
  torch::NoGradGuard no_grad;
  double total = 0;
  for (auto &batch : *loader) {
    auto out = model(batch.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'model' runs in training mode in this evaluation loop{{.*}}call 'model->eval()' before the loop, and 'model->train()' before training resumes [torch-missing-eval]
    // CHECK-MESSAGES: :[[@LINE+7]]:3: note: 'evaluate' is called here with 'model' in training mode
    total += torch::nll_loss(torch::log_softmax(out, 1), batch.target).item<double>();
  }
  return total;
}
void p2_caller(Net &model, torch::optim::SGD &opt, Loader &train, Loader &val) {
  trainEpoch(model, opt, train);
  evaluate(model, val);
}

// P3: the epoch loop puts the model in training mode and validates without
// switching back to eval.
void p3_epochs(Net &model, torch::optim::Adam &opt, Loader &train, Loader &val) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    for (auto &batch : *train) {
      opt.zero_grad();
      auto loss = torch::nll_loss(torch::log_softmax(model->forward(batch.data), 1), batch.target);
      loss.backward();
      opt.step();
    }
    torch::NoGradGuard no_grad;
    for (auto &batch : *val) {
      auto loss = torch::nll_loss(torch::log_softmax(model->forward(batch.data), 1), batch.target);
      // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: 'model' runs in training mode in this evaluation loop
      // CHECK-MESSAGES: :94:5: note: 'train()' is called here, the last mode set on some path to the loop
    }
  }
}

// P4: eval() for validation at the end of the epoch, never train() again:
// from the second epoch on, training runs in eval mode.
void p4_no_train(Net &model, torch::optim::Adam &opt, Loader &train, Loader &val) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *train) {
      opt.zero_grad();
      // CHECK-FIXES: {{^}}      model->train();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      opt.zero_grad();{{$}}
      auto out = model->forward(batch.data);
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'model' is still in eval mode from the 'eval()' of an earlier iteration when this training loop runs it: from the second epoch on, dropout is off and batch norm uses its frozen running statistics, so the model trains differently from how it was set up; call 'model->train()' before each training pass [torch-missing-eval]
      // CHECK-MESSAGES: :[[@LINE+5]]:5: note: 'eval()' is called here, and 'train()' is not called again before the next training pass
      auto loss = torch::nll_loss(torch::log_softmax(out, 1), batch.target);
      loss.backward();
      opt.step();
    }
    model->eval();
    torch::NoGradGuard no_grad;
    for (auto &batch : *val)
      model->forward(batch.data).argmax(1);
  }
}

// P5: the same across helpers: test() leaves the model in eval mode, and
// train() never switches it back.
void test(Net &model, Loader &val) {
  model->eval();
  torch::NoGradGuard no_grad;
  for (auto &batch : *val)
    model->forward(batch.data).argmax(1);
}
void train(Net &model, torch::optim::SGD &opt, Loader &loader) {
  for (auto &batch : *loader) {
    opt.zero_grad();
    // CHECK-FIXES: {{^}}    model->train();{{$}}
    auto loss = torch::nll_loss(torch::log_softmax(model(batch.data), 1), batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: 'model' is still in eval mode from the 'eval()' of an earlier iteration
    // CHECK-MESSAGES: :[[@LINE+9]]:5: note: 'test' calls 'eval()' here, and 'train()' is not called again before the next training pass
    // CHECK-MESSAGES: :[[@LINE+7]]:5: note: 'train' is called here with 'model' possibly left in eval mode
    loss.backward();
    opt.step();
  }
}
void p5_main_loop(Net &model, torch::optim::SGD &opt, Loader &tr, Loader &val) {
  for (int epoch = 0; epoch < 5; ++epoch) {
    train(model, opt, tr);
    test(model, val);
  }
}

// P6: eval() on one path only.
void p6_one_path(bool quick, Loader &val) {
  Net model;
  if (quick)
    model->eval();
  torch::NoGradGuard no_grad;
  for (auto &batch : *val) {
    auto out = model->forward(batch.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'model' runs in training mode in this evaluation loop
    // CHECK-MESSAGES: :[[@LINE-7]]:7: note: 'model' is built here
    out.argmax(1);
  }
}

// P7: a Trainer: fit() puts the member in training mode, validate() forgets eval().
class Trainer {
public:
  explicit Trainer(Net model)
      : model_(model), opt_(model_->parameters(), torch::optim::SGDOptions(0.1)) {}
  void fit(Loader &train, Loader &val) {
    for (int epoch = 0; epoch < 3; ++epoch) {
      model_->train();
      for (auto &batch : *train) {
        opt_.zero_grad();
        model_->forward(batch.data).sum().backward();
        opt_.step();
      }
      validate(val);
    }
  }

private:
  double validate(Loader &val) {
    torch::NoGradGuard no_grad;
    double loss = 0;
    for (auto &batch : *val)
      loss += torch::mse_loss(model_->forward(batch.data), batch.target).item<double>();
      // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'model_' runs in training mode in this evaluation loop{{.*}}call 'model_->eval()'
      // CHECK-MESSAGES: :186:7: note: 'validate' is called here with 'model_' in training mode
    return loss;
  }
  Net model_;
  torch::optim::SGD opt_;
};

// P8: a Sequential inside, held through a shared_ptr: contents unknown.
void p8_sequential(std::shared_ptr<SeqNetImpl> net, Loader &val) {
  net->train();
  torch::NoGradGuard no_grad;
  for (auto &batch : *val)
    net->forward(batch.data).argmax(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'net' runs in training mode in this evaluation loop{{.*}}call 'net->eval()'
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: 'train()' is called here, the last mode set on some path to the loop
    // CHECK-MESSAGES: :39:25: note: 'body' is a 'SequentialImpl' whose contents are not known here; they may behave differently in training and eval mode
}

// P9: eval() on another module object does not count.
void p9_other_object(Net &student, Net &teacher, Loader &val) {
  teacher->eval();
  student->train();
  torch::NoGradGuard no_grad;
  for (auto &batch : *val) {
    auto t = teacher->forward(batch.data);
    auto s = student->forward(batch.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'student' runs in training mode in this evaluation loop
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: 'train()' is called here, the last mode set
    torch::mse_loss(s, t).item<double>();
  }
}

// P10: the forward is in a helper called from the evaluation loop.
int64_t batchCorrect(Net &m, torch::Tensor x, torch::Tensor y) {
  return m->forward(x).argmax(1).eq(y).sum().item<int64_t>();
}
void p10_helper(Loader &val) {
  Net model;
  torch::NoGradGuard no_grad;
  int64_t correct = 0;
  for (auto &batch : *val)
    correct += batchCorrect(model, batch.data, batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'model' runs in training mode in this evaluation loop
    // CHECK-MESSAGES: :[[@LINE-9]]:10: note: the forward call, reached from the loop through 'batchCorrect'
    // CHECK-MESSAGES: :[[@LINE-7]]:7: note: 'model' is built here
}

// ---------------------------------------------------------------- negatives

// N1: the correct epoch loop.
void n1_correct(Net &model, torch::optim::Adam &opt, Loader &train, Loader &val) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    for (auto &batch : *train) {
      opt.zero_grad();
      model->forward(batch.data).sum().backward();
      opt.step();
    }
    model->eval();
    torch::NoGradGuard no_grad;
    for (auto &batch : *val)
      model->forward(batch.data).argmax(1);
  }
}

// N2: eval() and train() inside the helpers.
void goEval(Net &m) { m->eval(); }
void goTrain(Net &m) { m->train(true); }
double evaluateOk(Net &model, Loader &loader) {
  goEval(model);
  torch::NoGradGuard no_grad;
  double total = 0;
  for (auto &batch : *loader)
    total += model->forward(batch.data).argmax(1).sum().item<double>();
  return total;
}
void trainOk(Net &model, torch::optim::SGD &opt, Loader &loader) {
  goTrain(model);
  for (auto &batch : *loader) {
    opt.zero_grad();
    model->forward(batch.data).sum().backward();
    opt.step();
  }
}
void n2_helpers(Net &model, torch::optim::SGD &opt, Loader &tr, Loader &val) {
  for (int epoch = 0; epoch < 5; ++epoch) {
    trainOk(model, opt, tr);
    evaluateOk(model, val);
  }
}

// N3: eval() in the caller before the evaluation helper.
double evaluateBare(Net &model, Loader &loader) {
  torch::NoGradGuard no_grad;
  double total = 0;
  for (auto &batch : *loader)
    total += model->forward(batch.data).argmax(1).sum().item<double>();
  return total;
}
void n3_caller(Net &model, Loader &val) {
  model->eval();
  evaluateBare(model, val);
}

// N4: a model with nothing that depends on the mode.
void n4_plain(Loader &val) {
  Plain model;
  torch::NoGradGuard no_grad;
  for (auto &batch : *val)
    model->forward(batch.data).argmax(1);
}

// N5: re-estimating batch-norm statistics on purpose: train() right before a
// no_grad pass that measures nothing.
void n5_bn_update(Net &model, Loader &loader) {
  model->train();
  torch::NoGradGuard no_grad;
  for (auto &batch : *loader)
    model->forward(batch.data);
}

// N6: the module reached through a pointer, a reference and a holder copy.
void n6_aliases(Net &model, Loader &val) {
  Net *p = &model;
  (*p)->eval();
  Net &r = model;
  Net copy = r;
  torch::NoGradGuard no_grad;
  for (auto &batch : *val) {
    model->forward(batch.data).argmax(1);
    copy->forward(batch.data).argmax(1);
  }
}

// N7: a frozen target network run under no_grad inside the training loop.
void n7_target(Net &policy, Net &target, torch::optim::Adam &opt, Loader &loader) {
  policy->train();
  for (auto &batch : *loader) {
    torch::Tensor next;
    {
      torch::NoGradGuard no_grad;
      next = target->forward(batch.data);
    }
    opt.zero_grad();
    torch::mse_loss(policy->forward(batch.data), next).backward();
    opt.step();
    target->eval();
  }
}

// N8: losses summed over chunks in an inner loop, backward() in the outer one.
void n8_chunks(Net &model, torch::optim::SGD &opt, Loader &loader) {
  model->train();
  for (auto &batch : *loader) {
    torch::Tensor total = torch::zeros({});
    for (int c = 0; c < 4; ++c)
      total = total + torch::mse_loss(model->forward(batch.data), batch.target);
    opt.zero_grad();
    total.backward();
    opt.step();
  }
}

// N9: eval() on every path; an early return before it.
void n9_every_path(Net &model, bool fast, Loader &val) {
  if (!model)
    return;
  if (fast)
    model->eval();
  else {
    model->eval();
  }
  torch::NoGradGuard no_grad;
  for (auto &batch : *val)
    model->forward(batch.data).argmax(1);
}

// N10: nothing in this file calls it; its callers decide the mode.
double n10_unknown_callers(Net &model, Loader &val) {
  torch::NoGradGuard no_grad;
  double total = 0;
  for (auto &batch : *val)
    total += model->forward(batch.data).argmax(1).sum().item<double>();
  return total;
}

// N11: mid-epoch validation that switches back.
void n11_mid_epoch(Net &model, torch::optim::SGD &opt, Loader &train, Loader &val) {
  model->train();
  int step = 0;
  for (auto &batch : *train) {
    opt.zero_grad();
    model->forward(batch.data).sum().backward();
    opt.step();
    if (++step % 100 == 0) {
      model->eval();
      torch::NoGradGuard no_grad;
      for (auto &v : *val)
        model->forward(v.data).argmax(1);
      model->train();
    }
  }
}

// N12: a plain data pass under no_grad with no model.
void n12_no_model(Loader &loader) {
  torch::NoGradGuard no_grad;
  double mean = 0;
  for (auto &batch : *loader)
    mean += batch.data.mean().item<double>();
}

// N13: eval() then a continue-guarded loop; eval() in a try block, train() in
// the handler does not reach the normal path.
void n13_try(Net &model, Loader &val) {
  try {
    model->eval();
  } catch (...) {
    return;
  }
  torch::NoGradGuard no_grad;
  for (auto &batch : *val) {
    if (!batch.data.defined())
      continue;
    model->forward(batch.data).argmax(1);
  }
}

// N14: an inference loop in a lambda that switches the mode itself.
void n14_lambda(Net &model, Loader &val) {
  auto run = [&]() {
    model->eval();
    torch::NoGradGuard no_grad;
    for (auto &batch : *val)
      model->forward(batch.data).argmax(1);
  };
  run();
}

// N15: a template instantiated once; the epoch loop is correct.
template <typename M> void n15_template(M &model, torch::optim::SGD &opt, Loader &tr, Loader &val) {
  for (int epoch = 0; epoch < 2; ++epoch) {
    model->train();
    for (auto &batch : *tr) {
      opt.zero_grad();
      model->forward(batch.data).sum().backward();
      opt.step();
    }
    model->eval();
    torch::NoGradGuard no_grad;
    for (auto &batch : *val)
      model->forward(batch.data).argmax(1);
  }
}
template void n15_template<Net>(Net &, torch::optim::SGD &, Loader &, Loader &);

// P11: a local Sequential built with a dropout layer.
void p11_local_sequential(Loader &val) {
  torch::nn::Sequential seq(torch::nn::Linear(784, 64), torch::nn::Dropout(0.2),
                            torch::nn::Linear(64, 10));
  torch::NoGradGuard no_grad;
  for (auto &batch : *val)
    seq->forward(batch.data).argmax(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'seq' runs in training mode in this evaluation loop, which has no 'eval()' before it on every path: dropout keeps zeroing activations at random{{.*}} [torch-missing-eval]
}

// N16: a local Sequential of layers that ignore the mode.
void n16_plain_sequential(Loader &val) {
  torch::nn::Sequential seq(torch::nn::Linear(784, 64), torch::nn::ReLU(),
                            torch::nn::Linear(64, 10));
  torch::NoGradGuard no_grad;
  for (auto &batch : *val)
    seq->forward(batch.data).argmax(1);
}

// N17: a member Sequential built and grown with layers that ignore the mode.
struct MlpImpl : torch::nn::Module {
  MlpImpl() {
    layers = register_module("layers", torch::nn::Sequential(torch::nn::Linear(784, 64),
                                                             torch::nn::ReLU()));
    layers->push_back(torch::nn::Linear(64, 10));
  }
  torch::Tensor forward(torch::Tensor x) { return layers->forward(x); }
  torch::nn::Sequential layers{nullptr};
};
TORCH_MODULE(Mlp);
void n17_member_sequential(Loader &val) {
  Mlp model;
  torch::NoGradGuard no_grad;
  for (auto &batch : *val)
    model->forward(batch.data).argmax(1);
}

// N18: a frozen feature extractor put in eval mode once, before a loop that
// optimises an input image (neural style transfer): not an earlier
// iteration's eval().
void n18_style_transfer(Net &extractor, torch::Tensor image, torch::Tensor goal) {
  extractor->eval();
  image.requires_grad_(true);
  torch::optim::Adam opt(std::vector<torch::Tensor>{image}, torch::optim::AdamOptions(0.01));
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto loss = torch::mse_loss(extractor->forward(image), extractor->forward(goal));
    loss.backward();
    opt.step();
  }
}

// P12: one warning per loop and module, however many forward calls it makes.
void p12_two_forwards(Net &model, torch::optim::SGD &opt, torch::Tensor a, torch::Tensor b) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (int i = 0; i < 10; ++i) {
      opt.zero_grad();
      // CHECK-FIXES: {{^}}      model->train();{{$}}
      auto loss = torch::mse_loss(model->forward(a), model->forward(b));
      // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'model' is still in eval mode from the 'eval()' of an earlier iteration{{.*}} [torch-missing-eval]
      loss.backward();
      opt.step();
    }
    model->eval();
    torch::NoGradGuard no_grad;
    for (int i = 0; i < 2; ++i)
      model->forward(a).argmax(1);
  }
}

// N19: a validation helper that returns early when there is nothing to
// measure, and otherwise calls eval() and then train() before it returns: no
// path through it leaves the model in eval mode (a false positive of the
// corpus scan: the two switches, both past the early return, were joined one
// by one).
double n19_validate(Net &model, const std::vector<torch::Tensor> &xs) {
  if (xs.empty())
    return 0.0;
  torch::NoGradGuard no_grad;
  model->eval();
  double sum = 0.0;
  for (const auto &x : xs)
    sum += model->forward(x).sum().item<double>();
  model->train();
  return sum;
}

void n19_train(Net &model, torch::optim::SGD &opt,
               std::vector<torch::Tensor> &xs) {
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    auto loss = model->forward(xs[i]).sum();
    loss.backward();
    opt.step();
    if (i % 4 == 0)
      n19_validate(model, xs);
  }
}

// P13: the same helper with a second early return between eval() and
// train(): on that path the model stays in eval mode.
double p13_validate(Net &model, const std::vector<torch::Tensor> &xs) {
  if (xs.empty())
    return 0.0;
  torch::NoGradGuard no_grad;
  model->eval();
  double sum = 0.0;
  for (const auto &x : xs)
    sum += model->forward(x).sum().item<double>();
  if (sum > 100.0)
    return sum;
  model->train();
  return sum;
}

void p13_train(Net &model, torch::optim::SGD &opt,
               std::vector<torch::Tensor> &xs) {
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    // CHECK-FIXES: {{^}}    model->train();{{$}}
    auto loss = model->forward(xs[i]).sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'model' is still in eval mode from the 'eval()' of an earlier iteration{{.*}} [torch-missing-eval]
    loss.backward();
    opt.step();
    if (i % 4 == 0)
      p13_validate(model, xs);
  }
}
