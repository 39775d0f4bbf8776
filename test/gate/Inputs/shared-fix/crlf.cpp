#include "net.h"

struct CrlfImpl : torch::nn::Module {
  CrlfImpl() {
    head = torch::nn::Linear(4, 2);
  }
  torch::Tensor forward(torch::Tensor x) { return head->forward(x); }
  torch::nn::Linear head{nullptr};
};
