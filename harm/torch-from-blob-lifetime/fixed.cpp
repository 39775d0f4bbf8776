// torch-from-blob-lifetime, fixed: the helper clones the row, so each tensor
// owns its data after the local vector is freed.
#include "common.h"

// One row of the training set, as the data loader builds it.
torch::Tensor row_tensor(const torch::TensorAccessor<float, 2> &x, int64_t i) {
  std::vector<float> row(x.size(1));
  for (int64_t j = 0; j < x.size(1); ++j)
    row[j] = x[i][j];
  return torch::from_blob(row.data(), {x.size(1)}).clone();
}

HARM_PROGRAM(run, 300) {
  auto train = harm::regression(512, 8, 1);
  auto test = harm::regression(512, 8, 101);
  auto x = train.x.accessor<float, 2>();
  std::vector<torch::Tensor> rows;
  for (int64_t i = 0; i < train.x.size(0); ++i)
    rows.push_back(row_tensor(x, i));
  auto inputs = torch::stack(rows);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(8, 32), torch::nn::Tanh(),
                              torch::nn::Linear(32, 1));
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(0.01));
  for (int step = 0; step < run.steps(); ++step) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(inputs), train.y);
    loss.backward();
    optimizer.step();
    run.loss(step, loss);
  }
  torch::NoGradGuard no_grad;
  return run.finish("test MSE",
                    torch::mse_loss(model->forward(test.x), test.y).item<double>());
}
