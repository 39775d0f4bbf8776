// MaxCallDepth: a helper N calls below the function holding the in-place
// operation is read for what it returns when N <= MaxCallDepth. With 2, a
// parameter returned two helpers down is known to require grad (and the
// in-place update reported); three helpers down it is not read, so nothing is
// known about the tensor.
// RUN: %check_torch_tidy %s torch-inplace-on-requires-grad %t.mock -config="{CheckOptions: [{key: torch-inplace-on-requires-grad.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-inplace-on-requires-grad %t.real -config="{CheckOptions: [{key: torch-inplace-on-requires-grad.MaxCallDepth, value: 2}]}" -- %real_flags

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

// Depth 2: followed.
torch::Tensor weight_b(Net &model) { return model->fc->weight; }
torch::Tensor weight_a(Net &model) { return weight_b(model); }

void positive_depth2(Net &model) {
  torch::Tensor w = weight_a(model);
  w.clamp_(-1.0, 1.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'clamp_' on 'w', a module parameter, while autograd is recording: {{.*}} [torch-inplace-on-requires-grad]
  // CHECK-FIXES: {{^}}  { torch::NoGradGuard no_grad; w.clamp_(-1.0, 1.0); }{{$}}
}

// Depth 3: not followed.
torch::Tensor weight_z(Net &model) { return model->fc->weight; }
torch::Tensor weight_y(Net &model) { return weight_z(model); }
torch::Tensor weight_x(Net &model) { return weight_y(model); }

void negative_depth3(Net &model) {
  torch::Tensor w = weight_x(model);
  w.clamp_(-1.0, 1.0);
}
