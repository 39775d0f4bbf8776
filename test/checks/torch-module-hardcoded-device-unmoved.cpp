// With the default FlagCPU (WhenMoved), a CPU literal inside a module is
// reported only in a translation unit that moves a module with to(device).
// This one never does: only the CUDA literal is reported.
// RUN: %check_torch_tidy %s torch-module-hardcoded-device %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-module-hardcoded-device %t.real -- %real_flags

#include <torch/torch.h>

struct HistogramImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto counts = torch::zeros({10}, torch::kCPU);
    auto on_gpu = torch::zeros({10}, torch::Device("cuda:1"));
    // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: module 'HistogramImpl' places a tensor on the hard-coded device "cuda:1", so the module fails on machines without CUDA
    return x + counts + on_gpu.cpu();
  }
};
TORCH_MODULE(Histogram);

// Moving to the CPU is not a move away from the CPU literals.
void to_cpu(Histogram &model, torch::Tensor x) {
  model->to(torch::kCPU);
  model->forward(x.to(torch::kCUDA));
}
