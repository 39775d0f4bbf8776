// A check that reports that something is missing (no zero_grad(), no
// registration) must not conclude it from code clang could not compile: a header
// that was not found leaves unresolved names (here 'cv', as when
// <opencv2/opencv.hpp> is missing), and clang drops a statement that uses one
// from the AST, so the very call the check looks for may be gone. Checks that
// report what is present still report there. (A missing #include itself is a
// fatal error, after which clang reports nothing more.)
// RUN: not %clang_tidy_torch -checks='-*,torch-*' %s -- %mock_flags > %t.mock.out 2>&1
// RUN: FileCheck %s --input-file=%t.mock.out --implicit-check-not='warning:'
// RUN: not %clang_tidy_torch -checks='-*,torch-*' %s -- %real_flags > %t.real.out 2>&1
// RUN: FileCheck %s --input-file=%t.real.out --implicit-check-not='warning:'

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

template <class Opt, class Log> void clear_and_log(Opt &opt, const Log &) { opt.zero_grad(); }

// torch-missing-zero-grad: the clearing helper's call has an unresolved
// argument; "never cleared" would be a guess.
void train(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    clear_and_log(opt, cv::format("step %d", i));
    // CHECK-DAG: :[[@LINE-1]]:24: error: use of undeclared identifier 'cv'
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    opt.step();
  }
}

// ...but a zero_grad() that is there, between backward() and step(), is still
// reported in such a function.
void misplaced(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    opt.zero_grad();
    // CHECK-DAG: :[[@LINE-1]]:9: warning: 'zero_grad()' between 'backward()' and 'step()' discards the gradients just computed{{.*}} [torch-missing-zero-grad]
    opt.step();
    cv::log(i);
    // CHECK-DAG: :[[@LINE-1]]:5: error: use of undeclared identifier 'cv'
  }
}

// torch-unregistered-module-member: the registration is an argument of an
// unresolved call; "never registered" would be a guess.
struct LoggedImpl : torch::nn::Module {
  LoggedImpl() {
    head = torch::nn::Linear(4, 2);
    cv::log(register_module("head", head));
    // CHECK-DAG: :[[@LINE-1]]:5: error: use of undeclared identifier 'cv'
  }
  torch::Tensor forward(torch::Tensor x) { return head->forward(x); }
  torch::nn::Linear head{nullptr};
};

template <class T> void log_it(const T &, int);

struct Logged2Impl : torch::nn::Module {
  Logged2Impl() {
    head = torch::nn::Linear(4, 2);
    log_it(register_module("head", head), cv::level);
    // CHECK-DAG: :[[@LINE-1]]:43: error: use of undeclared identifier 'cv'
  }
  torch::Tensor forward(torch::Tensor x) { return head->forward(x); }
  torch::nn::Linear head{nullptr};
};

// Clang drops a statement it cannot compile from the AST without a trace (the
// call above is not there at all), so where an error happened cannot be told
// from the AST: the claims of absence stay silent in the whole translation unit,
// also for a class or a loop that has no error itself.
struct CleanImpl : torch::nn::Module {
  CleanImpl() { head = torch::nn::Linear(4, 2); }
  torch::Tensor forward(torch::Tensor x) { return head->forward(x); }
  torch::nn::Linear head{nullptr};
};

void clean_loop(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    opt.step();
  }
}

// torch-scheduler-misuse: "stepped before the optimizer's first step()" claims
// that no step() comes first, and the statement clang dropped may be one; a
// scheduler stepped in the per-batch loop is there, and still reported.
template <class Opt, class Log> void step_and_log(Opt &opt, const Log &) { opt.step(); }

void scheduler_first(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  torch::optim::StepLR sched(opt, 10);
  for (int epoch = 0; epoch < 10; ++epoch) {
    step_and_log(opt, cv::format("epoch %d", epoch));
    // CHECK-DAG: :[[@LINE-1]]:23: error: use of undeclared identifier 'cv'
    sched.step();
    for (int i = 0; i < 10; ++i) {
      opt.zero_grad();
      torch::mse_loss(model->forward(x), y).backward();
      opt.step();
      sched.step();
      // CHECK-DAG: :[[@LINE-1]]:13: warning: epoch-based scheduler 'sched' ('StepLR') is stepped in the per-batch loop{{.*}} [torch-scheduler-misuse]
    }
  }
}

// torch-grad-accumulation: "never applied after the loop" and "not divided by
// k" claim that no flush step() and no scaling exist, and the statements clang
// dropped (the flush after the loop, the division of the loss) may be them.
void accumulate(Net &model, torch::Tensor x, torch::Tensor y, int k) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  int seen = 0;
  for (int i = 0; i < 10; ++i) {
    auto loss = torch::mse_loss(model->forward(x), y);
    loss = cv::scaled(loss, k);
    // CHECK-DAG: :[[@LINE-1]]:12: error: use of undeclared identifier 'cv'
    loss.backward();
    if (++seen % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  step_and_log(opt, cv::format("flush %d", seen));
  // CHECK-DAG: :[[@LINE-1]]:21: error: use of undeclared identifier 'cv'
}
