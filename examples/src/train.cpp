#include "train.hpp"

#include <iostream>
#include <utility>

namespace {

auto make_loader(SyntheticDataset dataset, size_t batch_size) {
  return torch::data::make_data_loader(
      std::move(dataset).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(batch_size));
}

void log_epoch(const char* name, int64_t epoch, double loss) {
  std::cout << "[" << name << "] epoch " << epoch << " loss " << loss << '\n';
}

}  // namespace

// ---------------------------------------------------------------------------
// Plain epoch / batch loop.

void train_classifier(torch::nn::Sequential& model, SyntheticDataset dataset,
                      const TrainConfig& config) {
  auto loader = torch::data::make_data_loader(
      std::move(dataset).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(config.batch_size).workers(2));
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(config.lr).momentum(0.9));

  model->train();
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    double running_loss = 0.0;
    int64_t num_batches = 0;
    // BUG(torch-missing-zero-grad): the optimizer's gradients are never cleared, so every backward() adds onto the gradients of all previous batches.
    for (auto& batch : *loader) {
      auto logits = model->forward(batch.data);
      auto loss = torch::nn::functional::cross_entropy(logits, batch.target);
      loss.backward();
      optimizer.step();

      running_loss += loss.item<double>();
      ++num_batches;
    }
    log_epoch("classifier", epoch, running_loss / num_batches);
  }
}

// ---------------------------------------------------------------------------
// A helper that performs one optimisation step, called from a loop.

float train_step(torch::nn::Sequential& model, torch::optim::Optimizer& optimizer,
                 const torch::Tensor& inputs, const torch::Tensor& targets) {
  optimizer.zero_grad();
  auto loss = torch::nn::functional::cross_entropy(model->forward(inputs), targets);
  loss.backward();
  optimizer.step();
  return loss.item<float>();
}

void train_with_helper(torch::nn::Sequential& model, SyntheticDataset dataset,
                       const TrainConfig& config) {
  auto loader = make_loader(std::move(dataset), config.batch_size);
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(config.lr));
  torch::optim::StepLR scheduler(optimizer, /*step_size=*/2, /*gamma=*/0.5);

  model->train();
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    double running_loss = 0.0;
    int64_t num_batches = 0;
    for (auto& batch : *loader) {
      running_loss += train_step(model, optimizer, batch.data, batch.target);
      // BUG(torch-scheduler-misuse): StepLR counts epochs, but it is stepped after every batch, so the learning rate halves every 2 batches instead of every 2 epochs and training stalls within the first epoch; step it once per epoch, after the batch loop.
      scheduler.step();
      ++num_batches;
    }
    log_epoch("helper", epoch, running_loss / num_batches);
  }
}

// ---------------------------------------------------------------------------
// Trainer class.

Trainer::Trainer(MLP model, double lr)
    : model_(std::move(model)),
      optimizer_(model_->parameters(), torch::optim::AdamOptions(lr)) {}

float Trainer::train_step(const torch::Tensor& inputs,
                          const torch::Tensor& targets) {
  optimizer_.zero_grad();
  auto loss = criterion_(model_->forward(inputs), targets);
  loss.backward();
  optimizer_.step();
  return loss.item<float>();
}

float Trainer::train_epoch(SyntheticDataset dataset, size_t batch_size) {
  auto loader = make_loader(std::move(dataset), batch_size);
  model_->train();
  float total = 0.0f;
  int64_t num_batches = 0;
  for (auto& batch : *loader) {
    total += train_step(batch.data, batch.target);
    ++num_batches;
  }
  return total / static_cast<float>(num_batches);
}

// ---------------------------------------------------------------------------
// A classifier whose head outputs class probabilities (handy for logging).

void train_probability_head(SyntheticDataset dataset, int64_t in_features,
                            int64_t num_classes, const TrainConfig& config) {
  torch::nn::Sequential head(torch::nn::Linear(in_features, 32), torch::nn::ReLU(),
                             torch::nn::Linear(32, num_classes),
                             torch::nn::Softmax(1));
  auto loader = make_loader(std::move(dataset), config.batch_size);
  torch::optim::Adam optimizer(head->parameters(),
                               torch::optim::AdamOptions(config.lr));
  torch::nn::CrossEntropyLoss criterion;

  head->train();
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    double running_loss = 0.0;
    int64_t num_batches = 0;
    for (auto& batch : *loader) {
      optimizer.zero_grad();
      // BUG(torch-loss-activation-mismatch): the head ends in Softmax, so CrossEntropyLoss applies a second softmax to probabilities in [0, 1]: the loss plateaus far above 0 and training stalls; drop the Softmax and give the loss the logits.
      auto loss = criterion(head->forward(batch.data), batch.target);
      loss.backward();
      optimizer.step();
      running_loss += loss.item<double>();
      ++num_batches;
    }
    log_epoch("probability-head", epoch, running_loss / num_batches);
  }
}

// ---------------------------------------------------------------------------
// Gradient accumulation: simulate a batch `accumulation_steps` times larger.

void train_with_accumulation(MLP& model, SyntheticDataset dataset,
                             const TrainConfig& config) {
  auto loader = make_loader(std::move(dataset), config.batch_size);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(config.lr));
  const int64_t accum = config.accumulation_steps;

  model->train();
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    optimizer.zero_grad();
    int64_t i = 0;
    // BUG(torch-grad-accumulation): the loss is divided by `accum`, but nothing steps after the loop, so when the number of batches is not a multiple of `accum` the last batches' gradients are dropped by the next epoch's zero_grad() and those samples never train the model; step once more after the loop when batches are left over.
    for (auto& batch : *loader) {
      auto loss = torch::nn::functional::cross_entropy(model->forward(batch.data),
                                                       batch.target);
      (loss / accum).backward();
      if ((i + 1) % accum == 0) {
        optimizer.step();
        optimizer.zero_grad();
      }
      ++i;
    }
  }
}

// ---------------------------------------------------------------------------
// Manual SGD without an optimizer object.

void train_manual_sgd(MLP& model, SyntheticDataset dataset,
                      const TrainConfig& config) {
  auto loader = make_loader(std::move(dataset), config.batch_size);
  model->train();
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    for (auto& batch : *loader) {
      model->zero_grad();
      auto loss = torch::nn::functional::cross_entropy(model->forward(batch.data),
                                                       batch.target);
      loss.backward();
      for (auto& p : model->parameters()) {
        // BUG(torch-inplace-on-requires-grad): the parameter is updated in place while autograd is still recording, which throws for leaf tensors that require grad; wrap the update in a torch::NoGradGuard.
        p -= config.lr * p.grad();
      }
    }
  }
}

void clip_weights(torch::nn::Module& module, double limit) {
  // Correct: parameters are modified in place with autograd disabled.
  torch::NoGradGuard no_grad;
  for (auto& p : module.parameters()) {
    p.clamp_(-limit, limit);
  }
}

torch::Tensor fit_linear_probe(const torch::Tensor& features,
                               const torch::Tensor& targets, int64_t steps,
                               double lr) {
  auto w = torch::zeros({features.size(1), 1},
                        torch::TensorOptions().requires_grad(true));
  auto b = torch::zeros({1}, torch::TensorOptions().requires_grad(true));
  for (int64_t step = 0; step < steps; ++step) {
    auto logits = features.matmul(w) + b;
    auto loss = torch::nn::functional::binary_cross_entropy_with_logits(logits,
                                                                        targets);
    loss.backward();
    {
      torch::NoGradGuard no_grad;
      w.sub_(lr * w.grad());
      b.sub_(lr * b.grad());
      w.mutable_grad().zero_();
      b.mutable_grad().zero_();
    }
  }
  return torch::cat({w.detach().flatten(), b.detach()});
}

double fit_statistics_regressor(const torch::Tensor& statistics,
                                const torch::Tensor& values, int64_t steps,
                                double lr) {
  torch::nn::Sequential regressor(torch::nn::Linear(16, 32), torch::nn::ReLU(),
                                  torch::nn::Linear(32, 1));
  torch::optim::SGD optimizer(regressor->parameters(),
                              torch::optim::SGDOptions(lr));
  auto inputs = statistics.view({-1, 16});
  auto targets = values.flatten();  // one value per row
  double last = 0;
  for (int64_t step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    // BUG(torch-loss-broadcast): the regressor gives [N, 1] and the targets are [N], so mse_loss compares every prediction with every target ([N, N]) and the regressor learns to predict their mean; use regressor->forward(inputs).squeeze(1).
    auto loss = torch::mse_loss(regressor->forward(inputs), targets);
    loss.backward();
    optimizer.step();
    last = loss.item<double>();
  }
  return last;
}

// ---------------------------------------------------------------------------
// Binary classification.

void train_binary(BinaryClassifier& model, SyntheticDataset dataset,
                  const TrainConfig& config) {
  auto loader = make_loader(std::move(dataset), config.batch_size);
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(config.lr));
  torch::nn::BCELoss criterion;

  model->train();
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    double running_loss = 0.0;
    int64_t num_batches = 0;
    for (auto& batch : *loader) {
      optimizer.zero_grad();
      auto logits = model->forward(batch.data);
      // BUG(torch-bce-on-logits): BinaryClassifier::forward() ends in a Linear layer and returns raw logits, but BCELoss expects probabilities in [0, 1]; use BCEWithLogitsLoss.
      auto loss = criterion(logits, batch.target);
      loss.backward();
      optimizer.step();
      running_loss += loss.item<double>();
      ++num_batches;
    }
    log_epoch("binary", epoch, running_loss / num_batches);
  }
}

void finetune_binary(BinaryClassifier& model, const SyntheticDataset& dataset,
                     int64_t steps, double lr) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(lr));
  // Correct: BCEWithLogitsLoss applies the sigmoid itself.
  torch::nn::BCEWithLogitsLoss criterion;
  const auto& inputs = dataset.features();
  const auto& targets = dataset.targets();

  model->train();
  for (int64_t step = 0; step < steps; ++step) {
    auto loss = criterion(model->forward(inputs), targets);
    loss.backward();
    // BUG(torch-missing-zero-grad): zero_grad() runs between backward() and step(), so it wipes the gradients that were just computed and step() never sees them.
    optimizer.zero_grad();
    optimizer.step();
  }
}

void train_probability_model(ProbabilityClassifier& model,
                             SyntheticDataset dataset, const TrainConfig& config) {
  auto loader = make_loader(std::move(dataset), config.batch_size);
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(config.lr));
  // Correct: ProbabilityClassifier::forward() ends in torch::sigmoid.
  torch::nn::BCELoss criterion;

  auto step = [&](const torch::Tensor& inputs, const torch::Tensor& targets) {
    optimizer.zero_grad();
    auto probs = model->forward(inputs);
    auto loss = criterion(probs, targets);
    loss.backward();
    optimizer.step();
    return loss.item<double>();
  };

  model->train();
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    double running_loss = 0.0;
    int64_t num_batches = 0;
    for (auto& batch : *loader) {
      running_loss += step(batch.data, batch.target);
      ++num_batches;
    }
    log_epoch("probability", epoch, running_loss / num_batches);
  }
}

// ---------------------------------------------------------------------------
// Training with a validation pass after every epoch.

double train_with_validation(MLP& model, SyntheticDataset train_set,
                             SyntheticDataset val_set, const TrainConfig& config) {
  auto loader = make_loader(std::move(train_set), config.batch_size);
  auto val_loader = make_loader(std::move(val_set), config.batch_size);
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(config.lr));
  double val_loss = 0.0;
  model->train();
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    torch::Tensor train_loss = torch::zeros({});
    for (auto& batch : *loader) {
      optimizer.zero_grad();
      // BUG(torch-missing-eval): the validation below switches the model to eval mode and nothing switches it back, so from the second epoch on it trains with dropout and noise off; call model->train() at the start of each epoch.
      auto logits = model->forward(batch.data);
      auto loss = torch::nn::functional::cross_entropy(logits, batch.target);
      loss.backward();
      optimizer.step();
      // BUG(torch-retained-loss-graph): the loss is added to a tensor that lives for the whole epoch, so the sum keeps the autograd graph of every batch (activations included) alive and memory grows with each batch; add loss.detach() or accumulate loss.item<double>() into a double.
      train_loss += loss;
    }
    log_epoch("training", epoch, train_loss.item<double>());
    model->eval();
    torch::NoGradGuard no_grad;
    val_loss = 0.0;
    for (auto& batch : *val_loader) {
      val_loss += torch::nn::functional::cross_entropy(model->forward(batch.data), batch.target)
                      .item<double>();
    }
    log_epoch("validation", epoch, val_loss);
  }
  return val_loss;
}

// ---------------------------------------------------------------------------
// Training with a confidence penalty: confident (low-entropy) predictions
// cost extra, which keeps the classifier from overfitting the training set.

void train_with_confidence_penalty(torch::nn::Sequential& model,
                                   SyntheticDataset dataset,
                                   const TrainConfig& config) {
  auto loader = make_loader(std::move(dataset), config.batch_size);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(config.lr).momentum(0.9));
  model->train();
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    double running_loss = 0.0;
    for (auto& batch : *loader) {
      optimizer.zero_grad();
      auto log_probs = torch::log_softmax(model->forward(batch.data), 1);
      // BUG(torch-graph-break): the entropy is taken out of the graph with item<double>() and put back with torch::tensor, so the penalty adds a constant to the loss and sends no gradient: the model is trained without it; keep the entropy a tensor.
      double entropy = -(log_probs.exp() * log_probs).sum(1).mean().item<double>();
      auto loss = torch::nll_loss(log_probs, batch.target) - 0.1 * torch::tensor(entropy);
      loss.backward();
      optimizer.step();
      running_loss += loss.item<double>();
    }
    log_epoch("confidence-penalty", epoch, running_loss);
  }
}

// ---------------------------------------------------------------------------
// Training that keeps an exponential moving average of the weights, which is
// what gets evaluated.

torch::nn::Sequential train_with_weight_average(torch::nn::Sequential& model,
                                                SyntheticDataset dataset,
                                                const TrainConfig& config) {
  auto loader = make_loader(std::move(dataset), config.batch_size);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(config.lr));
  const double decay = 0.99;
  // BUG(torch-aliased-module-copy): copying a Sequential copies its handle, not the network, so `averaged` is `model` itself: the update below averages every weight with itself and the "averaged" model is the last noisy iterate; make it a separate network with std::dynamic_pointer_cast<torch::nn::SequentialImpl>(model->clone()).
  torch::nn::Sequential averaged = model;
  model->train();
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    for (auto& batch : *loader) {
      optimizer.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(model->forward(batch.data),
                                                       batch.target);
      loss.backward();
      optimizer.step();
      torch::NoGradGuard no_grad;
      auto average = averaged->parameters();
      auto current = model->parameters();
      for (size_t i = 0; i < average.size(); ++i)
        average[i].mul_(decay).add_(current[i], 1 - decay);
    }
  }
  return averaged;
}
