#include <torch/torch.h>

#include <cstdint>

// The constructors are in model.cpp; each forward() in train.cpp or here.
struct MlpImpl : torch::nn::Module {
  MlpImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

struct ConvImpl : torch::nn::Module {
  ConvImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Conv2d c1{nullptr}, c2{nullptr};
  torch::nn::ReLU relu;
};

// forward() here: an [N, 1] output.
struct RegressorImpl : torch::nn::Module {
  RegressorImpl();
  torch::Tensor forward(torch::Tensor x) {
    return out->forward(torch::relu(hidden->forward(x)));
  }
  torch::nn::Linear hidden{nullptr}, out{nullptr};
};
TORCH_MODULE(Regressor);

struct GoodImpl : torch::nn::Module {
  GoodImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear a{nullptr}, b{nullptr};
};

struct TwoImpl : torch::nn::Module {
  TwoImpl();
  explicit TwoImpl(int64_t wide);
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear a{nullptr}, b{nullptr};
};

struct SizedImpl : torch::nn::Module {
  explicit SizedImpl(int64_t hidden);
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear a{nullptr}, b{nullptr};
};

struct BranchImpl : torch::nn::Module {
  explicit BranchImpl(bool wide);
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear a{nullptr}, b{nullptr};
};

// Its constructor is in no file summarised.
struct UndescribedImpl : torch::nn::Module {
  UndescribedImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear a{nullptr}, b{nullptr};
};
