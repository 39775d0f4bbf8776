// MaxCallDepth: a helper N calls below the function holding the loop is read
// when N <= MaxCallDepth. With 2, a step() two helpers down is seen (and the
// missing zero_grad() reported); three helpers down it is not read, so there
// is no step() to report.
// RUN: %check_torch_tidy %s torch-missing-zero-grad %t.mock -config="{CheckOptions: [{key: torch-missing-zero-grad.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-missing-zero-grad %t.real -config="{CheckOptions: [{key: torch-missing-zero-grad.MaxCallDepth, value: 2}]}" -- %real_flags

#include <torch/torch.h>

torch::Tensor lossOf(torch::nn::Linear &model, torch::Tensor x) { return model(x).sum(); }

// Depth 2: followed.
void step_b(torch::optim::SGD &opt) { opt.step(); }
void step_a(torch::optim::SGD &opt) { step_b(opt); }

void positive_depth2(torch::nn::Linear &model, torch::optim::SGD &opt, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never cleared {{.*}} [torch-missing-zero-grad]
    lossOf(model, x).backward();
    // CHECK-FIXES: {{^}}    opt.zero_grad();{{$}}
    step_a(opt);
  }
}

// Depth 3: not followed.
void step_z(torch::optim::SGD &opt) { opt.step(); }
void step_y(torch::optim::SGD &opt) { step_z(opt); }
void step_x(torch::optim::SGD &opt) { step_y(opt); }

void negative_depth3(torch::nn::Linear &model, torch::optim::SGD &opt, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    lossOf(model, x).backward();
    step_x(opt);
  }
}
