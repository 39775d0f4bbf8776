#include "dataset.hpp"

#include <utility>

namespace {

// Standardise each feature column to zero mean and unit variance.
void standardize_(torch::Tensor& features) {
  // BUG(torch-discarded-tensor-result): contiguous() returns a contiguous copy and leaves `features` as it was, so the column statistics below still read the strided tensor; assign it back (features = features.contiguous()).
  features.contiguous();
  auto mean = features.mean(/*dim=*/0, /*keepdim=*/true);
  auto std = features.std(/*dim=*/0, /*unbiased=*/true, /*keepdim=*/true);
  // Plain data tensor (no autograd), so in-place ops are fine here.
  features.sub_(mean).div_(std + 1e-6);
}

}  // namespace

SyntheticDataset::SyntheticDataset(torch::Tensor features,
                                   torch::Tensor targets)
    : features_(std::move(features)), targets_(std::move(targets)) {}

SyntheticDataset SyntheticDataset::classification(int64_t num_samples,
                                                  int64_t num_features,
                                                  int64_t num_classes,
                                                  uint64_t seed) {
  torch::manual_seed(seed);
  auto features = torch::randn({num_samples, num_features});
  auto teacher = torch::randn({num_features, num_classes});
  auto logits = features.matmul(teacher) + 0.5 * torch::randn({num_samples, num_classes});
  auto labels = logits.argmax(/*dim=*/1);
  standardize_(features);
  return SyntheticDataset(features, labels);
}

SyntheticDataset SyntheticDataset::binary(int64_t num_samples,
                                          int64_t num_features,
                                          uint64_t seed) {
  torch::manual_seed(seed);
  auto features = torch::randn({num_samples, num_features});
  auto teacher = torch::randn({num_features, 1});
  auto score = features.matmul(teacher) + 0.25 * torch::randn({num_samples, 1});
  auto labels = (score > 0).to(torch::kFloat32);
  standardize_(features);
  return SyntheticDataset(features, labels);
}

SyntheticDataset SyntheticDataset::from_rows(
    const std::vector<std::vector<double>>& rows,
    const std::vector<int64_t>& labels) {
  std::vector<torch::Tensor> features;
  for (const auto& row : rows) {
    // The model trains in single precision.
    std::vector<float> values(row.begin(), row.end());
    // BUG(torch-from-blob-lifetime): from_blob does not copy `values`, which is freed at the end of each iteration, so torch::stack below reads freed memory; clone the row (torch::from_blob(...).clone()).
    features.push_back(torch::from_blob(values.data(), {static_cast<int64_t>(values.size())}));
  }
  // `labels` outlives the call; the clone gives the dataset its own copy.
  auto targets = torch::from_blob(const_cast<int64_t*>(labels.data()),
                                  {static_cast<int64_t>(labels.size())},
                                  torch::kLong)
                     .clone();
  auto stacked = torch::stack(features);
  standardize_(stacked);
  return SyntheticDataset(stacked, targets);
}

std::pair<SyntheticDataset, SyntheticDataset> SyntheticDataset::split(
    int64_t num_train) const {
  const int64_t rest = features_.size(0) - num_train;
  return {SyntheticDataset(features_.narrow(0, 0, num_train),
                           targets_.narrow(0, 0, num_train)),
          SyntheticDataset(features_.narrow(0, num_train, rest),
                           targets_.narrow(0, num_train, rest))};
}

torch::data::Example<> SyntheticDataset::get(size_t index) {
  const auto i = static_cast<int64_t>(index);
  return {features_[i], targets_[i]};
}

torch::optional<size_t> SyntheticDataset::size() const {
  return static_cast<size_t>(features_.size(0));
}
