// Mock of LibTorch 1.13 <torch/nn/modules.h>: module classes (subset) of
// <torch/nn/modules/*.h> and the containers of
// <torch/nn/modules/container/*.h>, with the real class hierarchy
// (XImpl : Cloneable<XImpl> [via the real intermediate templates], and
// TORCH_MODULE(X) holders).
#pragma once

#include <torch/nn/cloneable.h>
#include <torch/nn/functional.h>
#include <torch/nn/module.h>
#include <torch/nn/options.h>
#include <torch/nn/pimpl.h>
#include <torch/ordered_dict.h>
#include <torch/types.h>

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace torch {
namespace nn {

// ---- <torch/nn/modules/container/any_value.h> ----
class AnyValue {
 public:
  AnyValue(AnyValue&&) = default;
  AnyValue& operator=(AnyValue&&) = default;
  AnyValue(const AnyValue& other);
  AnyValue& operator=(const AnyValue& other);

  template <typename T>
  explicit AnyValue(T&& value) {}

  template <typename T>
  T* try_get();
  template <typename T>
  T get();
  const std::type_info& type_info() const noexcept;
};

template <typename ModuleType, typename... ArgumentTypes>
struct AnyModuleHolder;

// ---- <torch/nn/modules/common.h> ----
#define FORWARD_HAS_DEFAULT_ARGS(...)                                    \
  template <typename ModuleType, typename... ArgumentTypes>              \
  friend struct torch::nn::AnyModuleHolder;                              \
  bool _forward_has_default_args() override;                              \
  unsigned int _forward_num_required_args() override;                    \
  std::vector<torch::nn::AnyValue> _forward_populate_default_args(       \
      std::vector<torch::nn::AnyValue>&& arguments) override;

// ---- <torch/nn/modules/container/any.h> ----
class AnyModule {
 public:
  AnyModule() = default;
  template <typename ModuleType>
  explicit AnyModule(std::shared_ptr<ModuleType> module);
  template <
      typename ModuleType,
      typename = torch::detail::enable_if_module_t<ModuleType>>
  explicit AnyModule(ModuleType&& module);
  template <typename ModuleType>
  explicit AnyModule(const ModuleHolder<ModuleType>& module_holder);
  AnyModule(AnyModule&&) = default;
  AnyModule& operator=(AnyModule&&) = default;
  AnyModule(const AnyModule& other);
  AnyModule& operator=(const AnyModule& other);

  AnyModule clone(optional<Device> device = nullopt) const;

  template <typename ModuleType>
  AnyModule& operator=(std::shared_ptr<ModuleType> module);

  template <typename... ArgumentTypes>
  AnyValue any_forward(ArgumentTypes&&... arguments);

  template <typename ReturnType = torch::Tensor, typename... ArgumentTypes>
  ReturnType forward(ArgumentTypes&&... arguments);

  template <typename T, typename = torch::detail::enable_if_module_t<T>>
  T& get();
  template <typename T, typename = torch::detail::enable_if_module_t<T>>
  const T& get() const;
  template <typename T, typename ContainedType = typename T::ContainedType>
  T get() const;

  std::shared_ptr<Module> ptr() const;
  template <typename T, typename = torch::detail::enable_if_module_t<T>>
  std::shared_ptr<T> ptr() const;

  const std::type_info& type_info() const;
  bool is_empty() const noexcept;
};

template <typename ModuleType>
AnyModule::AnyModule(std::shared_ptr<ModuleType> module) {
  static_assert(
      torch::detail::is_module<ModuleType>::value,
      "Can only store object derived from nn::Module into AnyModule");
  static_assert(
      torch::detail::has_forward<ModuleType>::value,
      "Can only store module with a forward() method that has a non-templatized"
      " argument type and return type into AnyModule (e.g. we cannot store nn::Sequential"
      "into AnyModule, because its forward() method's argument type and return type are templatized.");
}

template <typename ModuleType, typename>
AnyModule::AnyModule(ModuleType&& module) {
  // Real: AnyModule(std::make_shared<ModuleType>(std::forward<ModuleType>(module)))
  static_cast<void>(sizeof(new ModuleType(std::forward<ModuleType>(module))));
  static_assert(
      torch::detail::has_forward<ModuleType>::value,
      "Can only store module with a forward() method that has a non-templatized"
      " argument type and return type into AnyModule");
}

template <typename ModuleType>
AnyModule::AnyModule(const ModuleHolder<ModuleType>& module_holder) {
  static_assert(
      torch::detail::has_forward<ModuleType>::value,
      "Can only store module with a forward() method that has a non-templatized"
      " argument type and return type into AnyModule");
}

// ---- <torch/nn/modules/container/named_any.h> ----
class NamedAnyModule {
 public:
  template <typename ModuleType>
  NamedAnyModule(std::string name, std::shared_ptr<ModuleType> module_ptr)
      : NamedAnyModule(std::move(name), AnyModule(std::move(module_ptr))) {}
  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  NamedAnyModule(std::string name, M&& module)
      : NamedAnyModule(std::move(name), AnyModule(std::forward<M>(module))) {}
  template <typename M>
  NamedAnyModule(std::string name, const ModuleHolder<M>& module_holder)
      : NamedAnyModule(std::move(name), AnyModule(module_holder)) {}
  NamedAnyModule(std::string name, AnyModule any_module);

  const std::string& name() const noexcept;
  AnyModule& module() noexcept;
  const AnyModule& module() const noexcept;

 private:
  std::string name_;
  AnyModule module_;
};

// ---- <torch/nn/modules/container/sequential.h> ----
class SequentialImpl : public Cloneable<SequentialImpl> {
 public:
  using Iterator = std::vector<AnyModule>::iterator;
  using ConstIterator = std::vector<AnyModule>::const_iterator;

  SequentialImpl() = default;

  /// Constructs the `Sequential` from a variadic list of modules.
  template <typename... Modules>
  explicit SequentialImpl(Modules&&... modules) {
    push_back(std::forward<Modules>(modules)...);
  }

  /// Constructs the `Sequential` from an `OrderedDict` of named `AnyModule`s.
  explicit SequentialImpl(
      torch::OrderedDict<std::string, AnyModule>&& ordered_dict);

  /// Constructs the `Sequential` from a braced-init-list of named `AnyModule`s.
  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules);

  std::shared_ptr<Module> clone(
      const optional<Device>& device = nullopt) const override;

  void reset() override {}

  void pretty_print(std::ostream& stream) const override;

  /// Feeds `inputs` to the first module and then chains outputs to inputs.
  template <typename ReturnType = Tensor, typename... InputTypes>
  ReturnType forward(InputTypes&&... inputs);

  template <typename ModuleType>
  void push_back(std::shared_ptr<ModuleType> module_ptr) {
    push_back(std::string(), std::move(module_ptr));
  }

  template <typename ModuleType>
  void push_back(std::string name, std::shared_ptr<ModuleType> module_ptr) {
    push_back(std::move(name), AnyModule(module_ptr));
  }

  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  void push_back(M&& module) {
    push_back(std::string(), std::forward<M>(module));
  }

  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  void push_back(std::string name, M&& module) {
    push_back(std::move(name), AnyModule(std::forward<M>(module)));
  }

  template <typename M>
  void push_back(const ModuleHolder<M>& module_holder) {
    push_back(std::string(), module_holder);
  }

  template <typename M>
  void push_back(std::string name, const ModuleHolder<M>& module_holder) {
    push_back(std::move(name), AnyModule(module_holder));
  }

  template <typename Container>
  void extend(const Container& container) {
    for (const auto& module : container) {
      push_back(module);
    }
  }

  void push_back(AnyModule any_module);

  void push_back(std::string name, AnyModule any_module);

  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;

  template <typename T>
  T& at(size_t index) {
    static_assert(
        torch::detail::is_module<T>::value,
        "Can only call Sequential::at with an nn::Module type");
    return modules_[index].get<T>();
  }

  template <typename T>
  const T& at(size_t index) const {
    static_assert(
        torch::detail::is_module<T>::value,
        "Can only call Sequential::at with an nn::Module type");
    return modules_[index].get<T>();
  }

  std::shared_ptr<Module> ptr(size_t index) const;

  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const {
    static_assert(
        torch::detail::is_module<T>::value,
        "Can only call Sequential::ptr with an nn::Module type");
    return modules_[index].ptr<T>();
  }

  std::shared_ptr<Module> operator[](size_t index) const;

  size_t size() const noexcept;
  bool is_empty() const noexcept;

 private:
  template <
      typename First,
      typename Second,
      typename... Rest,
      typename = torch::disable_if_t<
          std::is_same<First, std::string>::value ||
          std::is_same<
              typename std::decay<First>::type,
              std::decay<const char (&)[]>::type>::value>>
  void push_back(First&& first, Second&& second, Rest&&... rest) {
    push_back(std::forward<First>(first));
    push_back(std::forward<Second>(second), std::forward<Rest>(rest)...);
  }

  void push_back() {}

  std::vector<AnyModule> modules_;
};

/// A `ModuleHolder` subclass for `SequentialImpl`.
class Sequential : public torch::nn::ModuleHolder<SequentialImpl> {
 public:
  using torch::nn::ModuleHolder<SequentialImpl>::ModuleHolder;

  Sequential();

  /// Constructs the `Sequential` from a braced-init-list of named `AnyModule`s.
  Sequential(std::initializer_list<NamedAnyModule> named_modules);
};

// ---- <torch/nn/modules/container/modulelist.h> ----
class ModuleListImpl : public Cloneable<ModuleListImpl> {
 public:
  using Iterator = std::vector<std::shared_ptr<Module>>::iterator;
  using ConstIterator = std::vector<std::shared_ptr<Module>>::const_iterator;

  ModuleListImpl() = default;

  /// Constructs the `ModuleList` from a variadic list of modules.
  template <typename... Modules>
  explicit ModuleListImpl(Modules&&... modules) {
    push_back_var(std::forward<Modules>(modules)...);
  }

  std::shared_ptr<Module> clone(
      const optional<Device>& device = nullopt) const override;

  void reset() override {}

  void pretty_print(std::ostream& stream) const override;

  void push_back(std::shared_ptr<Module> module);

  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  void push_back(M&& module) {
    // Real: push_back(std::make_shared<Type>(std::forward<M>(module)))
    using Type = typename std::remove_reference<M>::type;
    static_cast<void>(sizeof(new Type(std::forward<M>(module))));
  }

  template <typename M>
  void push_back(const ModuleHolder<M>& module_holder) {
    push_back(module_holder.ptr());
  }

  template <typename Container>
  void extend(const Container& container) {
    for (const auto& module : container) {
      push_back(module);
    }
  }

  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;

  template <typename T>
  T& at(size_t index);

  template <typename T>
  const T& at(size_t index) const;

  std::shared_ptr<Module> ptr(size_t index) const;

  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const;

  std::shared_ptr<Module> operator[](size_t index) const;

  size_t size() const noexcept;
  bool is_empty() const noexcept;

  void insert(size_t index, std::shared_ptr<Module> module);

  template <typename M>
  void insert(size_t index, const ModuleHolder<M>& module_holder) {
    insert(index, module_holder.ptr());
  }

  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  void insert(size_t index, M&& module);

 private:
  template <typename Head, typename... Tail>
  void push_back_var(Head&& head, Tail&&... tail) {
    push_back(std::forward<Head>(head));
    push_back_var(std::forward<Tail>(tail)...);
  }

  void push_back_var() {}

  std::vector<std::shared_ptr<Module>> modules_;
};

TORCH_MODULE(ModuleList);

// ---- <torch/nn/modules/container/moduledict.h> ----
class ModuleDictImpl : public Cloneable<ModuleDictImpl> {
 public:
  using Iterator =
      torch::OrderedDict<std::string, std::shared_ptr<Module>>::Iterator;
  using ConstIterator =
      torch::OrderedDict<std::string, std::shared_ptr<Module>>::ConstIterator;

  ModuleDictImpl() = default;

  explicit ModuleDictImpl(
      const std::vector<std::pair<std::string, std::shared_ptr<Module>>>&
          modules);

  explicit ModuleDictImpl(
      const torch::OrderedDict<std::string, std::shared_ptr<Module>>& modules);

  std::vector<std::pair<std::string, std::shared_ptr<Module>>> items() const;
  std::vector<std::string> keys() const;
  std::vector<std::shared_ptr<Module>> values() const;

  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;

  size_t size() const noexcept;
  bool empty() const noexcept;
  bool contains(const std::string& key) const noexcept;
  void clear();

  std::shared_ptr<Module> clone(
      const optional<Device>& device = nullopt) const override;

  void reset() override {}

  void pretty_print(std::ostream& stream) const override;

  std::shared_ptr<Module> operator[](const std::string& key) const;

  template <typename T>
  T& at(const std::string& key);
  template <typename T>
  const T& at(const std::string& key) const;

  std::shared_ptr<Module> pop(const std::string& key);

  void update(
      const std::vector<std::pair<std::string, std::shared_ptr<Module>>>&
          modules);

  template <typename Container>
  void update(const Container& container);

 private:
  torch::OrderedDict<std::string, std::shared_ptr<Module>> modules_;
};

TORCH_MODULE(ModuleDict);

// ---- <torch/nn/modules/container/functional.h> ----
class TORCH_API FunctionalImpl : public torch::nn::Cloneable<FunctionalImpl> {
 public:
  using Function = std::function<Tensor(Tensor)>;

  /// Constructs a `Functional` from a function object.
  explicit FunctionalImpl(Function function);

  template <
      typename SomeFunction,
      typename... Args,
      typename = torch::enable_if_t<(sizeof...(Args) > 0)>>
  explicit FunctionalImpl(SomeFunction original_function, Args&&... args);

  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor input);
  Tensor operator()(Tensor input);
  bool is_serializable() const override;

 private:
  Function function_;
};

TORCH_MODULE(Functional);

// ---- <torch/nn/modules/linear.h> ----
class TORCH_API LinearImpl : public Cloneable<LinearImpl> {
 public:
  LinearImpl(int64_t in_features, int64_t out_features);
  explicit LinearImpl(const LinearOptions& options_);

  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  /// Transforms the `input` tensor by multiplying with the `weight` and
  /// optionally adding the `bias`, if `with_bias` is true in the options.
  Tensor forward(const Tensor& input);

  /// The options used to configure this module.
  LinearOptions options;

  /// The learned weight.
  Tensor weight;

  /// The learned bias. If `bias` is false in the `options`, this tensor is
  /// undefined.
  Tensor bias;
};

TORCH_MODULE(Linear);

class TORCH_API FlattenImpl : public Cloneable<FlattenImpl> {
 public:
  explicit FlattenImpl(const FlattenOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  FlattenOptions options;
};

TORCH_MODULE(Flatten);

class TORCH_API IdentityImpl : public Cloneable<IdentityImpl> {
 public:
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
};

TORCH_MODULE(Identity);

// ---- <torch/nn/modules/conv.h> ----
template <size_t D, typename Derived>
class ConvNdImpl : public torch::nn::Cloneable<Derived> {
 public:
  explicit ConvNdImpl(detail::ConvNdOptions<D> options_)
      : options(std::move(options_)) {}

  void reset() override {}
  void reset_parameters() {}
  void pretty_print(std::ostream& stream) const override {}

  /// The options with which this `Module` was constructed.
  detail::ConvNdOptions<D> options;

  /// The learned kernel (or "weight").
  Tensor weight;

  /// The learned bias. Only defined if the `bias` option was true.
  Tensor bias;

 protected:
  std::vector<int64_t> _reversed_padding_repeated_twice;
};

class TORCH_API Conv1dImpl : public ConvNdImpl<1, Conv1dImpl> {
 public:
  Conv1dImpl(
      int64_t input_channels,
      int64_t output_channels,
      ExpandingArray<1> kernel_size);
  explicit Conv1dImpl(Conv1dOptions options_);
  Tensor forward(const Tensor& input);
};

TORCH_MODULE(Conv1d);

class TORCH_API Conv2dImpl : public ConvNdImpl<2, Conv2dImpl> {
 public:
  Conv2dImpl(
      int64_t input_channels,
      int64_t output_channels,
      ExpandingArray<2> kernel_size);
  explicit Conv2dImpl(Conv2dOptions options_);
  Tensor forward(const Tensor& input);

 protected:
  Tensor _conv_forward(const Tensor& input, const Tensor& weight);
};

TORCH_MODULE(Conv2d);

class TORCH_API Conv3dImpl : public ConvNdImpl<3, Conv3dImpl> {
 public:
  Conv3dImpl(
      int64_t input_channels,
      int64_t output_channels,
      ExpandingArray<3> kernel_size);
  explicit Conv3dImpl(Conv3dOptions options_);
  Tensor forward(const Tensor& input);
};

TORCH_MODULE(Conv3d);

// ---- <torch/nn/modules/batchnorm.h> ----
template <size_t D, typename Derived, typename DerivedOptions>
class NormImplBase : public torch::nn::Cloneable<Derived> {
 protected:
  virtual void _check_input_dim(const Tensor& input) = 0;

 public:
  NormImplBase(const DerivedOptions& options_) : options(options_) {}

  void reset() override {}
  void reset_running_stats() {}
  void reset_parameters() {}

  /// The options with which this module was constructed.
  DerivedOptions options;

  /// The learned weight.
  Tensor weight;

  /// The learned bias.
  Tensor bias;

  /// The running mean.
  Tensor running_mean;

  /// The running variance.
  Tensor running_var;

  /// The number of the forward call.
  Tensor num_batches_tracked;
};

template <size_t D, typename Derived>
class BatchNormImplBase : public NormImplBase<D, Derived, BatchNormOptions> {
 public:
  using NormImplBase<D, Derived, BatchNormOptions>::NormImplBase;

  Tensor forward(const Tensor& input) {
    return input;
  }

  void pretty_print(std::ostream& stream) const override {}
};

class TORCH_API BatchNorm1dImpl : public BatchNormImplBase<1, BatchNorm1dImpl> {
 protected:
  void _check_input_dim(const Tensor& input) override;

 public:
  using BatchNormImplBase<1, BatchNorm1dImpl>::BatchNormImplBase;
};

TORCH_MODULE(BatchNorm1d);

class TORCH_API BatchNorm2dImpl : public BatchNormImplBase<2, BatchNorm2dImpl> {
 protected:
  void _check_input_dim(const Tensor& input) override;

 public:
  using BatchNormImplBase<2, BatchNorm2dImpl>::BatchNormImplBase;
};

TORCH_MODULE(BatchNorm2d);

class TORCH_API BatchNorm3dImpl : public BatchNormImplBase<3, BatchNorm3dImpl> {
 protected:
  void _check_input_dim(const Tensor& input) override;

 public:
  using BatchNormImplBase<3, BatchNorm3dImpl>::BatchNormImplBase;
};

TORCH_MODULE(BatchNorm3d);

// ---- <torch/nn/modules/normalization.h> ----
class TORCH_API LayerNormImpl : public torch::nn::Cloneable<LayerNormImpl> {
 public:
  LayerNormImpl(std::vector<int64_t> normalized_shape)
      : LayerNormImpl(LayerNormOptions(normalized_shape)) {}
  explicit LayerNormImpl(const LayerNormOptions& options_);

  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  /// The options with which this module was constructed.
  LayerNormOptions options;
  Tensor weight;
  Tensor bias;
};

TORCH_MODULE(LayerNorm);

// ---- <torch/nn/modules/dropout.h> ----
namespace detail {

template <typename Derived>
class _DropoutNd : public torch::nn::Cloneable<Derived> {
 public:
  _DropoutNd(double p) : _DropoutNd(DropoutOptions().p(p)){};

  explicit _DropoutNd(const DropoutOptions& options_ = {}) : options(options_) {}

  void reset() override {}

  /// The options with which this `Module` was constructed.
  DropoutOptions options;
};

} // namespace detail

class TORCH_API DropoutImpl : public detail::_DropoutNd<DropoutImpl> {
 public:
  using detail::_DropoutNd<DropoutImpl>::_DropoutNd;

  Tensor forward(Tensor input);

  void pretty_print(std::ostream& stream) const override;
};

TORCH_MODULE(Dropout);

class TORCH_API Dropout2dImpl : public detail::_DropoutNd<Dropout2dImpl> {
 public:
  using detail::_DropoutNd<Dropout2dImpl>::_DropoutNd;

  Tensor forward(Tensor input);

  void pretty_print(std::ostream& stream) const override;
};

TORCH_MODULE(Dropout2d);

// ---- <torch/nn/modules/activation.h> ----
class TORCH_API SoftmaxImpl : public torch::nn::Cloneable<SoftmaxImpl> {
 public:
  explicit SoftmaxImpl(int64_t dim);
  explicit SoftmaxImpl(const SoftmaxOptions& options_);
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  SoftmaxOptions options;
};

TORCH_MODULE(Softmax);

class TORCH_API LogSoftmaxImpl : public torch::nn::Cloneable<LogSoftmaxImpl> {
 public:
  explicit LogSoftmaxImpl(int64_t dim);
  explicit LogSoftmaxImpl(const LogSoftmaxOptions& options_);
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  LogSoftmaxOptions options;
};

TORCH_MODULE(LogSoftmax);

class TORCH_API ReLUImpl : public torch::nn::Cloneable<ReLUImpl> {
 public:
  explicit ReLUImpl(const ReLUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  ReLUOptions options;
};

TORCH_MODULE(ReLU);

class TORCH_API SigmoidImpl : public torch::nn::Cloneable<SigmoidImpl> {
 public:
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
};

TORCH_MODULE(Sigmoid);

class TORCH_API TanhImpl : public torch::nn::Cloneable<TanhImpl> {
 public:
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
};

TORCH_MODULE(Tanh);

class TORCH_API GELUImpl : public torch::nn::Cloneable<GELUImpl> {
 public:
  explicit GELUImpl(GELUOptions options_ = {});
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  GELUOptions options;
};

TORCH_MODULE(GELU);

// ---- <torch/nn/modules/embedding.h> ----
class TORCH_API EmbeddingImpl : public torch::nn::Cloneable<EmbeddingImpl> {
 public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim);
  explicit EmbeddingImpl(const EmbeddingOptions& options_);

  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  /// Performs a lookup on the embedding table stored in `weight` using the
  /// `indices` supplied and returns the result.
  Tensor forward(const Tensor& indices);

  /// The `Options` used to configure this `Embedding` module.
  EmbeddingOptions options;

  /// The embedding table.
  Tensor weight;
};

/// A `ModuleHolder` subclass for `EmbeddingImpl`.
class Embedding : public torch::nn::ModuleHolder<EmbeddingImpl> {
 public:
  using torch::nn::ModuleHolder<EmbeddingImpl>::ModuleHolder;

  static Embedding from_pretrained(
      const torch::Tensor& embeddings,
      const EmbeddingFromPretrainedOptions& options = {});
};

// ---- <torch/nn/modules/rnn.h> ----
namespace detail {
template <typename Derived>
class TORCH_API RNNImplBase : public torch::nn::Cloneable<Derived> {
 public:
  explicit RNNImplBase(const RNNOptionsBase& options_);

  void reset() override;
  void reset_parameters();

  void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false)
      override;
  void to(torch::Dtype dtype, bool non_blocking = false) override;
  void to(torch::Device device, bool non_blocking = false) override;

  void pretty_print(std::ostream& stream) const override;

  void flatten_parameters();

  std::vector<Tensor> all_weights() const;

  /// The RNN's options.
  RNNOptionsBase options_base;
};
} // namespace detail

class TORCH_API LSTMImpl : public detail::RNNImplBase<LSTMImpl> {
 public:
  LSTMImpl(int64_t input_size, int64_t hidden_size);
  explicit LSTMImpl(const LSTMOptions& options_);

  std::tuple<Tensor, std::tuple<Tensor, Tensor>> forward(
      const Tensor& input,
      torch::optional<std::tuple<Tensor, Tensor>> hx_opt = {});

 protected:
  FORWARD_HAS_DEFAULT_ARGS(
      {1, AnyValue(torch::optional<std::tuple<Tensor, Tensor>>())})

 public:
  LSTMOptions options;
};

TORCH_MODULE(LSTM);

// ---- <torch/nn/modules/pooling.h> ----
template <size_t D, typename Derived>
class TORCH_API MaxPoolImpl : public torch::nn::Cloneable<Derived> {
 public:
  MaxPoolImpl(ExpandingArray<D> kernel_size);
  explicit MaxPoolImpl(const MaxPoolOptions<D>& options_);

  void reset() override;
  void pretty_print(std::ostream& stream) const override;

  /// The options with which this `Module` was constructed.
  MaxPoolOptions<D> options;
};

class TORCH_API MaxPool2dImpl : public MaxPoolImpl<2, MaxPool2dImpl> {
 public:
  using MaxPoolImpl<2, MaxPool2dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};

TORCH_MODULE(MaxPool2d);

// ---- <torch/nn/modules/loss.h> ----
struct TORCH_API L1LossImpl : Cloneable<L1LossImpl> {
  explicit L1LossImpl(const L1LossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  L1LossOptions options;
};

TORCH_MODULE(L1Loss);

struct TORCH_API MSELossImpl : Cloneable<MSELossImpl> {
  explicit MSELossImpl(const MSELossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  MSELossOptions options;
};

TORCH_MODULE(MSELoss);

struct TORCH_API SmoothL1LossImpl : public Cloneable<SmoothL1LossImpl> {
  explicit SmoothL1LossImpl(const SmoothL1LossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  SmoothL1LossOptions options;
};

TORCH_MODULE(SmoothL1Loss);

struct TORCH_API HuberLossImpl : public Cloneable<HuberLossImpl> {
  explicit HuberLossImpl(const HuberLossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  HuberLossOptions options;
};

TORCH_MODULE(HuberLoss);

struct TORCH_API BCELossImpl : Cloneable<BCELossImpl> {
  explicit BCELossImpl(const BCELossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  BCELossOptions options;
};

TORCH_MODULE(BCELoss);

struct TORCH_API NLLLossImpl : public Cloneable<NLLLossImpl> {
  explicit NLLLossImpl(const NLLLossOptions& options_ = {});
  void pretty_print(std::ostream& stream) const override;
  void reset() override;
  Tensor forward(const Tensor& input, const Tensor& target);
  NLLLossOptions options;
  Tensor weight;
};

TORCH_MODULE(NLLLoss);

struct TORCH_API CrossEntropyLossImpl : public Cloneable<CrossEntropyLossImpl> {
  explicit CrossEntropyLossImpl(const CrossEntropyLossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  CrossEntropyLossOptions options;
  Tensor weight;
};

TORCH_MODULE(CrossEntropyLoss);

struct TORCH_API BCEWithLogitsLossImpl
    : public Cloneable<BCEWithLogitsLossImpl> {
  explicit BCEWithLogitsLossImpl(const BCEWithLogitsLossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  BCEWithLogitsLossOptions options;
  Tensor weight;
  Tensor pos_weight;
};

TORCH_MODULE(BCEWithLogitsLoss);

} // namespace nn
} // namespace torch
