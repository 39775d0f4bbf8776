// Options: CPU literals always reported, availability selection allowed,
// allowlisted module classes and device functions; --dump-config shows them.
// RUN: %check_torch_tidy %s torch-module-hardcoded-device %t.mock -config="{CheckOptions: [{key: torch-module-hardcoded-device.FlagCPU, value: 'Always'}, {key: torch-module-hardcoded-device.IgnoreAvailabilitySelection, value: true}, {key: torch-module-hardcoded-device.AllowedClasses, value: 'mylib::CudaKernelImpl'}, {key: torch-module-hardcoded-device.AllowedDeviceFunctions, value: 'mylib::local_device'}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-module-hardcoded-device %t.real -config="{CheckOptions: [{key: torch-module-hardcoded-device.FlagCPU, value: 'Always'}, {key: torch-module-hardcoded-device.IgnoreAvailabilitySelection, value: true}, {key: torch-module-hardcoded-device.AllowedClasses, value: 'mylib::CudaKernelImpl'}, {key: torch-module-hardcoded-device.AllowedDeviceFunctions, value: 'mylib::local_device'}]}" -- %real_flags
// RUN: %clang_tidy_torch -checks='-*,torch-module-hardcoded-device' -config="{CheckOptions: [{key: torch-module-hardcoded-device.FlagCPU, value: 'Never'}, {key: torch-module-hardcoded-device.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-module-hardcoded-device.AllowedClasses: ''
// DUMP-DAG: torch-module-hardcoded-device.AllowedDeviceFunctions: ''
// DUMP-DAG: torch-module-hardcoded-device.FlagCPU: Never
// DUMP-DAG: torch-module-hardcoded-device.IgnoreAvailabilitySelection: 'false'
// DUMP-DAG: torch-module-hardcoded-device.MaxCallDepth: '2'
// RUN: %clang_tidy_torch -checks='-*,torch-module-hardcoded-device' -config="{CheckOptions: [{key: torch-module-hardcoded-device.FlagCPU, value: 'Sometimes'}]}" %s -- %mock_flags 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: invalid configuration value 'Sometimes' for option 'torch-module-hardcoded-device.FlagCPU'; expected 'WhenMoved', 'Always' or 'Never'; using the default 'WhenMoved'

#include <torch/torch.h>

namespace mylib {
// A module that wraps a CUDA-only kernel: allowlisted.
struct CudaKernelImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x.cuda() * torch::ones({1}, torch::kCUDA); }
};
struct FusedKernelImpl : CudaKernelImpl {
  torch::Tensor forward(torch::Tensor x) { return x.to(torch::kCUDA); }
};
// The in-house rule for the device of a rank: trusted.
torch::Device local_device() { return torch::Device(torch::kCUDA, 0); }
} // namespace mylib

// FlagCPU=Always: a CPU literal is reported although nothing here moves a module.
struct CountsImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto counts = torch::zeros({10}, torch::TensorOptions().device(torch::kCPU));
    // CHECK-MESSAGES: :[[@LINE-1]]:68: warning: module 'CountsImpl' places a tensor on the hard-coded device 'torch::kCPU', so the tensor stays on the CPU when the module is moved {{.*}} [torch-module-hardcoded-device]
    auto host = x.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: module 'CountsImpl' moves a tensor to the hard-coded device 'CPU' with '.cpu()', so the tensor stays on the CPU
    float first = x.cpu().item<float>(); // read on the host: fine
    return counts + host * first;
  }
};

// IgnoreAvailabilitySelection: a device picked with is_available() is accepted...
struct AutoImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::Device dev = torch::kCPU;
    if (torch::cuda::is_available())
      dev = torch::kCUDA;
    auto a = torch::zeros({2}, dev);
    auto b = torch::cuda::is_available() ? x.cuda() : x;
    return a + b;
  }
};

// ...but a plain literal is still reported.
struct PlainImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + torch::ones({2}, torch::kCUDA); }
  // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: module 'PlainImpl' places a tensor on the hard-coded device 'torch::kCUDA', so the module fails on machines without CUDA
};

// AllowedDeviceFunctions: the device of mylib::local_device() is trusted.
struct RankImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + torch::zeros({2}, mylib::local_device()); }
};
