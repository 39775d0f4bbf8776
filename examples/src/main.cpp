// Trains a handful of small models on synthetic data.
//
// NOTE: this program deliberately contains bugs for torch-tidy to find (each is
// marked with a comment naming the check); several make it fail or train badly.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>

#include "dataset.hpp"
#include "evaluate.hpp"
#include "model.hpp"
#include "train.hpp"

namespace {

constexpr int64_t kFeatures = 20;
constexpr int64_t kClasses = 4;
constexpr int64_t kHidden = 64;
constexpr size_t kEvalBatch = 256;

void report(const char* name, const EvalResult& result) {
  std::cout << name << ": loss " << result.loss << ", accuracy "
            << result.accuracy << '\n';
}

}  // namespace

int main() {
  torch::manual_seed(0);
  TrainConfig config;

  auto data = SyntheticDataset::classification(2560, kFeatures, kClasses, 7);
  auto [train_set, test_set] = data.split(2048);

  auto classifier = make_classifier(kFeatures, kHidden, kClasses);
  train_classifier(classifier, train_set, config);
  report("sequential", evaluate(classifier, test_set, kEvalBatch));

  MLP mlp(kFeatures, kHidden, kClasses);
  Trainer trainer(mlp, config.lr);
  for (int64_t epoch = 1; epoch <= config.epochs; ++epoch) {
    std::cout << "[trainer] epoch " << epoch << " loss "
              << trainer.train_epoch(train_set, config.batch_size) << '\n';
  }
  clip_weights(*mlp, 1.0);
  train_with_accumulation(mlp, train_set, config);
  report("mlp", evaluate(torch::nn::Sequential(mlp), test_set, kEvalBatch));

  MLP sgd_mlp(kFeatures, kHidden, kClasses);
  train_manual_sgd(sgd_mlp, train_set, config);
  report("manual-sgd", evaluate(torch::nn::Sequential(sgd_mlp), test_set, kEvalBatch));

  MLP validated(kFeatures, kHidden, kClasses);
  std::cout << "[validation] final loss "
            << train_with_validation(validated, train_set, test_set, config) << '\n';

  auto residual = make_residual_classifier(kFeatures, kHidden, kClasses);
  train_with_helper(residual, train_set, config);
  report("residual", evaluate(residual, test_set, kEvalBatch));
  train_probability_head(train_set, kFeatures, kClasses, config);

  auto penalised = make_classifier(kFeatures, kHidden, kClasses);
  train_with_confidence_penalty(penalised, train_set, config);
  report("confidence-penalty", evaluate(penalised, test_set, kEvalBatch));

  auto averaged_base = make_classifier(kFeatures, kHidden, kClasses);
  auto averaged = train_with_weight_average(averaged_base, train_set, config);
  report("weight-average", evaluate(averaged, test_set, kEvalBatch));

  auto binary_data = SyntheticDataset::binary(2560, kFeatures, 11);
  auto [binary_train, binary_test] = binary_data.split(2048);

  BinaryClassifier binary(kFeatures);
  train_binary(binary, binary_train, config);
  finetune_binary(binary, binary_train, /*steps=*/50, /*lr=*/1e-2);
  report("binary", evaluate_binary(binary, binary_test, kEvalBatch));

  ProbabilityClassifier probability(kFeatures);
  train_probability_model(probability, binary_train, config);

  auto probe = fit_linear_probe(binary_train.features(), binary_train.targets(),
                                /*steps=*/200, /*lr=*/0.1);
  std::cout << "linear probe weight norm " << probe.norm().item<double>() << '\n';
  return 0;
}
