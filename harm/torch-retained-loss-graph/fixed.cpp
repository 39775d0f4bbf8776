// torch-retained-loss-graph, fixed: the evaluation pass keeps every batch's
// predictions detached from their autograd graph, which is freed with the
// batch.
#include "common.h"

#include <vector>

HARM_PROGRAM(run, 48) {
  const int64_t batch = 256;
  auto train = harm::regression(2048, 64, 1);
  auto test = harm::regression(batch * run.steps(), 64, 101);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(64, 1024), torch::nn::Tanh(),
                              torch::nn::Linear(1024, 1024), torch::nn::Tanh(),
                              torch::nn::Linear(1024, 1));
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.05));
  for (int64_t start = 0; start < 2048; start += batch) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(train.x.slice(0, start, start + batch)),
                                train.y.slice(0, start, start + batch));
    loss.backward();
    optimizer.step();
  }
  const double before = harm::residentMB();
  std::vector<torch::Tensor> predictions;
  for (int step = 0; step < run.steps(); ++step) {
    auto output = model->forward(test.x.slice(0, step * batch, (step + 1) * batch));
    predictions.push_back(output.detach());
    run.memory(step, harm::residentMB() - before);
  }
  auto mse = torch::mse_loss(torch::cat(predictions), test.y).item<double>();
  std::fprintf(stderr, "test MSE %.4g\n", mse);
  return run.finish("memory growth of the evaluation pass (MB)",
                    harm::residentMB() - before);
}
