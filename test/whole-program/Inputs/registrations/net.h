#include <torch/torch.h>
// Modules whose constructors (model.cpp) leave their layers to functions of
// another file: good.cpp registers them, bad.cpp does not.
struct NetImpl : torch::nn::Module {
  NetImpl();
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);
struct Net2Impl : torch::nn::Module {
  Net2Impl();
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net2);
void setup_layers(NetImpl &net);
torch::nn::Linear make_fc(torch::nn::Module &owner);
