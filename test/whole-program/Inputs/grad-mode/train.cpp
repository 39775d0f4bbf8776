#include "net.h"

void train(Net &model, torch::Tensor x, torch::Tensor y) {
  {
    torch::NoGradGuard no_grad;
    shrink(model);
    auto total = evaluate(model, x, y);
  }
  shrink_recorded(model);
  decay(model);
  decay_quietly(model);
}
