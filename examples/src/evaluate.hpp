// Evaluation helpers.
#pragma once

#include <torch/torch.h>

#include <cstddef>

#include "dataset.hpp"
#include "model.hpp"

struct EvalResult {
  double loss = 0.0;
  double accuracy = 0.0;
};

// Multi-class evaluation; `model` must map features to class logits.
EvalResult evaluate(torch::nn::Sequential model, SyntheticDataset dataset,
                    size_t batch_size);

// Binary evaluation for a classifier that outputs logits.
EvalResult evaluate_binary(BinaryClassifier& model, SyntheticDataset dataset,
                           size_t batch_size);
