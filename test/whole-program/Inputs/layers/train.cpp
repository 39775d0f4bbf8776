#include "net.h"

// P1: 'fc2' takes 256 features, 'fc1' gives 128 (both built in model.cpp).
torch::Tensor MlpImpl::forward(torch::Tensor x) {
  return fc2->forward(torch::relu(fc1->forward(x)));
}

// P2: 'c2' takes 32 channels, 'c1' gives 16.
torch::Tensor ConvImpl::forward(torch::Tensor x) {
  return c2->forward(relu->forward(c1->forward(x)));
}

// P3: an [N, 1] prediction against an [N] target, the last layer built in
// model.cpp.
torch::Tensor regression(Regressor &model) {
  torch::Tensor x = torch::randn({64, 8});
  torch::Tensor y = torch::randn({64});
  return torch::mse_loss(model->forward(x), y);
}

// N1: the sizes agree.
torch::Tensor GoodImpl::forward(torch::Tensor x) { return b->forward(a->forward(x)); }

// N2: two constructors that build different layers.
torch::Tensor TwoImpl::forward(torch::Tensor x) { return b->forward(a->forward(x)); }

// N3: a size from a constructor parameter.
torch::Tensor SizedImpl::forward(torch::Tensor x) { return b->forward(a->forward(x)); }

// N4: a layer built in a branch.
torch::Tensor BranchImpl::forward(torch::Tensor x) { return b->forward(a->forward(x)); }

// N5: no summary describes its constructor.
torch::Tensor UndescribedImpl::forward(torch::Tensor x) { return b->forward(a->forward(x)); }

// N6: a target of the prediction's shape.
torch::Tensor column(Regressor &model) {
  torch::Tensor x = torch::randn({64, 8});
  torch::Tensor y = torch::randn({64, 1});
  return torch::mse_loss(model->forward(x), y);
}
