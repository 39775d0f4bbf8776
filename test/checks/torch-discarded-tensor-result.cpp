// RUN: %check_torch_tidy %s torch-discarded-tensor-result %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-discarded-tensor-result %t.real -- %real_flags

#include <torch/torch.h>

#include <vector>

namespace F = torch::nn::functional;

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {
    w = register_parameter("w", torch::randn({10}));
  }
  torch::Tensor forward(torch::Tensor x) {
    x.view({-1, 784});
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.view(...)' is discarded: 'view' returns a new tensor and leaves 'x' unchanged, so the code after it still uses the old tensor; assign it back: 'x = x.view(...)' [torch-discarded-tensor-result]
    return fc->forward(x);
  }
  void move(torch::Device device) {
    w.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'w.to(...)' is discarded: 'to' returns a new tensor and leaves 'w' unchanged, so the code after it still uses the old tensor; assign it back: 'w = w.to(...)' [torch-discarded-tensor-result]
    // CHECK-FIXES: {{^}}    w = w.to(device);{{$}}
    this->w.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: result of 'this->w.cuda()' is discarded: 'cuda' returns a new tensor and leaves 'this->w' unchanged, so the code after it still uses the old tensor; assign it back: 'this->w = this->w.cuda()' [torch-discarded-tensor-result]
    // CHECK-FIXES: {{^}}    this->w = this->w.cuda();{{$}}
  }
  // A const member function cannot assign its members: no fix-it.
  void show() const {
    w.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'w.cpu()' is discarded: 'cpu' returns a new tensor and leaves 'w' unchanged, so the code after it still uses the old tensor; assign the result to a variable and use that [torch-discarded-tensor-result]
  }
  torch::nn::Linear fc{nullptr};
  torch::Tensor w;
};
TORCH_MODULE(Net);

// ---------------------------------------------------------------- positives

void p1_conversions(torch::Tensor x, torch::Tensor &y, torch::Device device) {
  x.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' is discarded: 'to' returns a new tensor and leaves 'x' unchanged, so the code after it still uses the old tensor; assign it back: 'x = x.to(...)' [torch-discarded-tensor-result]
  // CHECK-FIXES: {{^}}  x = x.to(device);{{$}}
  y.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'y.cuda()' {{.*}}; assign it back: 'y = y.cuda()' [torch-discarded-tensor-result]
  // CHECK-FIXES: {{^}}  y = y.cuda();{{$}}
  x.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.cpu()' {{.*}} [torch-discarded-tensor-result]
  // CHECK-FIXES: {{^}}  x = x.cpu();{{$}}
  x.contiguous();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.contiguous()' {{.*}} [torch-discarded-tensor-result]
  // CHECK-FIXES: {{^}}  x = x.contiguous();{{$}}
  x.to(torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' {{.*}} [torch-discarded-tensor-result]
  // CHECK-FIXES: {{^}}  x = x.to(torch::kFloat);{{$}}
  x.toType(torch::kDouble);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.toType(...)' {{.*}} [torch-discarded-tensor-result]
  // CHECK-FIXES: {{^}}  x = x.toType(torch::kDouble);{{$}}
  if (device.is_cuda())
    x.to(device, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.to(...)' {{.*}} [torch-discarded-tensor-result]
  // CHECK-FIXES: {{^}}    x = x.to(device, /*non_blocking=*/true);{{$}}
}

// Operations with an in-place form: say so, no fix-it (x.add_(1) or an
// assignment may be meant).
void p2_out_of_place(torch::Tensor x) {
  x.add(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.add(...)' is discarded: 'add' returns a new tensor and leaves 'x' unchanged, so the code after it still uses the old tensor; call the in-place 'x.add_(...)' or assign the result [torch-discarded-tensor-result]
  x.clamp(0, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.clamp(...)' {{.*}}; call the in-place 'x.clamp_(...)' or assign the result [torch-discarded-tensor-result]
  x.detach();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.detach()' {{.*}}; call the in-place 'x.detach_()' or assign the result [torch-discarded-tensor-result]
  x.squeeze();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.squeeze()' {{.*}}; call the in-place 'x.squeeze_()' or assign the result [torch-discarded-tensor-result]
  x.reshape({2, -1});
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.reshape(...)' {{.*}}; assign it back: 'x = x.reshape(...)' [torch-discarded-tensor-result]
}

void p3_functions(torch::Tensor x, torch::Tensor p) {
  torch::relu(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'torch::relu(...)' is discarded: 'torch::relu' returns a new tensor and changes none of its arguments; assign the result, or call the in-place 'torch::relu_(...)' [torch-discarded-tensor-result]
  torch::clamp(p, -1, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'torch::clamp(...)' {{.*}}; assign the result, or call the in-place 'torch::clamp_(...)' [torch-discarded-tensor-result]
  F::relu(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'F::relu(...)' is discarded: 'F::relu' returns a new tensor and changes none of its arguments; assign the result or remove the call [torch-discarded-tensor-result]
  F::dropout(x, F::DropoutFuncOptions().p(0.2));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'F::dropout(...)' {{.*}} [torch-discarded-tensor-result]
  x + p;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of operator '+' is discarded: it returns a new tensor and changes none of its operands; use '+=' to change the left operand in place, or assign the result [torch-discarded-tensor-result]
}

// Comma operands, both arms of ?:, the result of a chain, a temporary.
void p4_shapes(torch::Tensor X, torch::Tensor y, torch::Device device, Net &net,
               bool gpu) {
  X.to(device), y.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'X.to(...)' {{.*}}; assign it back: 'X = X.to(...)' [torch-discarded-tensor-result]
  // CHECK-MESSAGES: :[[@LINE-2]]:19: warning: result of 'y.to(...)' {{.*}}; assign it back: 'y = y.to(...)' [torch-discarded-tensor-result]
  gpu ? X.cuda() : X.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: result of 'X.cuda()' {{.*}} [torch-discarded-tensor-result]
  // CHECK-MESSAGES: :[[@LINE-2]]:22: warning: result of 'X.cpu()' {{.*}} [torch-discarded-tensor-result]
  X.to(device).contiguous();
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: result of 'contiguous()' is discarded: it returns a new tensor and leaves the tensor it is called on unchanged; use the result or remove the call [torch-discarded-tensor-result]
  net->forward(X).detach();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: result of 'detach()' {{.*}}; call the in-place 'detach_()' or use the result [torch-discarded-tensor-result]
  for (int i = 0; i < 3; X.to(device), ++i) {
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: result of 'X.to(...)' {{.*}} [torch-discarded-tensor-result]
  }
}

// A const tensor, or one reached through another object: no fix-it.
struct Batch {
  torch::Tensor data;
};
void p5_no_fix(const torch::Tensor &x, Batch &b, torch::Device device) {
  x.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'x.to(...)' {{.*}}; assign the result to a variable and use that [torch-discarded-tensor-result]
  b.data.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: result of 'b.data.to(...)' {{.*}}; assign it back: 'b.data = b.data.to(...)' [torch-discarded-tensor-result]
  auto lambda = [x, device]() {
    x.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.to(...)' {{.*}}; assign the result to a variable and use that [torch-discarded-tensor-result]
  };
  lambda();
}

// In a macro: the warning, no fix-it.
#define TO_DEVICE(t, d) t.to(d)
void p6_macro(torch::Tensor x, torch::Device device) {
  TO_DEVICE(x, device);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'x.to(...)' {{.*}} [torch-discarded-tensor-result]
}

// A template: reported once in its instantiations, no fix-it (it would change
// every instantiation).
template <class T> void p7_template(T t, torch::Device device) {
  t.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 't.to(...)' {{.*}} [torch-discarded-tensor-result]
}
template void p7_template<torch::Tensor>(torch::Tensor, torch::Device);


// ---------------------------------------------------------------- negatives

void n1_used(torch::Tensor x, torch::Tensor y, torch::Device device) {
  x = x.to(device);
  auto z = x.cuda();
  y = torch::relu(x).clamp(0, 1);
  std::vector<torch::Tensor> v{x.cpu()};
  (void)x.to(device);
  static_cast<void>(torch::relu(x));
  auto w = (x.to(device), y.cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: result of 'x.to(...)' {{.*}} [torch-discarded-tensor-result]
  auto s = ({
    x.add(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: result of 'x.add(...)' {{.*}} [torch-discarded-tensor-result]
    x.cuda();
  });
  (void)z, (void)w, (void)s;
}

torch::Tensor n2_returned(torch::Tensor x, torch::Device device) {
  return x.to(device);
}

void n3_in_place_and_void(torch::Tensor x, Net &net, torch::Device device,
                          torch::optim::SGD &optimizer) {
  x.add_(1);
  x.clamp_(0, 1);
  x.zero_();
  x.requires_grad_();
  x.squeeze_();
  x += 1;
  x = x * 2;
  x.backward();
  x.grad();
  net->to(device);
  net->train();
  net->forward(x); // a module's forward() may update running statistics
  optimizer.step(); // returns the loss, routinely ignored
  optimizer.zero_grad();
  torch::manual_seed(0);
  torch::nn::init::xavier_uniform_(x); // fills x, returns it by value
  torch::relu_(x);
  x.size(0);
  x.item<float>();
  x.numel();
  torch::save(net, "net.pt");
  torch::load(net, "net.pt");
}

// Calls that may work in place because an argument asks them to.
void n4_inplace_options(torch::Tensor x, F::DropoutFuncOptions opts,
                        torch::Tensor running_mean, torch::Tensor running_var) {
  F::relu(x, F::ReLUFuncOptions(true));
  F::relu(x, F::ReLUFuncOptions().inplace(true));
  F::dropout(x, opts);
  F::dropout(x, F::DropoutFuncOptions().inplace(true));
  torch::batch_norm(x, {}, {}, running_mean, running_var, true, 0.1, 1e-5,
                    false);
}

// User functions returning a tensor may do anything: not judged.
torch::Tensor log_and_move(torch::Tensor x) { return x; }
struct Helper {
  torch::Tensor apply(torch::Tensor x) { return x; }
};
void n5_user_code(torch::Tensor x, Helper &h) {
  log_and_move(x);
  h.apply(x);
  torch::Tensor();
  torch::Tensor{x};
}

// A dependent call in a template is judged in its instantiations only.
template <class M> void n6_template(M &m, torch::Device device) {
  m->to(device);
}
template void n6_template<Net>(Net &, torch::Device);
