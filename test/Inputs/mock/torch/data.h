// Mock of LibTorch 1.13 <torch/data.h>.
#pragma once

#include <torch/data/dataloader.h>
#include <torch/data/datasets.h>
#include <torch/data/example.h>
#include <torch/data/samplers.h>
#include <torch/data/transforms.h>

// Some "exports".
namespace torch {
namespace data {
using datasets::BatchDataset;
using datasets::Dataset;
} // namespace data
} // namespace torch
