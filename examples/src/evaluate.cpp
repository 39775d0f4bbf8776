#include "evaluate.hpp"

#include <cstdint>
#include <utility>

EvalResult evaluate(torch::nn::Sequential model, SyntheticDataset dataset,
                    size_t batch_size) {
  const auto num_samples = static_cast<double>(*dataset.size());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(batch_size));

  torch::NoGradGuard no_grad;
  model->eval();
  double total_loss = 0.0;
  int64_t correct = 0;
  for (const auto& batch : *loader) {
    auto logits = model->forward(batch.data);
    total_loss += torch::nn::functional::cross_entropy(
                      logits, batch.target,
                      torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                      .item<double>();
    correct += logits.argmax(1).eq(batch.target).sum().item<int64_t>();
  }
  return {total_loss / num_samples, correct / num_samples};
}

EvalResult evaluate_binary(BinaryClassifier& model, SyntheticDataset dataset,
                           size_t batch_size) {
  const auto num_samples = static_cast<double>(*dataset.size());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(batch_size));
  torch::nn::BCEWithLogitsLoss criterion(
      torch::nn::BCEWithLogitsLossOptions().reduction(torch::kSum));

  // BUG(torch-unnamed-grad-guard): the guard is a temporary that is destroyed at the end of this statement, so the evaluation below records an autograd graph for every batch; name it (torch::NoGradGuard no_grad;).
  torch::NoGradGuard();
  model->eval();
  double total_loss = 0.0;
  int64_t correct = 0;
  for (const auto& batch : *loader) {
    auto logits = model->forward(batch.data);
    // Correct: the model returns logits and the loss expects logits.
    total_loss += criterion(logits, batch.target).item<double>();
    auto predictions = (torch::sigmoid(logits) > 0.5).to(torch::kFloat32);
    correct += predictions.eq(batch.target).sum().item<int64_t>();
  }
  return {total_loss / num_samples, correct / num_samples};
}
