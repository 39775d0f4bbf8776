// torch-graph-break, buggy: the auxiliary head's loss is turned into a number
// with item() and added back as torch::tensor(...), so no gradient reaches the
// auxiliary head: it keeps its random weights while the main head trains.
#include "common.h"

namespace {
struct TwoHeadsImpl : torch::nn::Module {
  TwoHeadsImpl()
      : trunk(register_module("trunk", torch::nn::Linear(8, 32))),
        main(register_module("main", torch::nn::Linear(32, 1))),
        aux(register_module("aux", torch::nn::Linear(32, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::tanh(trunk->forward(x)); }
  torch::nn::Linear trunk, main, aux;
};
TORCH_MODULE(TwoHeads);

// The auxiliary target: another smooth function of the same inputs.
torch::Tensor auxTarget(const torch::Tensor &x) {
  return torch::tanh(x.narrow(1, 0, 4).sum(1, true));
}
} // namespace

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, 8, 1);
  auto test = harm::regression(512, 8, 101);
  auto train_aux = auxTarget(train.x);
  auto test_aux = auxTarget(test.x);
  torch::manual_seed(0);
  TwoHeads model;
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  for (int step = 0; step < run.steps(); ++step) {
    optimizer.zero_grad();
    auto h = model->forward(train.x);
    auto main_loss = torch::mse_loss(model->main(h), train.y);
    auto aux_loss = torch::mse_loss(model->aux(h), train_aux);
    auto loss = main_loss + 0.5 * torch::tensor(aux_loss.item<float>());
    loss.backward();
    optimizer.step();
    run.loss(step, loss);
  }
  torch::NoGradGuard no_grad;
  auto h = model->forward(test.x);
  return run.finish("auxiliary head test MSE",
                    torch::mse_loss(model->aux(h), test_aux).item<double>());
}
