#include "net.h"

void p1_forward_elsewhere(Regressor &model) {
  auto x = torch::randn({64, 8});
  auto y = torch::randn({64});
  auto loss = torch::mse_loss(model->forward(x), y);
  loss.backward();
}

void p2_flattening_model(Flat &model, torch::Tensor images, torch::Tensor labels) {
  auto target = labels.view({-1});
  auto loss = torch::nn::functional::mse_loss(model(images), target);
  loss.backward();
}

void p3_helper_elsewhere(Regressor &model) {
  auto x = torch::randn({64, 8});
  auto y = torch::randn({64});
  torch::nn::L1Loss l1;
  auto loss = l1(smooth(predict(model, x)), y);
  loss.backward();
}

void p4_target_elsewhere() {
  auto prediction = torch::randn({64}, torch::requires_grad());
  auto loss = torch::mse_loss(prediction, column_targets());
  loss.backward();
}

// ---- negatives --------------------------------------------------------------

void n1_wide_output(Wide &model) {
  auto x = torch::randn({64, 8});
  auto y = torch::randn({64, 4});
  auto loss = torch::mse_loss(model->forward(x), y);
  loss.backward();
}

void n2_squeezed(Regressor &model) {
  auto x = torch::randn({64, 8});
  auto y = torch::randn({64});
  auto loss = torch::mse_loss(model->forward(x).squeeze(1), y);
  loss.backward();
}

void n3_no_summary(Regressor &model) {
  auto x = torch::randn({64, 8});
  auto y = torch::randn({64});
  auto loss = torch::mse_loss(opaque(model->forward(x)), y);
  loss.backward();
}

void n4_column_target(Regressor &model) {
  auto x = torch::randn({64, 8});
  auto loss = torch::mse_loss(model->forward(x), column_targets());
  loss.backward();
}

void n5_branches(Regressor &model) {
  auto x = torch::randn({64, 8});
  auto y = torch::randn({64});
  auto loss = torch::mse_loss(either(model->forward(x), false), y);
  loss.backward();
}
