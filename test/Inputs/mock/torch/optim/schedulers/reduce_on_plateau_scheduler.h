// Mock of LibTorch 2.x <torch/optim/schedulers/reduce_on_plateau_scheduler.h>
// (the 1.13 headers have no such class).
#pragma once

#include <torch/optim/optimizer.h>
#include <torch/optim/schedulers/lr_scheduler.h>

#include <vector>

namespace torch {
namespace optim {

class TORCH_API ReduceLROnPlateauScheduler {
 public:
  enum SchedulerMode { min, max };
  enum ThresholdMode { rel, abs };
  ReduceLROnPlateauScheduler(
      Optimizer& optimizer,
      SchedulerMode mode = min,
      float factor = 0.1,
      int patience = 10,
      double threshold = 1e-4,
      ThresholdMode threshold_mode = rel,
      int cooldown = 0,
      const std::vector<float>& min_lr = std::vector<float>(),
      double eps = 1e-8,
      bool verbose = false);

  virtual ~ReduceLROnPlateauScheduler() = default;

  void step(float metric);

 private:
  void reset();
  void reduce_lr(int epoch);
  bool in_cooldown() const;
  bool is_better(float a);

  Optimizer& optimizer;
  float factor;
  int patience;
  double eps;
  float best{};
  bool verbose;
  int last_epoch{};
  int num_bad_epochs{};
};
} // namespace optim
} // namespace torch
