// Training routines for the example models.
#pragma once

#include <torch/torch.h>

#include <cstddef>
#include <cstdint>

#include "dataset.hpp"
#include "model.hpp"

struct TrainConfig {
  int64_t epochs = 3;
  size_t batch_size = 64;
  double lr = 1e-2;
  int64_t accumulation_steps = 4;
};

// Trains an MLP with Adam; one optimizer step per call to train_step().
class Trainer {
 public:
  Trainer(MLP model, double lr);

  float train_step(const torch::Tensor& inputs, const torch::Tensor& targets);
  float train_epoch(SyntheticDataset dataset, size_t batch_size);

 private:
  MLP model_;
  torch::optim::Adam optimizer_;
  torch::nn::CrossEntropyLoss criterion_;
};

float train_step(torch::nn::Sequential& model, torch::optim::Optimizer& optimizer,
                 const torch::Tensor& inputs, const torch::Tensor& targets);

void train_classifier(torch::nn::Sequential& model, SyntheticDataset dataset,
                      const TrainConfig& config);
void train_with_helper(torch::nn::Sequential& model, SyntheticDataset dataset,
                       const TrainConfig& config);
void train_probability_head(SyntheticDataset dataset, int64_t in_features,
                            int64_t num_classes, const TrainConfig& config);
void train_with_accumulation(MLP& model, SyntheticDataset dataset,
                             const TrainConfig& config);
void train_manual_sgd(MLP& model, SyntheticDataset dataset,
                      const TrainConfig& config);
// Trains with Adam and validates after every epoch; returns the last
// validation loss.
double train_with_validation(MLP& model, SyntheticDataset train_set,
                             SyntheticDataset val_set, const TrainConfig& config);

// Trains with a penalty on confident predictions.
void train_with_confidence_penalty(torch::nn::Sequential& model,
                                   SyntheticDataset dataset,
                                   const TrainConfig& config);

// Trains with SGD and returns an exponential moving average of the weights.
torch::nn::Sequential train_with_weight_average(torch::nn::Sequential& model,
                                                SyntheticDataset dataset,
                                                const TrainConfig& config);

void train_binary(BinaryClassifier& model, SyntheticDataset dataset,
                  const TrainConfig& config);
void finetune_binary(BinaryClassifier& model, const SyntheticDataset& dataset,
                     int64_t steps, double lr);
void train_probability_model(ProbabilityClassifier& model,
                             SyntheticDataset dataset, const TrainConfig& config);

// Clamps every parameter of `module` to [-limit, limit].
void clip_weights(torch::nn::Module& module, double limit);

// Logistic-regression probe fitted with hand-written gradient descent.
torch::Tensor fit_linear_probe(const torch::Tensor& features,
                               const torch::Tensor& targets, int64_t steps,
                               double lr);

// Small MLP that regresses one value per row from its 16 column statistics;
// returns the last training loss.
double fit_statistics_regressor(const torch::Tensor& statistics,
                                const torch::Tensor& values, int64_t steps,
                                double lr);
