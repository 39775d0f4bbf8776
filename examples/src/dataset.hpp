// In-memory synthetic datasets, so the example needs no downloads.
#pragma once

#include <torch/torch.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

// Samples are drawn from a Gaussian and labelled by a random linear "teacher"
// model. For multi-class data the target is a class index (kLong scalar); for
// binary data it is a float tensor of shape [1] holding 0 or 1, as expected by
// BCELoss / BCEWithLogitsLoss.
class SyntheticDataset
    : public torch::data::datasets::Dataset<SyntheticDataset> {
 public:
  static SyntheticDataset classification(int64_t num_samples,
                                         int64_t num_features,
                                         int64_t num_classes, uint64_t seed);
  static SyntheticDataset binary(int64_t num_samples, int64_t num_features,
                                 uint64_t seed);
  // A dataset from rows read elsewhere (a CSV file, a sensor log) and their
  // class labels.
  static SyntheticDataset from_rows(const std::vector<std::vector<double>>& rows,
                                    const std::vector<int64_t>& labels);

  // Splits off the first `num_train` samples as a training set; the rest
  // becomes the held-out set.
  std::pair<SyntheticDataset, SyntheticDataset> split(int64_t num_train) const;

  torch::data::Example<> get(size_t index) override;
  torch::optional<size_t> size() const override;

  const torch::Tensor& features() const { return features_; }
  const torch::Tensor& targets() const { return targets_; }
  int64_t num_features() const { return features_.size(1); }

 private:
  SyntheticDataset(torch::Tensor features, torch::Tensor targets);

  torch::Tensor features_;
  torch::Tensor targets_;
};
