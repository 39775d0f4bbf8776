#include <torch/torch.h>

// Defined in another file: whether it clears the gradients is a record of the
// merged summary that only torch-missing-zero-grad asks for here, since the
// summary pass summarises no function of internal linkage.
void clear(torch::optim::SGD &opt);

static void loop(torch::nn::Linear &net, torch::optim::SGD &opt,
                 torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    clear(opt);
    auto loss = net->forward(x).sum();
    loss.backward();
    opt.step();
  }
}
