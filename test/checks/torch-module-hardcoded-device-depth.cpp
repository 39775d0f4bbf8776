// MaxCallDepth: a helper N calls below the analysed method is read when
// N <= MaxCallDepth, for placements and for functions returning a device
// alike. With 2, a literal two calls down is reported; three calls down it is
// not read.
// RUN: %check_torch_tidy %s torch-module-hardcoded-device %t.mock -config="{CheckOptions: [{key: torch-module-hardcoded-device.MaxCallDepth, value: 2}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-module-hardcoded-device %t.real -config="{CheckOptions: [{key: torch-module-hardcoded-device.MaxCallDepth, value: 2}]}" -- %real_flags

#include <torch/torch.h>

// Placements, depth 2: followed.
torch::Tensor noise_b(torch::Tensor h) { return torch::randn(h.sizes(), torch::kCUDA); }
torch::Tensor noise_a(torch::Tensor h) { return noise_b(h); }
struct Depth2Impl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + noise_a(x); }
  // CHECK-MESSAGES: :[[@LINE-1]]:55: warning: module 'Depth2Impl' calls 'noise_a', which places a tensor on the hard-coded device 'torch::kCUDA'{{.*}} [torch-module-hardcoded-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:73: note: the hard-coded device is written here
};

// Placements, depth 3: not followed.
torch::Tensor noise_z(torch::Tensor h) { return torch::randn(h.sizes(), torch::kCUDA); }
torch::Tensor noise_y(torch::Tensor h) { return noise_z(h); }
torch::Tensor noise_x(torch::Tensor h) { return noise_y(h); }
struct Depth3Impl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + noise_x(x); }
};

// A device returned by a function, depth 2: followed.
torch::Device device_b() { return torch::Device(torch::kCUDA); }
torch::Device device_a() { return device_b(); }
struct Device2Impl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + torch::ones({2}, device_a()); }
  // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: module 'Device2Impl' places a tensor on the hard-coded device 'torch::kCUDA'{{.*}} [torch-module-hardcoded-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:49: note: 'device_a' returns the hard-coded device here
};

// A device returned by a function, depth 3: not followed.
torch::Device device_z() { return torch::Device(torch::kCUDA); }
torch::Device device_y() { return device_z(); }
torch::Device device_x() { return device_y(); }
struct Device3Impl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + torch::ones({2}, device_x()); }
};
