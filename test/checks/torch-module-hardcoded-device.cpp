// RUN: %check_torch_tidy %s torch-module-hardcoded-device %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-module-hardcoded-device %t.real -- %real_flags

#include <torch/torch.h>

#include <iostream>

// ---------------------------------------------------------------- positives

// P1: forward defined out of line; options built from a literal (the example
// project's bug).
struct NoisyImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
torch::Tensor NoisyImpl::forward(torch::Tensor x) {
  auto noise = torch::randn(x.sizes(), torch::TensorOptions().device(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:70: warning: module 'NoisyImpl' places a tensor on the hard-coded device 'torch::kCUDA', so the module fails on machines without CUDA and ignores 'to(device)'; take the device from the input (e.g. 'x.device()' or 'x.options()'), a parameter, a buffer or a constructor argument [torch-module-hardcoded-device]
  return x + noise;
}
TORCH_MODULE(Noisy);

// P2: a DeviceType literal converted to options; P3: Tensor::to(literal);
// P4: .cuda(); in forward.
struct MaskedImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto mask = torch::ones({4}, torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: module 'MaskedImpl' places a tensor on the hard-coded device 'torch::kCUDA', so the module fails on machines without CUDA
    auto y = x.to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: module 'MaskedImpl' places a tensor on the hard-coded device 'torch::kCUDA'
    auto bias = torch::zeros({4}).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: module 'MaskedImpl' moves a tensor to the hard-coded device 'CUDA' with '.cuda()', so the module fails on machines without CUDA and ignores 'to(device)'
    return y * mask + bias;
  }
};

// P5: a buffer made on a string device in the constructor; P6: the module
// moves itself and a submodule in its constructor.
struct PositionalImpl : torch::nn::Module {
  PositionalImpl() {
    pe = register_buffer("pe", torch::zeros({16}, torch::Device("cuda:0")));
    // CHECK-MESSAGES: :[[@LINE-1]]:65: warning: module 'PositionalImpl' places a tensor on the hard-coded device "cuda:0", so the module fails on machines without CUDA
    fc = register_module("fc", torch::nn::Linear(16, 16));
    fc->to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: module 'PositionalImpl' places a tensor on the hard-coded device 'torch::kCUDA'
    to(torch::Device(torch::kCUDA, 1));
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: module 'PositionalImpl' places a tensor on the hard-coded device 'torch::kCUDA'
  }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x + pe); }
  torch::Tensor pe;
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Positional);

// P7: an in-class member initialiser; P8: a method other than forward.
struct StatefulImpl : torch::nn::Module {
  torch::Tensor scale = torch::ones({1}, torch::device(torch::kCUDA).dtype(torch::kFloat));
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: module 'StatefulImpl' places a tensor on the hard-coded device 'torch::kCUDA'
  torch::Tensor state;
  void reset_state() { state = torch::zeros({4}, torch::TensorOptions().device(torch::kCUDA)); }
  // CHECK-MESSAGES: :[[@LINE-1]]:80: warning: module 'StatefulImpl' places a tensor on the hard-coded device 'torch::kCUDA'
  torch::Tensor forward(torch::Tensor x) { return x * scale + state; }
};

// P9: a helper of the translation unit called from forward.
torch::Tensor make_noise(torch::Tensor h) { return torch::randn(h.sizes(), torch::kCUDA); }
struct HelperNoiseImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + make_noise(x); }
  // CHECK-MESSAGES: :[[@LINE-1]]:55: warning: module 'HelperNoiseImpl' calls 'make_noise', which places a tensor on the hard-coded device 'torch::kCUDA', so the module fails on machines without CUDA
  // CHECK-MESSAGES: :[[@LINE-4]]:76: note: the hard-coded device is written here
};

// P10: options kept in a local; P11: a member device that is only ever a literal.
struct LocalOptionsImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto opts = torch::TensorOptions().dtype(torch::kFloat).device(torch::kCUDA);
    return x + torch::ones({2}, opts) + torch::zeros({2}, device_);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: module 'LocalOptionsImpl' places a tensor on the hard-coded device 'torch::kCUDA'
    // CHECK-MESSAGES: :[[@LINE-3]]:68: note: 'opts' is set to the hard-coded device here
    // CHECK-MESSAGES: :[[@LINE-3]]:59: warning: module 'LocalOptionsImpl' places a tensor on the hard-coded device 'torch::kCUDA'
    // CHECK-MESSAGES: :[[@LINE+2]]:25: note: member 'device_' is set to the hard-coded device here
  }
  torch::Device device_{torch::kCUDA};
};

// P12: a Cloneable module creates its parameter on the GPU in reset().
struct CloneNet : torch::nn::Cloneable<CloneNet> {
  CloneNet() { reset(); }
  void reset() override { w = register_parameter("w", torch::randn({3}).cuda()); }
  // CHECK-MESSAGES: :[[@LINE-1]]:73: warning: module 'CloneNet' moves a tensor to the hard-coded device 'CUDA' with '.cuda()'
  torch::Tensor forward(torch::Tensor x) { return x * w; }
  torch::Tensor w;
};

// P13: a device picked with torch::cuda::is_available() inside the module.
struct AutoDeviceImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::Device dev = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
    return x + torch::zeros({2}, dev);
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: module 'AutoDeviceImpl' places a tensor on a device picked with 'torch::cuda::is_available()' instead of the module's own device, so it ignores 'to(device)' and breaks when the model is moved to the CPU or to another GPU; take the device from the input (e.g. 'x.device()' or 'x.options()'), a parameter, a buffer or a constructor argument [torch-module-hardcoded-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:55: note: 'dev' is set to the hard-coded device here
    // CHECK-MESSAGES: :[[@LINE-4]]:25: note: the device is picked here from what the machine has, not from where the module lives
  }
};

// P14: a module template, reported in its instantiation.
template <int N> struct FixedImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + torch::ones({N}, torch::kCUDA); }
  // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: module 'FixedImpl' places a tensor on the hard-coded device 'torch::kCUDA'
};
template struct FixedImpl<3>;

// P15: a function of the translation unit that returns a literal device;
// P16: a constant of the program; P17: a lambda inside forward.
torch::Device gpu() { return torch::Device("cuda"); }
constexpr torch::DeviceType kTrainDevice = torch::kCUDA;
struct IndirectImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto a = torch::zeros({2}, gpu());
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: module 'IndirectImpl' places a tensor on the hard-coded device "cuda", so the module fails on machines without CUDA
    // CHECK-MESSAGES: :[[@LINE-6]]:44: note: 'gpu' returns the hard-coded device here
    auto b = torch::zeros({2}, kTrainDevice);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: module 'IndirectImpl' places a tensor on the hard-coded device 'torch::kCUDA'
    // CHECK-MESSAGES: :[[@LINE-8]]:44: note: 'kTrainDevice' is set to the hard-coded device here
    auto make = [](int64_t n) { return torch::arange(n, torch::kCUDA); };
    // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: module 'IndirectImpl' places a tensor on the hard-coded device 'torch::kCUDA'
    return x + a + b + make(2);
  }
};

// P18: a CPU literal in a module, in a translation unit that moves modules
// with to(device) (see move_model below).
struct CpuStatsImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto counts = torch::zeros({10}, torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: module 'CpuStatsImpl' places a tensor on the hard-coded device 'torch::kCPU', so the tensor stays on the CPU when the module is moved with 'to(device)' and no longer matches the module's parameters and inputs; take the device from the input (e.g. 'x.device()' or 'x.options()'), a parameter, a buffer or a constructor argument [torch-module-hardcoded-device]
    return x + counts;
  }
};

// P19: picked with is_available() in an `if`, in the constructor and in forward;
// P20: picked between two literals on a flag.
struct PickedImpl : torch::nn::Module {
  explicit PickedImpl(bool use_cuda) : use_cuda_(use_cuda) {
    torch::Device dev = torch::kCPU;
    if (torch::cuda::is_available())
      dev = torch::kCUDA;
    to(dev);
    // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: module 'PickedImpl' places a tensor on a device picked with 'torch::cuda::is_available()' instead of the module's own device
    // CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'dev' is set to the hard-coded device here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: the device is picked here from what the machine has, not from where the module lives
  }
  torch::Tensor forward(torch::Tensor x) {
    if (torch::cuda::is_available())
      x = x.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: module 'PickedImpl' places a tensor on a device picked with 'torch::cuda::is_available()'
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: the device is picked here
    return x + torch::ones({1}, use_cuda_ ? torch::kCUDA : torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: module 'PickedImpl' places a tensor on the hard-coded device 'torch::kCUDA', so the module fails on machines without CUDA
  }
  bool use_cuda_;
};

// P21: a local device given to TensorOptions::device(), whose forwarding
// reference parameter (`Args &&...`) takes it as a non-const reference
// without changing it, in the constructor and in forward().
struct OptionsLocalImpl : torch::nn::Module {
  OptionsLocalImpl() {
    torch::Device dev = torch::kCUDA;
    w = register_buffer("w", torch::zeros({2}, torch::TensorOptions().device(dev)));
    // CHECK-MESSAGES: :[[@LINE-1]]:71: warning: module 'OptionsLocalImpl' places a tensor on the hard-coded device 'torch::kCUDA'
    // CHECK-MESSAGES: :[[@LINE-3]]:25: note: 'dev' is set to the hard-coded device here
  }
  torch::Tensor forward(torch::Tensor x) {
    torch::Device dev = torch::kCUDA;
    auto opts = torch::TensorOptions().dtype(torch::kFloat).device(dev);
    return x + w + torch::ones({2}, opts);
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: module 'OptionsLocalImpl' places a tensor on the hard-coded device 'torch::kCUDA'
    // CHECK-MESSAGES: :[[@LINE-4]]:25: note: 'opts' is set to the hard-coded device here
  }
  torch::Tensor w;
};

// ---------------------------------------------------------------- negatives

// N11: a local device that a function of the program may change through a
// non-const reference is not known to stay a literal.
void choose_device(torch::Device &d);
struct ChosenLocalImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::Device dev = torch::kCUDA;
    choose_device(dev);
    return x + torch::ones({2}, torch::TensorOptions().device(dev));
  }
};

// N1: the example project's correct look-alike: noise follows the input.
struct GaussianNoiseImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto noise = torch::randn(x.sizes(), x.options()) * 0.1;
    return x + noise + torch::zeros({1}, x.device());
  }
};

// N2: devices of a parameter and of a buffer.
struct FollowsParamsImpl : torch::nn::Module {
  FollowsParamsImpl() {
    weight = register_parameter("weight", torch::randn({4}));
    running = register_buffer("running", torch::zeros({4}));
  }
  torch::Tensor forward(torch::Tensor x) {
    auto a = x.to(weight.device());
    auto b = torch::ones({4}, running.options());
    return a + b + torch::zeros_like(x);
  }
  torch::Tensor weight, running;
};

// N3: a device given to the constructor; N4: a member with a literal default
// that the constructor overwrites from its argument.
struct CtorDeviceImpl : torch::nn::Module {
  explicit CtorDeviceImpl(torch::Device device) : device_(device) {}
  torch::Tensor forward(torch::Tensor x) { return x + torch::zeros({2}, device_); }
  torch::Device device_;
};
struct DefaultedDeviceImpl : torch::nn::Module {
  explicit DefaultedDeviceImpl(torch::Device device = torch::kCUDA) { device_ = device; }
  torch::Tensor forward(torch::Tensor x) { return x + torch::zeros({2}, device_); }
  torch::Device device_ = torch::kCPU;
};

// N4b: a member with a literal default that a setter overwrites.
struct SettableImpl : torch::nn::Module {
  void set_device(torch::Device d) { device_ = d; }
  torch::Tensor forward(torch::Tensor x) { return x + torch::zeros({2}, device_); }
  torch::Device device_{torch::kCUDA};
};

// N5: literals only compared, printed or named; never used to place a tensor.
struct InspectsDeviceImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (x.device() == torch::kCUDA)
      std::cout << torch::kCUDA << c10::DeviceTypeName(torch::kCUDA) << "\n";
    bool on_gpu = x.device().type() == torch::kCUDA;
    torch::Device unused(torch::kCUDA);
    (void)unused;
    return on_gpu ? x * 2 : x;
  }
};

// N6: placements under a test of the input's device follow the input.
struct FollowsTestImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto mask = torch::ones({4});
    if (x.is_cuda())
      mask = mask.cuda();
    torch::Device dev = x.is_cuda() ? torch::kCUDA : torch::kCPU;
    return x * mask + torch::zeros({4}, dev);
  }
};

// N7: host reads of CPU copies; dtype-only conversions; meta tensors.
struct HostReadImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    float m = x.max().cpu().item<float>();
    const float *first = x.to(torch::kCPU).contiguous().data_ptr<float>();
    m += *first;
    std::cout << x.to(torch::kCPU) << "\n";
    auto shape_only = torch::empty({4}, torch::kMeta);
    (void)shape_only;
    return x.to(torch::kFloat) * m + torch::zeros({1}, torch::dtype(torch::kFloat));
  }
};

// N8: helpers taking the device as a parameter, called with the input's device.
torch::Tensor zeros_on(int64_t n, torch::Device d) { return torch::zeros({n}, d); }
struct HelperDeviceImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + zeros_on(2, x.device()) + make(2, x); }
  torch::Tensor make(int64_t n, const torch::Tensor &like) { return torch::ones({n}, like.options()); }
};

// N9: a module template that is never instantiated.
template <typename T> struct UnusedImpl : torch::nn::Module {
  T forward(T x) { return x.to(torch::kCUDA); }
};

// N10: code outside modules chooses the device: the training program, a
// non-module class, a helper used only outside modules.
torch::Tensor to_gpu(torch::Tensor t) { return t.to(torch::kCUDA); }
struct Trainer {
  void run(torch::Tensor x) { x = x.cuda(); }
};
void move_model(Noisy &model, torch::Tensor x) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  model->to(device);
  auto batch = x.to(device);
  auto extra = torch::zeros({3}, torch::kCUDA);
  auto moved = to_gpu(batch + extra);
  (void)moved;
}

// ---------------------------------------------------------------- odd code

// A generic lambda is judged in its instantiations; a macro is reported where
// it is expanded.
#define ON_GPU(t) (t).to(torch::kCUDA)
struct OddImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto up = [](auto t) { return t.cuda(); };
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: module 'OddImpl' moves a tensor to the hard-coded device 'CUDA' with '.cuda()'
    return up(x) + ON_GPU(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: module 'OddImpl' places a tensor on the hard-coded device 'CUDA', so the module fails on machines without CUDA
  }
  // A class nested in a module is not a module.
  struct Cache {
    void fill(torch::Tensor &t) { t = t.cuda(); }
  };
};

// A recursive device function is not followed forever (and its result is not
// known to be a literal).
torch::Device pick(int n) { return n > 0 ? pick(n - 1) : torch::Device(torch::kCUDA); }
struct RecursiveImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + torch::zeros({1}, pick(2)); }
};
