// torch-unnamed-grad-guard, fixed: the guard has a name, so the hand-written
// weight decay below it runs with autograd off.
#include "common.h"

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, 8, 1);
  auto test = harm::regression(512, 8, 101);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(8, 32), torch::nn::Tanh(),
                              torch::nn::Linear(32, 1));
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  for (int step = 0; step < run.steps(); ++step) {
    run.at(step);
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(train.x), train.y);
    loss.backward();
    optimizer.step();
    {
      torch::NoGradGuard no_grad;
      for (auto &p : model->parameters())
        p.mul_(0.999);
    }
    run.loss(step, loss);
  }
  torch::NoGradGuard no_grad;
  return run.finish("test MSE",
                    torch::mse_loss(model->forward(test.x), test.y).item<double>());
}
