// RUN: %clangxx %mock_flags -fsyntax-only %s
// RUN: %clangxx %real_flags -fsyntax-only %s
//
// Compile-only API-surface test for the mock LibTorch headers in
// test/Inputs/mock. It must parse cleanly against BOTH the mock and the real
// LibTorch 1.13 headers (Debian libtorch-dev), so every construct used here is
// valid, warning-free training code for the real library. Keep it in sync
// when the mock grows.

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// ---------------------------------------------------------------------------
// Negative-drift guard: identities that the checks rely on (canonical
// declarations, aliases, class hierarchy). A mock that drifts from the real
// headers fails to compile here.
// ---------------------------------------------------------------------------
// Tensors.
static_assert(std::is_same_v<torch::Tensor, at::Tensor>);
static_assert(std::is_base_of_v<at::TensorBase, at::Tensor>);
static_assert(std::is_same_v<torch::autograd::Variable, at::Tensor>);
static_assert(std::is_same_v<torch::autograd::variable_list, std::vector<at::Tensor>>);
static_assert(std::is_same_v<at::TensorList, c10::ArrayRef<at::Tensor>>);
static_assert(std::is_same_v<at::IntArrayRef, c10::ArrayRef<int64_t>>);
static_assert(std::is_same_v<torch::IntArrayRef, c10::ArrayRef<int64_t>>);
static_assert(std::is_same_v<torch::Scalar, c10::Scalar>);
static_assert(std::is_same_v<torch::Dtype, c10::ScalarType>);
static_assert(std::is_same_v<decltype(torch::kFloat32), const c10::ScalarType>);
static_assert(std::is_same_v<torch::optional<int64_t>, c10::optional<int64_t>>);
static_assert(!std::is_trivially_copyable_v<at::Tensor>);
// Grad mode guards: torch:: and at:: names are aliases of the c10 classes.
static_assert(std::is_same_v<torch::NoGradGuard, c10::NoGradGuard>);
static_assert(std::is_same_v<at::NoGradGuard, c10::NoGradGuard>);
static_assert(std::is_same_v<torch::AutoGradMode, c10::AutoGradMode>);
static_assert(std::is_same_v<at::AutoGradMode, c10::AutoGradMode>);
static_assert(std::is_same_v<torch::autograd::AutoGradMode, c10::AutoGradMode>);
static_assert(std::is_base_of_v<c10::AutoGradMode, c10::NoGradGuard>);
static_assert(std::is_same_v<torch::InferenceMode, c10::InferenceMode>);
static_assert(std::is_same_v<at::GradMode, c10::GradMode>);
// Devices and options.
static_assert(std::is_same_v<torch::Device, c10::Device>);
static_assert(std::is_same_v<at::Device, c10::Device>);
static_assert(std::is_same_v<torch::DeviceType, c10::DeviceType>);
static_assert(std::is_same_v<decltype(torch::kCUDA), const c10::DeviceType>);
static_assert(std::is_same_v<torch::TensorOptions, c10::TensorOptions>);
static_assert(std::is_same_v<at::TensorOptions, c10::TensorOptions>);
// Factories return at::Tensor.
static_assert(std::is_same_v<decltype(torch::randn({2})), at::Tensor>);
static_assert(std::is_same_v<decltype(torch::from_blob(nullptr, {2})), at::Tensor>);
// Modules.
static_assert(std::is_base_of_v<torch::nn::Module, torch::nn::LinearImpl>);
static_assert(std::is_base_of_v<torch::nn::Cloneable<torch::nn::LinearImpl>,
                                torch::nn::LinearImpl>);
static_assert(std::is_base_of_v<torch::nn::ModuleHolder<torch::nn::LinearImpl>,
                                torch::nn::Linear>);
static_assert(std::is_same_v<torch::nn::Linear::Impl, torch::nn::LinearImpl>);
static_assert(std::is_same_v<torch::nn::Linear::ContainedType, torch::nn::LinearImpl>);
static_assert(std::is_base_of_v<torch::nn::ModuleHolder<torch::nn::SequentialImpl>,
                                torch::nn::Sequential>);
static_assert(std::is_base_of_v<torch::nn::Cloneable<torch::nn::SequentialImpl>,
                                torch::nn::SequentialImpl>);
static_assert(std::is_base_of_v<torch::nn::Cloneable<torch::nn::Conv2dImpl>,
                                torch::nn::Conv2dImpl>);
static_assert(std::is_base_of_v<torch::nn::Cloneable<torch::nn::BatchNorm2dImpl>,
                                torch::nn::BatchNorm2dImpl>);
static_assert(std::is_base_of_v<torch::nn::Cloneable<torch::nn::DropoutImpl>,
                                torch::nn::DropoutImpl>);
static_assert(std::is_base_of_v<torch::nn::Cloneable<torch::nn::LSTMImpl>,
                                torch::nn::LSTMImpl>);
static_assert(std::is_base_of_v<torch::nn::Cloneable<torch::nn::MaxPool2dImpl>,
                                torch::nn::MaxPool2dImpl>);
static_assert(std::is_base_of_v<torch::nn::Cloneable<torch::nn::CrossEntropyLossImpl>,
                                torch::nn::CrossEntropyLossImpl>);
static_assert(std::is_base_of_v<torch::nn::ModuleHolder<torch::nn::BCEWithLogitsLossImpl>,
                                torch::nn::BCEWithLogitsLoss>);
static_assert(std::is_base_of_v<torch::nn::ModuleHolder<torch::nn::EmbeddingImpl>,
                                torch::nn::Embedding>);
static_assert(std::is_same_v<decltype(std::declval<torch::nn::Module&>().named_parameters()),
                             torch::OrderedDict<std::string, at::Tensor>>);
static_assert(std::is_same_v<decltype(std::declval<torch::nn::Module&>().parameters()),
                             std::vector<at::Tensor>>);
static_assert(std::is_same_v<decltype(std::declval<torch::nn::LSTMImpl&>().forward(
                                 std::declval<at::Tensor>())),
                             std::tuple<at::Tensor, std::tuple<at::Tensor, at::Tensor>>>);
// Functional options are aliases of the module options where the real
// headers say so.
static_assert(std::is_same_v<torch::nn::functional::BinaryCrossEntropyFuncOptions,
                             torch::nn::BCELossOptions>);
static_assert(std::is_same_v<torch::nn::functional::CrossEntropyFuncOptions,
                             torch::nn::CrossEntropyLossOptions>);
static_assert(std::is_same_v<torch::nn::functional::ReLUFuncOptions,
                             torch::nn::ReLUOptions>);
static_assert(!std::is_same_v<torch::nn::functional::SoftmaxFuncOptions,
                              torch::nn::SoftmaxOptions>);
// Optimizers and schedulers.
static_assert(std::is_base_of_v<torch::optim::Optimizer, torch::optim::SGD>);
static_assert(std::is_base_of_v<torch::optim::Optimizer, torch::optim::Adam>);
static_assert(std::is_base_of_v<torch::optim::Optimizer, torch::optim::AdamW>);
static_assert(std::is_base_of_v<torch::optim::Optimizer, torch::optim::RMSprop>);
static_assert(std::is_base_of_v<torch::optim::Optimizer, torch::optim::Adagrad>);
static_assert(std::is_base_of_v<torch::optim::Optimizer, torch::optim::LBFGS>);
static_assert(std::is_base_of_v<torch::optim::OptimizerOptions, torch::optim::SGDOptions>);
static_assert(std::is_base_of_v<torch::optim::OptimizerOptions, torch::optim::AdamOptions>);
static_assert(std::is_base_of_v<torch::optim::LRScheduler, torch::optim::StepLR>);
static_assert(std::is_same_v<torch::optim::Optimizer::LossClosure,
                             std::function<at::Tensor()>>);
static_assert(std::is_abstract_v<torch::optim::Optimizer>);
static_assert(!std::is_copy_constructible_v<torch::optim::Optimizer>);
// Data.
static_assert(std::is_same_v<torch::data::Example<>,
                             torch::data::Example<at::Tensor, at::Tensor>>);
static_assert(std::is_base_of_v<
              torch::data::datasets::Dataset<torch::data::datasets::MNIST>,
              torch::data::datasets::MNIST>);
static_assert(std::is_base_of_v<torch::data::samplers::Sampler<>,
                                torch::data::samplers::RandomSampler>);

// Return types and overload sets that checks (and users) depend on.
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().grad()), const at::Tensor&>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().mutable_grad()), at::Tensor&>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().requires_grad_()), const at::Tensor&>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().set_requires_grad(true)),
                             const at::Tensor&>);
static_assert(std::is_same_v<decltype(std::declval<at::TensorBase&>().set_requires_grad(true)),
                             const at::TensorBase&>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().add_(1)), at::Tensor&>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().detach()), at::Tensor>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().data()), at::Tensor>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().item()), c10::Scalar>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().item<float>()), float>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().backward()), void>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().sizes()), c10::ArrayRef<int64_t>>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().device()), c10::Device>);
static_assert(std::is_same_v<decltype(std::declval<at::Tensor&>().max(1)),
                             std::tuple<at::Tensor, at::Tensor>>);
static_assert(std::is_same_v<decltype(std::declval<torch::optim::SGD&>().step()), at::Tensor>);
static_assert(std::is_same_v<decltype(std::declval<torch::nn::Module&>().register_module(
                                 "m", std::declval<torch::nn::Linear>())),
                             std::shared_ptr<torch::nn::LinearImpl>>);
// torch::nn::Sequential's forward is a template, so ModuleHolder::operator()
// deduces `void` (has_forward is false): `seq(x)` cannot yield a Tensor.
static_assert(std::is_same_v<decltype(std::declval<torch::nn::Sequential&>()(
                                 std::declval<at::Tensor&>())),
                             void>);
static_assert(!std::is_convertible_v<double, at::Tensor>);
static_assert(!std::is_convertible_v<std::size_t, c10::Scalar>); // ambiguous
static_assert(std::is_convertible_v<int, c10::Scalar>);
static_assert(std::is_convertible_v<c10::DeviceType, c10::TensorOptions>);
static_assert(!std::is_constructible_v<c10::NoGradGuard, bool>);
static_assert(!std::is_default_constructible_v<torch::optim::SGDOptions>);
static_assert(std::is_default_constructible_v<torch::optim::AdamOptions>);

// Overload resolution must fail exactly where it fails with the real headers.
template <class T, class = void>
struct mean_of_braced_dims_compiles : std::false_type {};
template <class T>
struct mean_of_braced_dims_compiles<
    T, std::void_t<decltype(std::declval<T&>().mean({0, 1}, true))>> : std::true_type {};
static_assert(!mean_of_braced_dims_compiles<at::Tensor>::value); // IntArrayRef vs DimnameList

template <class T, class = void>
struct step_without_closure_compiles : std::false_type {};
template <class T>
struct step_without_closure_compiles<T, std::void_t<decltype(std::declval<T&>().step())>>
    : std::true_type {};
static_assert(!step_without_closure_compiles<torch::optim::LBFGS>::value);
static_assert(step_without_closure_compiles<torch::optim::Adam>::value);
static_assert(step_without_closure_compiles<torch::optim::LRScheduler>::value);

// ---------------------------------------------------------------------------
// Models.
// ---------------------------------------------------------------------------
struct NetImpl : torch::nn::Module {
  NetImpl(int64_t in, int64_t hidden, int64_t out)
      : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
        fc2(register_module(
            "fc2", torch::nn::Linear(torch::nn::LinearOptions(hidden, out).bias(false)))),
        bn(register_module("bn", torch::nn::BatchNorm1d(hidden))),
        drop(register_module("drop", torch::nn::Dropout(0.5))) {
    scale = register_parameter("scale", torch::ones({1}));
    running = register_buffer("running", torch::zeros({hidden}));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(bn->forward(fc1->forward(x.view({x.size(0), -1}))));
    x = drop->forward(x);
    return torch::log_softmax(fc2->forward(x) * scale, /*dim=*/1);
  }

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::nn::BatchNorm1d bn{nullptr};
  torch::nn::Dropout drop{nullptr};
  torch::Tensor scale, running;
};
TORCH_MODULE(Net);

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl()
      : conv1(torch::nn::Conv2dOptions(1, 10, /*kernel_size=*/5)),
        conv2(torch::nn::Conv2dOptions(10, 20, 5).stride(1).padding(2).bias(true)),
        conv1d(torch::nn::Conv1dOptions(3, 8, 3)),
        bn2(20),
        pool(torch::nn::MaxPool2dOptions(2).stride(2)),
        drop2(torch::nn::Dropout2dOptions(0.25)),
        flatten(torch::nn::FlattenOptions().start_dim(1)),
        fc(320, 10) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("conv1d", conv1d);
    register_module("bn2", bn2);
    register_module("pool", pool);
    register_module("drop2", drop2);
    register_module("flatten", flatten);
    register_module("fc", fc);
  }

  torch::Tensor forward(const torch::Tensor& x) {
    auto y = pool(torch::relu(conv1(x)));
    y = drop2(bn2(conv2(y)));
    y = flatten(y);
    return fc(y);
  }

  torch::nn::Conv2d conv1, conv2;
  torch::nn::Conv1d conv1d;
  torch::nn::BatchNorm2d bn2;
  torch::nn::MaxPool2d pool;
  torch::nn::Dropout2d drop2;
  torch::nn::Flatten flatten;
  torch::nn::Linear fc;
};
TORCH_MODULE(ConvNet);

struct SeqModelImpl : torch::nn::Module {
  SeqModelImpl()
      : embed(register_module("embed", torch::nn::Embedding(100, 16))),
        lstm(register_module(
            "lstm", torch::nn::LSTM(torch::nn::LSTMOptions(16, 32).num_layers(2).batch_first(true)))),
        head(register_module("head", torch::nn::Linear(32, 2))) {}

  torch::Tensor forward(torch::Tensor tokens) {
    auto out = lstm->forward(embed->forward(tokens));
    torch::Tensor output = std::get<0>(out);
    torch::Tensor h_n = std::get<0>(std::get<1>(out));
    (void)h_n;
    return head(output.select(1, -1));
  }

  torch::nn::Embedding embed{nullptr};
  torch::nn::LSTM lstm{nullptr};
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(SeqModel);

// A Cloneable module with the conventional reset().
struct ClonableImpl : torch::nn::Cloneable<ClonableImpl> {
  explicit ClonableImpl(int64_t n = 4) : n(n) { reset(); }
  void reset() override {
    w = register_parameter("w", torch::randn({n, n}));
    inner = register_module("inner", std::make_shared<torch::nn::LinearImpl>(n, n));
  }
  torch::Tensor forward(const torch::Tensor& x) { return inner->forward(x.matmul(w)); }
  int64_t n;
  torch::Tensor w;
  std::shared_ptr<torch::nn::LinearImpl> inner;
};
TORCH_MODULE(Clonable);

torch::nn::Sequential make_sequential() {
  torch::nn::Sequential seq(
      torch::nn::Linear(784, 128),
      torch::nn::ReLU(),
      torch::nn::Dropout(0.2),
      torch::nn::Linear(128, 64),
      torch::nn::Tanh(),
      torch::nn::Linear(64, 10),
      torch::nn::Sigmoid(),
      torch::nn::Softmax(torch::nn::SoftmaxOptions(1)),
      torch::nn::LogSoftmax(1));
  seq->push_back(torch::nn::Linear(10, 10));
  seq->push_back("named_relu", torch::nn::ReLU(torch::nn::ReLUOptions().inplace(true)));
  seq->push_back(torch::nn::Functional(torch::relu));
  seq->push_back(std::make_shared<torch::nn::LinearImpl>(10, 10));
  torch::nn::Sequential named({{"fc", torch::nn::Linear(3, 4)}, {"act", torch::nn::ReLU()}});
  (void)named;
  std::shared_ptr<torch::nn::Module> first = seq[0];
  std::shared_ptr<torch::nn::Module> second = seq->ptr(1);
  std::size_t n = seq->size();
  (void)first;
  (void)second;
  (void)n;
  torch::Tensor y = seq->forward(torch::randn({1, 784}));
  torch::Tensor z = seq->forward<torch::Tensor>(y);
  (void)z;
  return seq;
}

void containers() {
  torch::nn::ModuleList list(torch::nn::Linear(2, 2), torch::nn::ReLU());
  list->push_back(torch::nn::Linear(2, 3));
  for (const std::shared_ptr<torch::nn::Module>& m : *list) {
    m->train(false);
  }
  std::shared_ptr<torch::nn::Module> head = list[0];
  (void)head;

  torch::nn::ModuleDict dict(std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>>{
      {"lin", torch::nn::Linear(2, 2).ptr()}});
  bool has = dict->contains("lin");
  (void)has;
}

// ---------------------------------------------------------------------------
// Tensors, scalars, devices, options, factories.
// ---------------------------------------------------------------------------
void tensors() {
  torch::Device cpu(torch::kCPU);
  torch::Device gpu(torch::kCUDA, 0);
  torch::Device parsed("cuda:1");
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  bool is_cuda = gpu.is_cuda();
  torch::DeviceType type = gpu.type();
  torch::DeviceIndex index = gpu.index();
  std::size_t ngpus = torch::cuda::device_count();
  (void)cpu, (void)parsed, (void)is_cuda, (void)type, (void)index, (void)ngpus;
  at::DeviceType at_type = at::kCUDA;
  c10::DeviceType c10_type = c10::kCPU;
  (void)at_type, (void)c10_type;

  torch::TensorOptions opts = torch::TensorOptions().dtype(torch::kFloat32).device(device).requires_grad(true);
  torch::TensorOptions opts2 = torch::dtype(torch::kInt64).device(torch::kCPU);
  torch::TensorOptions opts3 = torch::device(torch::kCUDA).dtype(torch::kFloat);
  torch::TensorOptions opts4 = torch::requires_grad();
  (void)opts2, (void)opts3, (void)opts4;

  // Factories.
  torch::Tensor a = torch::randn({4, 3}, opts);
  torch::Tensor b = torch::rand({4, 3});
  torch::Tensor c = torch::zeros({4, 3}, torch::kFloat64);
  torch::Tensor d = torch::ones({4, 3}, torch::TensorOptions().dtype(torch::kLong));
  torch::Tensor e = torch::empty({2, 2});
  torch::Tensor f = torch::full({2, 2}, 3.5);
  torch::Tensor g = torch::arange(10);
  torch::Tensor g2 = torch::arange(0, 10, 2, torch::kInt64);
  torch::Tensor h = torch::tensor({1.0, 2.0, 3.0});
  torch::Tensor h2 = torch::tensor({{1, 2}, {3, 4}}, torch::kInt32);
  torch::Tensor h3 = torch::tensor(std::vector<float>{1.f, 2.f});
  torch::Tensor i = torch::zeros_like(a);
  torch::Tensor j = torch::ones_like(a, torch::kFloat16);
  torch::Tensor k = torch::randn_like(a);
  torch::Tensor l = torch::eye(3);
  torch::Tensor m = torch::linspace(0, 1, 5);
  torch::Tensor n = torch::cat({a, b}, /*dim=*/0);
  torch::Tensor o = torch::stack({a, b});
  std::vector<torch::Tensor> parts{a, b};
  torch::Tensor o2 = torch::cat(parts, 1);
  torch::Tensor o3 = torch::stack(parts, 1);
  torch::Tensor r = torch::randint(0, 10, {3});
  (void)c, (void)d, (void)e, (void)f, (void)g, (void)g2, (void)h, (void)h2, (void)h3;
  (void)i, (void)j, (void)k, (void)l, (void)m, (void)n, (void)o, (void)o2, (void)o3, (void)r;

  // from_blob: every overload of the real header.
  float buffer[6] = {0, 1, 2, 3, 4, 5};
  torch::Tensor fb1 = torch::from_blob(buffer, {2, 3});
  torch::Tensor fb2 = torch::from_blob(buffer, {2, 3}, torch::kFloat32);
  torch::Tensor fb3 = torch::from_blob(buffer, {2, 3}, {3, 1});
  torch::Tensor fb4 = torch::from_blob(buffer, {2, 3}, {3, 1}, torch::TensorOptions().dtype(torch::kFloat32));
  torch::Tensor fb5 = torch::from_blob(buffer, {2, 3}, [](void*) {});
  torch::Tensor fb6 = torch::from_blob(buffer, {2, 3}, [](void*) {}, torch::kFloat32);
  torch::Tensor fb7 = torch::from_blob(buffer, {2, 3}, {3, 1}, [](void*) {});
  torch::Tensor fb8 = torch::from_blob(buffer, {2, 3}, {3, 1}, [](void*) {}, torch::kFloat32);
  torch::Tensor fb9 = at::from_blob(buffer, {6});
  (void)fb1, (void)fb2, (void)fb3, (void)fb4, (void)fb5, (void)fb6, (void)fb7, (void)fb8, (void)fb9;

  // Metadata.
  int64_t rows = a.size(0);
  at::IntArrayRef sizes = a.sizes();
  int64_t ndim = a.dim();
  int64_t count = a.numel();
  bool defined = a.defined();
  bool on_cuda = a.is_cuda();
  torch::Device where = a.device();
  torch::TensorOptions a_opts = a.options();
  torch::Dtype st = a.scalar_type();
  bool rg = a.requires_grad();
  (void)rows, (void)sizes, (void)ndim, (void)count, (void)defined, (void)on_cuda;
  (void)where, (void)a_opts, (void)st, (void)rg;
  if (a.dtype() == torch::kFloat32) {
  }

  // Conversions.
  torch::Tensor t1 = a.to(device);
  torch::Tensor t2 = a.to(torch::kCUDA);
  torch::Tensor t3 = a.to(torch::kFloat64);
  torch::Tensor t4 = a.to(device, torch::kFloat32);
  torch::Tensor t5 = a.to(device, /*non_blocking=*/true);
  torch::Tensor t6 = a.to(device, torch::kFloat32, /*non_blocking=*/true, /*copy=*/false);
  torch::Tensor t7 = a.to(torch::TensorOptions().device(device).dtype(torch::kHalf));
  torch::Tensor t8 = a.to(b);
  torch::Tensor t9 = a.cuda();
  torch::Tensor t10 = a.cpu();
  torch::Tensor t11 = a.to(torch::kFloat32, /*non_blocking=*/false, /*copy=*/true);
  (void)t1, (void)t2, (void)t3, (void)t4, (void)t5, (void)t6, (void)t7, (void)t8, (void)t9, (void)t10, (void)t11;

  // Shape & math.
  torch::Tensor v = a.view({-1});
  torch::Tensor v2 = a.reshape({3, 4});
  torch::Tensor v3 = a.flatten();
  torch::Tensor v4 = a.flatten(1);
  torch::Tensor v5 = a.squeeze();
  torch::Tensor v6 = a.squeeze(0);
  torch::Tensor v7 = a.unsqueeze(1);
  torch::Tensor v8 = a.sum();
  torch::Tensor v9 = a.sum(1);
  torch::Tensor v10 = a.sum(at::IntArrayRef{0, 1}, /*keepdim=*/true);
  torch::Tensor v11 = a.mean();
  torch::Tensor v12 = a.mean(1, /*keepdim=*/false);
  std::tuple<torch::Tensor, torch::Tensor> mx = a.max(1);
  torch::Tensor v13 = a.max();
  torch::Tensor v14 = a.argmax(1);
  torch::Tensor v15 = a.argmax();
  torch::Tensor v16 = a.eq(b);
  torch::Tensor v17 = a.eq(1);
  torch::Tensor v18 = a.clone();
  torch::Tensor v19 = a.contiguous();
  torch::Tensor v20 = a.t();
  torch::Tensor v21 = a.matmul(b.t());
  torch::Tensor v22 = a.mm(b.t());
  torch::Tensor v23 = a.sigmoid().relu().tanh();
  torch::Tensor v24 = a.softmax(1);
  torch::Tensor v25 = a.log_softmax(-1, torch::kFloat32);
  torch::Tensor v26 = a.exp().log().abs().sqrt();
  torch::Tensor v27 = a.pow(2);
  torch::Tensor v28 = a.pow(b);
  torch::Tensor v29 = a.clamp(0, 1);
  torch::Tensor v30 = a.clamp(-1.0, c10::nullopt);
  torch::Tensor v31 = a.transpose(0, 1).permute({1, 0}).select(0, 1).narrow(0, 0, 1);
  torch::Tensor v32 = a.index_select(0, g).masked_fill(a > 0, 0.0);
  torch::Tensor v33 = a.min();
  torch::Tensor v34 = a.std(0);
  torch::Tensor v35 = a.add(b, 2).sub(b).mul(2).div(3).neg();
  (void)v, (void)v2, (void)v3, (void)v4, (void)v5, (void)v6, (void)v7, (void)v8, (void)v9, (void)v10;
  (void)v11, (void)v12, (void)mx, (void)v13, (void)v14, (void)v15, (void)v16, (void)v17, (void)v18;
  (void)v19, (void)v20, (void)v21, (void)v22, (void)v23, (void)v24, (void)v25, (void)v26, (void)v27;
  (void)v28, (void)v29, (void)v30, (void)v31, (void)v32, (void)v33, (void)v34, (void)v35;

  // Scalars.
  torch::Scalar s = a.sum().item();
  float fv = a.sum().item<float>();
  double dv = s.toDouble();
  int64_t lv = a.argmax().item<int64_t>();
  float* data = a.data_ptr<float>();
  (void)fv, (void)dv, (void)lv, (void)data;

  // In-place ops.
  torch::Tensor w = torch::zeros({3, 3});
  w.add_(b.narrow(0, 0, 3).narrow(1, 0, 3));
  w.add_(1.0);
  w.add_(b, /*alpha=*/0.5);
  w.sub_(1).mul_(2).div_(2);
  w.sub_(w, 0.1);
  w.copy_(torch::ones({3, 3}));
  w.zero_();
  w.fill_(1);
  w.clamp_(-1, 1);
  w.clamp_min_(0);
  w.relu_();
  w.sigmoid_();
  w.tanh_();
  w.normal_(0, 0.01);
  w.uniform_(-0.1, 0.1);
  w.exp_();
  w.log_();
  w.abs_();
  w.neg_();
  w.sqrt_();
  w.pow_(2);
  w.addcmul_(w, w, 0.5);
  w.addcdiv_(w, w.sqrt(), -0.1);
  w.masked_fill_(w < 0, 0);
  w.index_add_(0, torch::arange(3), torch::ones({3, 3}));
  w.unsqueeze_(0);
  w.squeeze_(0);
  w.squeeze_();
  w.t_();
  w += w;
  w += 1;
  w -= w;
  w -= 1.5;
  w *= w;
  w *= 2;
  w /= w;
  w /= 2;
  torch::Tensor row = w[0];
  torch::Tensor elem = w[0][1];
  (void)row, (void)elem;

  // Free operators, Tensor/Scalar both ways.
  torch::Tensor ops = a + b - a * b / b;
  ops = a + 1 - 2.0 * a / 3 + (1 - a) * (2 / (a + 1));
  torch::Tensor cmp = (a > 0) == (b < 1.0);
  torch::Tensor neq = (a >= b) != (a <= 0);
  torch::Tensor neg = -a;
  (void)cmp, (void)neq, (void)neg;

  // Autograd.
  torch::Tensor x = torch::randn({3}, torch::requires_grad());
  torch::Tensor y = (x * x).sum();
  y.backward();
  y.backward({}, /*retain_graph=*/true);
  y.backward(torch::ones_like(y), /*retain_graph=*/true, /*create_graph=*/false);
  y.backward(torch::Tensor(), c10::nullopt, false, std::vector<torch::Tensor>{x});
  torch::Tensor gx = x.grad();
  torch::Tensor& mg = x.mutable_grad();
  mg = torch::zeros_like(x);
  x.set_requires_grad(false);
  const torch::Tensor& self = x.requires_grad_();
  x.requires_grad_(false);
  torch::Tensor det = x.detach();
  x.detach_();
  torch::Tensor dat = x.data();
  bool leaf = x.is_leaf();
  x.retain_grad();
  (void)gx, (void)self, (void)det, (void)dat, (void)leaf;
  torch::autograd::backward({y});
  torch::autograd::backward({y}, {torch::ones_like(y)}, /*retain_graph=*/true, /*create_graph=*/false);
  torch::autograd::variable_list grads = torch::autograd::grad({y}, {x}, {}, true, true, true);
  std::vector<torch::Tensor> grads2 = torch::autograd::grad({y}, {x});
  (void)grads, (void)grads2;
  torch::manual_seed(42);
}

// ---------------------------------------------------------------------------
// Grad-mode guards.
// ---------------------------------------------------------------------------
torch::Tensor guards(const torch::Tensor& x) {
  {
    torch::NoGradGuard no_grad;
    x.mul_(2);
  }
  {
    at::NoGradGuard no_grad;
    c10::NoGradGuard also;
  }
  {
    torch::AutoGradMode enable(true);
    c10::AutoGradMode disable(false);
  }
  {
    c10::InferenceMode guard;
    torch::InferenceMode guard2(true);
    bool on = c10::InferenceMode::is_enabled();
    (void)on;
  }
  {
    at::AutoDispatchBelowADInplaceOrView below_ad;
    at::AutoDispatchBelowAutograd below_autograd;
  }
  bool enabled = c10::GradMode::is_enabled();
  c10::GradMode::set_enabled(enabled);
  at::GradMode::set_enabled(true);
  return x * 2;
}

// ---------------------------------------------------------------------------
// Functional API and losses.
// ---------------------------------------------------------------------------
namespace F = torch::nn::functional;

void functional_and_losses(const torch::Tensor& input, const torch::Tensor& target,
                           const torch::Tensor& labels) {
  torch::Tensor a = torch::sigmoid(input);
  torch::Tensor a2 = torch::special::expit(input) + at::special_expit(input);
  torch::Tensor b = torch::softmax(input, 1);
  torch::Tensor c = torch::log_softmax(input, /*dim=*/1);
  torch::Tensor d = torch::relu(input);
  torch::Tensor e = torch::tanh(input);
  torch::Tensor f = torch::matmul(input, input.t());
  torch::Tensor g = torch::mm(input, input.t());
  torch::Tensor h = torch::argmax(input, 1);
  torch::Tensor i = torch::sum(input);
  torch::Tensor j = torch::mean(input);
  torch::Tensor k = torch::exp(input);
  torch::Tensor l = torch::log(input);
  torch::Tensor m = torch::flatten(input, 1);
  torch::Tensor n = torch::dropout(input, /*p=*/0.5, /*train=*/true);
  torch::Tensor o = torch::max(input);
  torch::Tensor p = torch::abs(input) + torch::sqrt(input) + torch::pow(input, 2) + torch::clamp(input, 0, 1);
  (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)g, (void)h;
  (void)i, (void)j, (void)k, (void)l, (void)m, (void)n, (void)o, (void)p;

  // at::/torch:: loss functions (reduction is an int64_t at::Reduction).
  torch::Tensor l1 = torch::mse_loss(input, target);
  torch::Tensor l2 = torch::l1_loss(input, target, at::Reduction::Sum);
  torch::Tensor l3 = torch::binary_cross_entropy(torch::sigmoid(input), target);
  torch::Tensor l4 = torch::binary_cross_entropy_with_logits(input, target, {}, {}, at::Reduction::Mean);
  torch::Tensor l5 = torch::nll_loss(c, labels);
  torch::Tensor l6 = torch::cross_entropy_loss(input, labels);
  torch::Tensor l7 = at::binary_cross_entropy(torch::sigmoid(input), target);
  torch::Tensor l8 = torch::nll_loss2d(c, labels, {}, at::Reduction::Sum, -1);
  torch::Tensor l9 = at::nll_loss_nd(c, labels);
  (void)l1, (void)l2, (void)l3, (void)l4, (void)l5, (void)l6, (void)l7, (void)l8, (void)l9;

  // torch::nn::functional with their *FuncOptions.
  torch::Tensor f1 = F::binary_cross_entropy(torch::sigmoid(input), target);
  torch::Tensor f2 = F::binary_cross_entropy(torch::sigmoid(input), target,
                                             F::BinaryCrossEntropyFuncOptions().reduction(torch::kSum));
  torch::Tensor f3 = F::binary_cross_entropy_with_logits(
      input, target, F::BinaryCrossEntropyWithLogitsFuncOptions().pos_weight(torch::ones({1})));
  torch::Tensor f4 = F::nll_loss(c, labels, F::NLLLossFuncOptions().ignore_index(-100).reduction(torch::kMean));
  torch::Tensor f5 = F::cross_entropy(input, labels);
  torch::Tensor f6 = F::cross_entropy(input, labels, F::CrossEntropyFuncOptions().label_smoothing(0.1));
  torch::Tensor f7 = F::mse_loss(input, target, F::MSELossFuncOptions(torch::kNone));
  torch::Tensor f8 = F::softmax(input, F::SoftmaxFuncOptions(1));
  torch::Tensor f9 = F::log_softmax(input, F::LogSoftmaxFuncOptions(1).dtype(torch::kFloat64));
  torch::Tensor f10 = F::relu(input);
  torch::Tensor f11 = F::relu(input, F::ReLUFuncOptions(/*inplace=*/true));
  torch::Tensor f12 = F::dropout(input, F::DropoutFuncOptions().p(0.3).training(false));
  torch::Tensor f13 = F::linear(input, torch::randn({2, 4}));
  torch::Tensor f14 = F::linear(input, torch::randn({2, 4}), torch::randn({2}));
  torch::Tensor f15 = F::l1_loss(input, target);
  torch::Tensor f16 = F::smooth_l1_loss(input, target, F::SmoothL1LossFuncOptions().beta(0.5));
  torch::Tensor f17 = F::huber_loss(input, target, F::HuberLossFuncOptions(torch::kSum).delta(2.0));
  torch::Tensor f18 = torch::smooth_l1_loss(input, target) + torch::huber_loss(input, target, at::Reduction::Mean, 1.5);
  (void)f16, (void)f17, (void)f18;
  (void)f1, (void)f2, (void)f3, (void)f4, (void)f5, (void)f6, (void)f7, (void)f8;
  (void)f9, (void)f10, (void)f11, (void)f12, (void)f13, (void)f14, (void)f15;
  // The other dropouts and batch norm, positional and functional.
  torch::Tensor d1 = torch::feature_dropout(input, 0.5, true) + torch::alpha_dropout(input, 0.5, false);
  torch::Tensor d2 = torch::feature_alpha_dropout(input, 0.5, true);
  torch::Tensor d3 = F::dropout2d(input, F::Dropout2dFuncOptions().p(0.2));
  torch::Tensor d4 = F::alpha_dropout(input, F::AlphaDropoutFuncOptions().training(true));
  torch::Tensor d5 = F::feature_alpha_dropout(input, F::FeatureAlphaDropoutFuncOptions().p(0.1));
  torch::Tensor d6 = F::batch_norm(input, torch::zeros({4}), torch::ones({4}), F::BatchNormFuncOptions().training(true).momentum(0.1));
  torch::Tensor d7 = torch::batch_norm(input, {}, {}, {}, {}, true, 0.1, 1e-5, false);
  torch::dropout_(d1, 0.5, true);
  torch::feature_dropout_(d1, 0.5, true);
  torch::alpha_dropout_(d1, 0.5, true);
  torch::feature_alpha_dropout_(d1, 0.5, true);
  static_assert(std::is_same<F::Dropout2dFuncOptions, F::DropoutFuncOptions>::value, "");
  (void)d2, (void)d3, (void)d4, (void)d5, (void)d6, (void)d7;

  // Loss modules with Options, forward(input, target).
  torch::nn::BCELoss bce;
  torch::nn::BCEWithLogitsLoss bce_logits(torch::nn::BCEWithLogitsLossOptions().pos_weight(torch::ones({1})));
  torch::nn::CrossEntropyLoss ce(torch::nn::CrossEntropyLossOptions().ignore_index(0).reduction(torch::kSum));
  torch::nn::NLLLoss nll;
  torch::nn::MSELoss mse(torch::nn::MSELossOptions().reduction(torch::kMean));
  torch::nn::L1Loss l1loss(torch::kSum);
  torch::nn::SmoothL1Loss smooth(torch::nn::SmoothL1LossOptions().beta(0.5));
  torch::nn::HuberLoss huber(torch::nn::HuberLossOptions().delta(2.0));
  torch::Tensor m7 = smooth(input, target) + huber->forward(input, target);
  (void)m7;
  torch::Tensor m1 = bce(torch::sigmoid(input), target);
  torch::Tensor m2 = bce_logits(input, target);
  torch::Tensor m3 = ce(input, labels);
  torch::Tensor m4 = nll->forward(c, labels);
  torch::Tensor m5 = mse->forward(input, target);
  torch::Tensor m6 = l1loss(input, target);
  (void)m1, (void)m2, (void)m3, (void)m4, (void)m5, (void)m6;
}

// ---------------------------------------------------------------------------
// Module API.
// ---------------------------------------------------------------------------
void module_api(Net& net, torch::Device device) {
  net->train();
  net->train(false);
  net->eval();
  bool training = net->is_training();
  net->zero_grad();
  net->zero_grad(/*set_to_none=*/true);
  net->to(device);
  net->to(torch::kFloat32);
  net->to(device, torch::kFloat32, /*non_blocking=*/true);
  net->to(torch::kCUDA);
  (void)training;

  for (auto& p : net->parameters()) {
    p.requires_grad_(false);
  }
  for (const torch::Tensor& p : net->parameters(/*recurse=*/false)) {
    (void)p;
  }
  for (auto& item : net->named_parameters()) {
    const std::string& key = item.key();
    torch::Tensor& value = item.value();
    (void)key, (void)value;
  }
  torch::OrderedDict<std::string, torch::Tensor> params = net->named_parameters(false);
  torch::Tensor* fc1_weight = params.find("fc1.weight");
  torch::Tensor& by_key = params["fc1.weight"];
  (void)fc1_weight, (void)by_key;
  for (auto& buf : net->buffers()) {
    buf.zero_();
  }
  for (auto& item : net->named_buffers()) {
    (void)item.key();
  }
  for (const std::shared_ptr<torch::nn::Module>& child : net->children()) {
    (void)child->name();
  }
  for (auto& m : net->modules()) {
    (void)m;
  }
  for (auto& item : net->named_children()) {
    (void)item.value();
  }
  net->apply([](torch::nn::Module& m) {
    if (auto* lin = m.as<torch::nn::Linear>()) {
      torch::nn::init::xavier_uniform_(lin->weight);
      torch::nn::init::zeros_(lin->bias);
    }
  });
  const std::string& name = net->name();
  std::shared_ptr<torch::nn::Module> copy = net->clone();
  (void)name, (void)copy;

  // ModuleHolder API.
  NetImpl* raw = net.get();
  NetImpl& ref = *net;
  const std::shared_ptr<NetImpl>& shared = net.ptr();
  bool empty = net.is_empty();
  (void)raw, (void)ref, (void)shared, (void)empty;
  torch::Tensor out = net(torch::randn({2, 784}));
  torch::Tensor out2 = net->forward(torch::randn({2, 784}));
  (void)out, (void)out2;
  torch::nn::Linear lin(torch::nn::LinearOptions(4, 5).bias(false));
  torch::Tensor lw = lin->weight;
  torch::Tensor lb = lin->bias;
  (void)lw, (void)lb;
  torch::nn::Linear empty_lin{nullptr};
  torch::nn::Linear from_ptr(std::make_shared<torch::nn::LinearImpl>(1, 1));
  (void)empty_lin, (void)from_ptr;

  Clonable clonable(3);
  std::shared_ptr<torch::nn::Module> deep = clonable->clone(device);
  (void)deep;

  torch::nn::utils::clip_grad_norm_(net->parameters(), /*max_norm=*/1.0);
  torch::nn::utils::clip_grad_value_(net->parameters(), 0.5);

  torch::save(net, "net.pt");
  torch::load(net, "net.pt");
  torch::serialize::OutputArchive archive;
  net->save(archive);
  archive.save_to("net_archive.pt");
  torch::serialize::InputArchive in_archive;
  in_archive.load_from("net_archive.pt", device);
  net->load(in_archive);
}

// ---------------------------------------------------------------------------
// Optimizers and schedulers.
// ---------------------------------------------------------------------------
void optimizers(Net& net) {
  torch::optim::SGD sgd(net->parameters(),
                        torch::optim::SGDOptions(0.01).momentum(0.9).dampening(0).weight_decay(1e-4).nesterov(true));
  torch::optim::SGD sgd2(net->parameters(), /*lr=*/0.1);
  torch::optim::Adam adam(net->parameters(),
                          torch::optim::AdamOptions(1e-3).betas(std::make_tuple(0.9, 0.999)).eps(1e-8).weight_decay(0).amsgrad(false));
  torch::optim::Adam adam2(net->parameters());
  torch::optim::AdamW adamw(net->parameters(), torch::optim::AdamWOptions(1e-3).weight_decay(1e-2));
  torch::optim::RMSprop rmsprop(net->parameters(), torch::optim::RMSpropOptions(1e-2).alpha(0.99).momentum(0.9));
  torch::optim::Adagrad adagrad(net->parameters(), torch::optim::AdagradOptions(1e-2).lr_decay(0));
  torch::optim::LBFGS lbfgs(net->parameters(), torch::optim::LBFGSOptions(1).max_iter(20).history_size(10));

  double lr = sgd.defaults().get_lr();
  static_cast<torch::optim::SGDOptions&>(sgd.defaults()).lr(lr * 0.1);
  for (auto& group : adam.param_groups()) {
    static_cast<torch::optim::AdamOptions&>(group.options()).lr(1e-4);
    for (torch::Tensor& p : group.params()) {
      (void)p;
    }
  }
  adam.add_param_group(torch::optim::OptimizerParamGroup(net->parameters()));
  std::vector<torch::Tensor>& params = sgd.parameters();
  std::size_t size = sgd.size();
  (void)params, (void)size;

  torch::optim::StepLR scheduler(sgd, /*step_size=*/10, /*gamma=*/0.5);
  torch::optim::Optimizer* optimizers[] = {&sgd, &sgd2, &adam, &adam2, &adamw, &rmsprop, &adagrad};
  for (torch::optim::Optimizer* opt : optimizers) {
    opt->zero_grad();
    torch::Tensor loss = net->forward(torch::randn({2, 784})).sum();
    loss.backward();
    opt->step();
  }
  scheduler.step();

  auto closure = [&]() -> torch::Tensor {
    lbfgs.zero_grad();
    torch::Tensor loss = net->forward(torch::randn({2, 784})).sum();
    loss.backward();
    return loss;
  };
  lbfgs.step(closure);
  torch::optim::Optimizer::LossClosure as_closure = closure;
  sgd.step(as_closure);
  sgd.step();

  torch::save(sgd, "sgd.pt");
  torch::load(adam, "adam.pt");
}

// ---------------------------------------------------------------------------
// Data pipeline and a full training loop.
// ---------------------------------------------------------------------------
template <typename Loader>
void train_epoch(Net& model, Loader& loader, torch::optim::Optimizer& optimizer, torch::Device device) {
  model->train();
  for (auto& batch : loader) {
    torch::Tensor data = batch.data.to(device);
    torch::Tensor targets = batch.target.to(device);
    optimizer.zero_grad();
    torch::Tensor output = model->forward(data);
    torch::Tensor loss = torch::nll_loss(output, targets);
    loss.backward();
    optimizer.step();
    float value = loss.item<float>();
    (void)value;
  }
}

struct CustomDataset : torch::data::datasets::Dataset<CustomDataset> {
  torch::data::Example<> get(size_t index) override {
    return {torch::randn({784}), torch::tensor(static_cast<int64_t>(index % 10))};
  }
  torch::optional<size_t> size() const override { return 100; }
};

void training() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model(784, 64, 10);
  model->to(device);

  auto train_dataset = torch::data::datasets::MNIST("./data")
                           .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                           .map(torch::data::transforms::Stack<>());
  const size_t train_size = train_dataset.size().value();
  (void)train_size;
  auto train_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(train_dataset), 64);

  auto test_dataset = torch::data::datasets::MNIST("./data", torch::data::datasets::MNIST::Mode::kTest)
                          .map(torch::data::transforms::Stack<>());
  auto test_loader = torch::data::make_data_loader(
      std::move(test_dataset), torch::data::DataLoaderOptions().batch_size(1000).workers(2));

  auto custom_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      CustomDataset().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions(32).drop_last(true));

  auto raw_loader = torch::data::make_data_loader(
      CustomDataset(), torch::data::samplers::RandomSampler(100), torch::data::DataLoaderOptions(8));
  for (std::vector<torch::data::Example<>>& batch : *raw_loader) {
    for (torch::data::Example<>& example : batch) {
      (void)example.data;
    }
  }

  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.5));
  for (int epoch = 1; epoch <= 3; ++epoch) {
    train_epoch(model, *train_loader, optimizer, device);
    train_epoch(model, *custom_loader, optimizer, device);

    torch::NoGradGuard no_grad;
    model->eval();
    double test_loss = 0;
    int64_t correct = 0;
    for (const auto& batch : *test_loader) {
      auto data = batch.data.to(device), targets = batch.target.to(device);
      auto output = model->forward(data);
      test_loss += torch::nll_loss(output, targets, /*weight=*/{}, at::Reduction::Sum).template item<double>();
      auto pred = output.argmax(1);
      correct += pred.eq(targets).sum().template item<int64_t>();
    }
    (void)test_loss, (void)correct;
  }
  torch::save(model, "model.pt");
}
