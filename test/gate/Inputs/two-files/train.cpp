#include "net.h"

// BCELoss on a model whose forward() (model.cpp) ends in a Linear; gradients
// cleared by a helper of model.cpp.
void train(Net &net, torch::optim::SGD &opt, torch::Tensor x, torch::Tensor y) {
  torch::nn::BCELoss bce;
  for (int i = 0; i < 10; ++i) {
    clear_grads(opt);
    auto loss = bce(net->forward(x), y);
    loss.backward();
    opt.step();
  }
}
