// MaxCallDepth: a helper N calls below the function holding the saving
// operation is read for what it returns when N <= MaxCallDepth. With 2, a
// forward pass returned two helpers down is known to be recorded (so sigmoid
// saves its output and the change is reported); three helpers down it is not
// read, so nothing is known to be saved.
// RUN: %check_torch_tidy %s torch-inplace-on-saved-tensor %t.mock -config="{CheckOptions: [{key: torch-inplace-on-saved-tensor.MaxCallDepth, value: 2}]}" -- %mock_flags

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

// Depth 2: followed.
torch::Tensor logits_b(Net &model, const torch::Tensor &x) {
  return model->forward(x);
}
torch::Tensor logits_a(Net &model, const torch::Tensor &x) {
  return logits_b(model, x);
}

torch::Tensor positive_depth2(Net &model, const torch::Tensor &x) {
  auto g = torch::sigmoid(logits_a(model, x));
  g.mul_(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: in-place 'mul_' on 'g', the output of 'sigmoid', which autograd saved for its backward pass: {{.*}} [torch-inplace-on-saved-tensor]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'sigmoid' saves its output
  return g;
}

// Depth 3: not followed.
torch::Tensor logits_z(Net &model, const torch::Tensor &x) {
  return model->forward(x);
}
torch::Tensor logits_y(Net &model, const torch::Tensor &x) {
  return logits_z(model, x);
}
torch::Tensor logits_x(Net &model, const torch::Tensor &x) {
  return logits_y(model, x);
}

torch::Tensor negative_depth3(Net &model, const torch::Tensor &x) {
  auto g = torch::sigmoid(logits_x(model, x));
  g.mul_(2);
  return g;
}
