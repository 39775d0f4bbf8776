// torch-bce-on-logits, fixed: the model's raw scores go to the loss that applies
// the sigmoid itself.
#include "common.h"

HARM_PROGRAM(run, 300) {
  auto train = harm::classification(512, 8, 2);
  auto test = harm::classification(512, 8, 102);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(8, 16), torch::nn::ReLU(),
                              torch::nn::Linear(16, 1));
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  for (int step = 0; step < run.steps(); ++step) {
    optimizer.zero_grad();
    auto loss = torch::binary_cross_entropy_with_logits(model->forward(train.x), train.y);
    loss.backward();
    optimizer.step();
    run.loss(step, loss);
  }
  torch::NoGradGuard no_grad;
  auto predicted = (model->forward(test.x) > 0).to(torch::kFloat);
  return run.finish("test accuracy",
                    predicted.eq(test.y).to(torch::kFloat).mean().item<double>());
}
