// Mock of LibTorch 1.13 <torch/data/dataloader.h>, <torch/data/iterator.h>,
// <torch/data/dataloader_options.h> and <torch/data/dataloader/
// {base,stateless}.h>.
#pragma once

#include <torch/arg.h>
#include <torch/data/datasets.h>
#include <torch/data/samplers.h>
#include <torch/types.h>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace torch {
namespace data {

// ---- dataloader_options.h ----
/// Options to configure a `DataLoader`.
struct DataLoaderOptions {
  DataLoaderOptions() = default;
  /* implicit */ DataLoaderOptions(size_t batch_size)
      : batch_size_(batch_size) {}

  /// The size of each batch to fetch.
  TORCH_ARG(size_t, batch_size) = 1;

  /// The number of worker threads to launch. If zero, the main thread will
  /// synchronously perform the data loading.
  TORCH_ARG(size_t, workers) = 0;

  /// The maximum number of jobs to enqueue for fetching by worker threads.
  TORCH_ARG(optional<size_t>, max_jobs);

  /// An optional limit on the time to wait for the next batch.
  TORCH_ARG(optional<std::chrono::milliseconds>, timeout);

  /// Whether to enforce ordering of batches when multiple are loaded
  /// asynchronously by worker threads.
  TORCH_ARG(bool, enforce_ordering) = true;

  /// Whether to omit the last batch if it contains less than `batch_size`
  /// examples.
  TORCH_ARG(bool, drop_last) = false;
};

/// Like `DataLoaderOptions`, but without any unconfigured state.
struct FullDataLoaderOptions {
  explicit FullDataLoaderOptions(DataLoaderOptions options);

  size_t batch_size;
  size_t workers;
  size_t max_jobs;
  optional<std::chrono::milliseconds> timeout;
  bool enforce_ordering;
  bool drop_last;
};

// ---- iterator.h ----
namespace detail {
template <typename Batch>
struct IteratorImpl {
  virtual ~IteratorImpl() = default;
  virtual void next() = 0;
  virtual Batch& get() = 0;
};
} // namespace detail

template <typename Batch>
class Iterator {
 public:
  // Type aliases to make the class recognized as a proper iterator.
  using difference_type = std::ptrdiff_t;
  using value_type = Batch;
  using pointer = Batch*;
  using reference = Batch&;
  using iterator_category = std::input_iterator_tag;

  explicit Iterator(std::unique_ptr<detail::IteratorImpl<Batch>> impl);

  /// Increments the iterator.
  Iterator& operator++();

  /// Returns the current batch.
  Batch& operator*();

  /// Returns a pointer to the current batch.
  Batch* operator->();

  /// Compares two iterators for equality.
  bool operator==(const Iterator& other) const;

  /// Compares two iterators for inequality.
  bool operator!=(const Iterator& other) const;

 private:
  /// Points either to a `ValidIterator` or to a `SentinelIterator`.
  std::shared_ptr<detail::IteratorImpl<Batch>> impl_;
};

// ---- dataloader/base.h ----
template <typename Dataset, typename Batch, typename BatchRequest>
class DataLoaderBase {
 public:
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;

  /// Constructs a new DataLoader from a `dataset` to sample from, `options`
  /// to configure the DataLoader with, and a `sampler` that specifies the
  /// sampling strategy.
  DataLoaderBase(
      DataLoaderOptions options,
      std::unique_ptr<Dataset> main_thread_dataset = nullptr);

  virtual ~DataLoaderBase();

  /// Returns an iterator into the DataLoader.
  Iterator<Batch> begin();

  /// Returns a special "sentinel" iterator that compares equal with a
  /// non-sentinel iterator once the DataLoader is exhausted.
  Iterator<Batch> end();

  /// Joins the DataLoader's worker threads and drains internal queues.
  void join();

  /// Returns the options with which the DataLoader was configured.
  const FullDataLoaderOptions& options() const noexcept;

 protected:
  virtual optional<BatchRequestType> get_batch_request() = 0;

  virtual void reset();

  /// The options the DataLoader was configured with.
  const FullDataLoaderOptions options_;

  // Real: also the worker threads, the data shuttle and
  // `std::unique_ptr<Dataset> main_thread_dataset_` (not modelled).
};

// ---- dataloader/stateless.h ----
/// A dataloader for stateless datasets.
template <typename Dataset, typename Sampler>
class StatelessDataLoader : public DataLoaderBase<
                                Dataset,
                                typename Dataset::BatchType,
                                typename Sampler::BatchRequestType> {
 public:
  using super = DataLoaderBase<
      Dataset,
      typename Dataset::BatchType,
      typename Sampler::BatchRequestType>;
  using typename super::BatchRequestType;

  /// Constructs the `StatelessDataLoader` from a `dataset`, a `sampler` and
  /// some `options`.
  StatelessDataLoader(
      Dataset dataset,
      Sampler sampler,
      DataLoaderOptions options);

 private:
  /// Resets the internal state of the dataloader and the sampler.
  void reset() override;

  /// Queries the sampler for the next batch request (possibly progressing its
  /// internal state).
  optional<BatchRequestType> get_batch_request() override;

  /// The `Sampler` used to produce batch requests.
  Sampler sampler_;
};

// ---- dataloader.h ----
/// Creates a `DataLoader` instance for a stateless `dataset`, a `sampler` and
/// some `options`.
template <typename Dataset, typename Sampler>
torch::disable_if_t<
    Dataset::is_stateful,
    std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset, Sampler sampler, DataLoaderOptions options);

/// Creates a `DataLoader` instance for a stateless `dataset` and some
/// `options`. A sampler (by default a `RandomSampler`) will be constructed
/// from the size of the dataset.
template <typename Sampler = samplers::RandomSampler, typename Dataset>
torch::disable_if_t<
    Dataset::is_stateful || !std::is_constructible<Sampler, size_t>::value,
    std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(
    Dataset dataset,
    DataLoaderOptions options = DataLoaderOptions());

} // namespace data
} // namespace torch
