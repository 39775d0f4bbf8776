// RUN: %check_torch_tidy %s torch-unregistered-module-member %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-unregistered-module-member %t.real -- %real_flags

// Module shapes of real code: tensors handed to the constructor (A), and
// arrays of submodules (B).

#include <torch/torch.h>

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

// ------------------------------------------- (A) tensors handed to the constructor

// PA1: a normalisation whose mean and std come from the caller, made anew by
// the one construction of the file: fixed state, so buffers.
struct PA1NormalizeImpl : torch::nn::Module {
  PA1NormalizeImpl(torch::Tensor mean, torch::Tensor std) : mean_(std::move(mean)), std_(std) {}
  // CHECK-FIXES: {{^}}  PA1NormalizeImpl(torch::Tensor mean, torch::Tensor std) : mean_(register_buffer("mean", std::move(mean))), std_(register_buffer("std", std)) {}{{$}}
  torch::Tensor forward(torch::Tensor x) { return (x - mean_) / std_; }
  torch::Tensor mean_;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'mean_' holds a tensor handed to the constructor, which every construction in this file makes anew, and is never registered: it is missing from 'buffers()', so 'to()' leaves it on its device and 'save()'/'load()' skip it; it does not require grad and no optimizer is given it, so it is fixed state: assign it with 'mean_ = register_buffer("mean", ...)' where it is stored [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-5]]:61: note: constructor 'PA1NormalizeImpl({{.*}})' stores in 'mean_' the tensor passed as 'mean' here, without registering it
  // CHECK-MESSAGES: :[[@LINE-4]]:56: note: 'mean_' is used here
  torch::Tensor std_;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'std_' holds a tensor handed to the constructor{{.*}}'std_ = register_buffer("std", ...)' where it is stored [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-9]]:85: note: constructor 'PA1NormalizeImpl({{.*}})' stores in 'std_' the tensor passed as 'std' here, without registering it
  // CHECK-MESSAGES: :[[@LINE-8]]:65: note: 'std_' is used here
};
TORCH_MODULE(PA1Normalize);
PA1Normalize makePA1(torch::Device device) {
  return PA1Normalize(torch::tensor({0.485, 0.456, 0.406}).view({1, 3, 1, 1}).to(device),
                      torch::tensor({0.229, 0.224, 0.225}).view({1, 3, 1, 1}).to(device));
}

// PA2: assigned in the body, built with std::make_shared from a local.
struct PA2ScaleImpl : torch::nn::Module {
  explicit PA2ScaleImpl(torch::Tensor s) { scale_ = s; }
  // CHECK-FIXES: {{^}}  explicit PA2ScaleImpl(torch::Tensor s) { scale_ = register_buffer("scale", s); }{{$}}
  torch::Tensor forward(torch::Tensor x) { return x * scale_; }
  torch::Tensor scale_;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'scale_' holds a tensor handed to the constructor{{.*}} [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-5]]:53: note: constructor 'PA2ScaleImpl({{.*}})' stores in 'scale_' the tensor passed as 's' here, without registering it
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: 'scale_' is used here
};
std::shared_ptr<PA2ScaleImpl> makePA2() {
  auto s = torch::full({4}, 0.5);
  return std::make_shared<PA2ScaleImpl>(s);
}

// PA3: the caller makes it require grad: a parameter (no fix-it: whether to
// wrap the constructor's argument or the caller's is the author's call).
struct PA3BiasImpl : torch::nn::Module {
  explicit PA3BiasImpl(torch::Tensor b) : b_(b) {}
  torch::Tensor forward(torch::Tensor x) { return x + b_; }
  torch::Tensor b_;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'b_' requires grad but is never registered with 'register_parameter()'{{.*}} [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-4]]:43: note: constructor 'PA3BiasImpl({{.*}})' stores in 'b_' the tensor passed as 'b' here, without registering it
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: 'b_' is used here
};
TORCH_MODULE(PA3Bias);
PA3Bias makePA3() { return PA3Bias(torch::zeros({4}, torch::requires_grad())); }

// ------------------------------------------- (A) look-alikes: not the module's own

// NA1: weight tying: the tensor is another module's registered parameter.
struct NA1TiedHeadImpl : torch::nn::Module {
  explicit NA1TiedHeadImpl(torch::Tensor w) : weight_(w) {}
  torch::Tensor forward(torch::Tensor x) { return torch::matmul(x, weight_.t()); }
  torch::Tensor weight_;
};
TORCH_MODULE(NA1TiedHead);
struct NA1LMImpl : torch::nn::Module {
  NA1LMImpl()
      : emb(register_module("emb", torch::nn::Embedding(100, 8))),
        head(register_module("head", NA1TiedHead(emb->weight))) {}
  torch::Tensor forward(torch::Tensor x) { return head(emb(x)); }
  torch::nn::Embedding emb;
  NA1TiedHead head;
};

// NA2: one construction passes a new tensor, another a parameter of its
// caller: whose it is cannot be told.
struct NA2MaskImpl : torch::nn::Module {
  explicit NA2MaskImpl(torch::Tensor m) : mask_(std::move(m)) {}
  torch::Tensor forward(torch::Tensor x) { return x * mask_; }
  torch::Tensor mask_;
};
TORCH_MODULE(NA2Mask);
NA2Mask makeNA2a() { return NA2Mask(torch::ones({4})); }
NA2Mask makeNA2b(torch::Tensor shared) { return NA2Mask(shared); }

// NA3: a view of a submodule's parameter, and a local the caller registers
// as its own buffer before handing it over.
struct NA3ChildImpl : torch::nn::Module {
  NA3ChildImpl(torch::Tensor w, torch::Tensor t) : w_(w), t_(t) {}
  torch::Tensor forward(torch::Tensor x) { return x.matmul(w_) + t_; }
  torch::Tensor w_, t_;
};
TORCH_MODULE(NA3Child);
struct NA3ParentImpl : torch::nn::Module {
  NA3ParentImpl() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    auto t = torch::zeros({4});
    register_buffer("t", t);
    child = register_module("child", NA3Child(fc->weight.t(), t));
  }
  torch::Tensor forward(torch::Tensor x) { return child(fc(x)); }
  torch::nn::Linear fc{nullptr};
  NA3Child child{nullptr};
};

// NA4: handed in new, and registered by the constructor itself.
struct NA4Impl : torch::nn::Module {
  explicit NA4Impl(torch::Tensor mean) { mean_ = register_buffer("mean", mean); }
  torch::Tensor forward(torch::Tensor x) { return x - mean_; }
  torch::Tensor mean_;
};
NA4Impl makeNA4() { return NA4Impl(torch::zeros({4})); }

// NA5: two constructors take one argument: a holder's construction cannot be
// mapped to one of them.
struct NA5Impl : torch::nn::Module {
  explicit NA5Impl(torch::Tensor t) : t_(t) {}
  explicit NA5Impl(int64_t n) : t_(register_buffer("t", torch::zeros({n}))) {}
  torch::Tensor forward(torch::Tensor x) { return x + t_; }
  torch::Tensor t_;
};
TORCH_MODULE(NA5);
NA5 makeNA5() { return NA5(torch::ones({4})); }

// ------------------------------------------------- (B) arrays of submodules

// PB1: a std::vector of holders filled in a loop.
struct PB1Impl : torch::nn::Module {
  explicit PB1Impl(int64_t depth) {
    for (int64_t i = 0; i < depth; ++i)
      layers.push_back(torch::nn::Linear(8, 8));
  }
  torch::Tensor forward(torch::Tensor x) {
    for (auto &l : layers)
      x = torch::relu(l(x));
    return x;
  }
  std::vector<torch::nn::Linear> layers;
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: submodules held in 'layers' are never registered with 'register_module()': their parameters are missing from 'parameters()', so the optimizer never updates them, and 'to()', 'train()'/'eval()' and 'save()'/'load()' skip them; register each one where it is built ('register_module("layers" + std::to_string(i), ...)') or hold them in a 'torch::nn::ModuleList' [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-9]]:24: note: constructor 'PB1Impl(int64_t)' adds a new module to 'layers' here without registering it
  // CHECK-MESSAGES: :[[@LINE-7]]:20: note: 'layers' is used here
};

// PB2: a std::array of holders assigned by index, and a C array.
struct PB2Impl : torch::nn::Module {
  PB2Impl() {
    for (size_t i = 0; i < convs.size(); ++i)
      convs[i] = torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 3, 3));
    for (int i = 0; i < 2; ++i)
      heads[i] = torch::nn::Linear(4, 1);
  }
  torch::Tensor forward(torch::Tensor x) { return heads[1](heads[0](convs[2](convs[1](convs[0](x))))); }
  std::array<torch::nn::Conv2d, 3> convs{nullptr, nullptr, nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: submodules held in 'convs' are never registered{{.*}} [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: constructor 'PB2Impl()' adds a new module to 'convs' here without registering it
  // CHECK-MESSAGES: :[[@LINE-4]]:69: note: 'convs' is used here
  torch::nn::Linear heads[2]{nullptr, nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodules held in 'heads' are never registered{{.*}} [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-9]]:18: note: constructor 'PB2Impl()' adds a new module to 'heads' here without registering it
  // CHECK-MESSAGES: :[[@LINE-8]]:51: note: 'heads' is used here
};

// PB3: shared_ptrs to the user's own blocks, emplaced.
struct PB3BlockImpl : torch::nn::Module {
  PB3BlockImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
struct PB3Impl : torch::nn::Module {
  PB3Impl() {
    blocks.emplace_back(std::make_shared<PB3BlockImpl>());
    blocks.emplace_back(std::make_shared<PB3BlockImpl>());
  }
  torch::Tensor forward(torch::Tensor x) {
    for (const auto &b : blocks)
      x = b->forward(x);
    return x;
  }
  std::vector<std::shared_ptr<PB3BlockImpl>> blocks;
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: submodules held in 'blocks' are never registered{{.*}} [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-9]]:25: note: constructor 'PB3Impl()' adds a new module to 'blocks' here without registering it
  // CHECK-MESSAGES: :[[@LINE-7]]:26: note: 'blocks' is used here
};

// ------------------------------------------------- (B) look-alikes

// NB1: each element registered as it is added, or right after.
struct NB1Impl : torch::nn::Module {
  NB1Impl() {
    for (int i = 0; i < 3; ++i)
      a.push_back(register_module("a" + std::to_string(i), torch::nn::Linear(4, 4)));
    for (int i = 0; i < 3; ++i) {
      b.push_back(torch::nn::Linear(4, 4));
      register_module("b" + std::to_string(i), b.back());
    }
    for (int i = 0; i < 2; ++i)
      c[i] = torch::nn::Linear(4, 4);
    for (int i = 0; i < 2; ++i)
      register_module("c" + std::to_string(i), c[i]);
  }
  torch::Tensor forward(torch::Tensor x) { return a[0](b[0](c[0](x))); }
  std::vector<torch::nn::Linear> a, b;
  std::array<torch::nn::Linear, 2> c{nullptr, nullptr};
};

// NB2: the elements copied into a registered Sequential or ModuleList.
struct NB2Impl : torch::nn::Module {
  NB2Impl() {
    for (int i = 0; i < 3; ++i)
      layers.push_back(torch::nn::Linear(4, 4));
    for (auto &l : layers)
      seq->push_back(l);
    seq = register_module("seq", seq);
    for (int i = 0; i < 2; ++i)
      extra.emplace_back(4, 4);
    for (size_t i = 0; i < extra.size(); ++i)
      list->push_back(extra[i]);
    register_module("list", list);
  }
  torch::Tensor forward(torch::Tensor x) { return layers[0](extra[0](seq->forward(x))); }
  std::vector<torch::nn::Linear> layers, extra;
  torch::nn::Sequential seq;
  torch::nn::ModuleList list;
};

// NB3: a plain local vector of holders, stateless elements, modules added
// after construction, and a vector of tensors.
struct NB3Impl : torch::nn::Module {
  NB3Impl() {
    std::vector<torch::nn::Linear> local;
    for (int i = 0; i < 2; ++i)
      local.push_back(torch::nn::Linear(4, 4));
    for (int i = 0; i < 2; ++i)
      acts.push_back(torch::nn::ReLU());
    for (int i = 0; i < 2; ++i)
      masks.push_back(torch::ones({4}));
    fc = register_module("fc", local[0]);
  }
  void grow() { later.push_back(register_module("later", torch::nn::Linear(4, 4))); }
  torch::Tensor forward(torch::Tensor x) { return acts[0](later[0](fc(x))) * masks[0]; }
  torch::nn::Linear fc{nullptr};
  std::vector<torch::nn::ReLU> acts;
  std::vector<torch::nn::Linear> later;
  std::vector<torch::Tensor> masks;
};

// ------------------------------------------------- more (A) shapes

// PA4: the default argument makes it.
struct PA4Impl : torch::nn::Module {
  explicit PA4Impl(torch::Tensor w = torch::ones({3})) : w_(w) {}
  // CHECK-FIXES: {{^}}  explicit PA4Impl(torch::Tensor w = torch::ones({3})) : w_(register_buffer("w", w)) {}{{$}}
  torch::Tensor forward(torch::Tensor x) { return x * w_; }
  torch::Tensor w_;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'w_' holds a tensor handed to the constructor{{.*}}'w_ = register_buffer("w", ...)' where it is stored [torch-unregistered-module-member]
};
TORCH_MODULE(PA4);
PA4 makePA4() { return PA4(); }

// PA5: a tensor the module builds and that is given to an optimizer: a
// parameter (no fix-it: it does not require grad here).
struct PA5Impl : torch::nn::Module {
  PA5Impl() : temp(torch::ones({1})) {}
  torch::Tensor forward(torch::Tensor x) { return x / temp; }
  torch::Tensor temp;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'temp' is given to an optimizer but is never registered with 'register_parameter()': it is missing from 'parameters()', so 'to()' leaves it on its device and 'save()'/'load()' skip it; assign it with 'temp = register_parameter("temp", ...)' where it is built [torch-unregistered-module-member]
};
void trainPA5() {
  auto net = std::make_shared<PA5Impl>();
  torch::optim::SGD opt(std::vector<torch::Tensor>{net->temp}, torch::optim::SGDOptions(0.1));
  opt.step();
}

// NA6: a class template handed its tensor by a construction of the file
// that passes a member of the caller: not new.
template <int N> struct NA6Impl : torch::nn::Module {
  explicit NA6Impl(torch::Tensor t) : t_(t) {}
  torch::Tensor forward(torch::Tensor x) { return x * t_; }
  torch::Tensor t_;
};
struct NA6Owner : torch::nn::Module {
  NA6Owner() : scale(register_buffer("scale", torch::ones({2}))), inner(std::make_shared<NA6Impl<2>>(scale)) {
    register_module("inner", inner);
  }
  torch::Tensor forward(torch::Tensor x) { return inner->forward(x); }
  torch::Tensor scale;
  std::shared_ptr<NA6Impl<2>> inner;
};

// NB4: each block registered as a local under a computed name, then kept in
// the vector; another vector's elements registered by a helper of the class
// in a loop over it.
struct NB4BlockImpl : torch::nn::Module {
  explicit NB4BlockImpl(int64_t n) : fc(register_module("fc", torch::nn::Linear(n, n))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(NB4Block);
struct NB4Impl : torch::nn::Module {
  explicit NB4Impl(int64_t levels) {
    for (int64_t i = 0; i < levels; ++i) {
      NB4Block block(8);
      register_module("down_" + std::to_string(blocks.size()), block);
      blocks.push_back(block);
    }
    for (int64_t i = 0; i < levels; ++i)
      heads.push_back(torch::nn::Linear(8, 1));
    add_all(heads, "head_");
  }
  void add_all(std::vector<torch::nn::Linear> &ls, const std::string &prefix) {
    for (size_t i = 0; i < ls.size(); ++i)
      register_module(prefix + std::to_string(i), ls[i]);
  }
  torch::Tensor forward(torch::Tensor x) {
    for (auto &b : blocks)
      x = b(x);
    return heads[0](x);
  }
  std::vector<NB4Block> blocks;
  std::vector<torch::nn::Linear> heads;
};
