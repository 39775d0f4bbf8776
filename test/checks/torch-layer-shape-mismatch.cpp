// RUN: %check_torch_tidy %s torch-layer-shape-mismatch %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-layer-shape-mismatch %t.real -- %real_flags

#include <torch/torch.h>

#include <cstdint>

namespace nn = torch::nn;

constexpr int64_t kHidden = 128;
const int64_t kWrongHidden = 64;

// ---- positives: Sequential -------------------------------------------------

nn::Sequential mlp() {
  return nn::Sequential(nn::Linear(784, 128), nn::ReLU(),
                        nn::Linear(256, 10));
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the Linear at position 3 takes 256 input features but the Linear at position 1 before it gives 128; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
}

nn::Sequential mlp_with_options() {
  return nn::Sequential(
      nn::Linear(nn::LinearOptions(784, 128).bias(false)), nn::Dropout(0.5),
      nn::Linear(nn::LinearOptions(64, 10)));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the Linear at position 3 takes 64 input features but the Linear at position 1 before it gives 128; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
}

nn::Sequential mlp_from_constants() {
  return nn::Sequential(nn::Linear(784, kHidden), nn::Tanh(),
                        nn::Linear(kWrongHidden, 10));
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the Linear at position 3 takes 64 input features but the Linear at position 1 before it gives 128; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
}

nn::Sequential convnet() {
  return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(1, 16, 3).stride(1)),
                        nn::ReLU(), nn::MaxPool2d(2),
                        nn::Conv2d(32, 64, 3));
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the Conv2d at position 4 takes 32 input channels but the Conv2d at position 1 before it gives 16; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
}

nn::Sequential conv_then_batchnorm() {
  return nn::Sequential(nn::Conv2d(3, 16, 3), nn::BatchNorm2d(32));
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: the BatchNorm2d at position 2 takes 32 input channels but the Conv2d at position 1 before it gives 16; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
}

nn::Sequential named_layers() {
  return nn::Sequential({{"fc1", nn::Linear(10, 20)},
                         {"act", nn::ReLU()},
                         {"fc2", nn::Linear(30, 5)}});
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'fc2' takes 30 input features but 'fc1' before it gives 20; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
}

nn::Sequential pushed_back() {
  nn::Sequential seq;
  seq->push_back(nn::Linear(8, 16));
  seq->push_back(nn::ReLU());
  seq->push_back(nn::Linear(32, 4));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the Linear at position 3 takes 32 input features but the Linear at position 1 before it gives 16; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
  return seq;
}

nn::Sequential linear_then_layernorm() {
  return nn::Sequential(nn::Linear(64, 32),
                        nn::LayerNorm(nn::LayerNormOptions({16})));
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the LayerNorm at position 2 takes 16 input features but the Linear at position 1 before it gives 32; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
}

nn::Sequential functional_between() {
  return nn::Sequential(nn::Linear(5, 10), nn::Functional(torch::relu),
                        nn::Linear(12, 8));
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the Linear at position 3 takes 12 input features but the Linear at position 1 before it gives 10; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
}

// ---- positives: forward() --------------------------------------------------

struct NetImpl : nn::Module {
  NetImpl() {
    fc1 = register_module("fc1", nn::Linear(784, 128));
    fc2 = register_module("fc2", nn::Linear(256, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    x = torch::dropout(x, 0.5, is_training());
    return fc2(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'fc2' takes 256 input features but 'fc1' before it gives 128; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
  }
  nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Net);

struct FlattenNet : nn::Module {
  FlattenNet() { fc = register_module("fc", nn::Linear(784, 10)); }
  torch::Tensor forward(torch::Tensor x) {
    x = x.view({-1, 400});
    return fc->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'fc' takes 784 input features but 'view' before it gives 400; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
  }
  nn::Linear fc{nullptr};
};

struct InitListNet : nn::Module {
  InitListNet()
      : fc(register_module("fc", nn::Linear(16, 32))),
        bn(register_module("bn", nn::BatchNorm1d(64))) {}
  torch::Tensor forward(const torch::Tensor &input) {
    auto h = fc(input);
    auto y = bn(h);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'bn' takes 64 input features but 'fc' before it gives 32; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
    return torch::relu(y);
  }
  nn::Linear fc;
  nn::BatchNorm1d bn;
};

struct ConvNet : nn::Module {
  ConvNet()
      : conv1(nn::Conv2d(nn::Conv2dOptions(1, 32, 3))),
        conv2(nn::Conv2d(nn::Conv2dOptions(64, 64, 3))) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(conv1(x));
    x = torch::max_pool2d(x, 2);
    x = conv2(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'conv2' takes 64 input channels but 'conv1' before it gives 32; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
    return x;
  }
  nn::Conv2d conv1, conv2;
};

struct DefaultDropoutNet : nn::Module {
  // The dropout is built by its default constructor: it keeps the channels.
  DefaultDropoutNet()
      : conv1(nn::Conv2dOptions(1, 10, 5)), conv2(nn::Conv2dOptions(12, 20, 5)) {
    register_module("conv1", conv1);
    register_module("drop", drop);
    register_module("conv2", conv2);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(torch::max_pool2d(drop->forward(conv1->forward(x)), 2));
    return conv2->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'conv2' takes 12 input channels but 'conv1' before it gives 10; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
  }
  nn::Conv2d conv1, conv2;
  nn::Dropout2d drop;
};

struct PoolInPlaceNet : nn::Module {
  // Pooling built where it is applied keeps the channels.
  PoolInPlaceNet()
      : conv1(nn::Conv2dOptions(1, 6, 3)), conv2(nn::Conv2dOptions(8, 16, 3)) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
  }
  torch::Tensor forward(torch::Tensor x) {
    auto out = nn::MaxPool2d(nn::MaxPool2dOptions({2, 2}))
                   ->forward(torch::relu(conv1->forward(x)));
    return conv2->forward(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'conv2' takes 8 input channels but 'conv1' before it gives 6; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
  }
  nn::Conv2d conv1, conv2;
};

struct InClassSequentialNet : nn::Module {
  // Sequential members built by default member initialisers.
  explicit InClassSequentialNet(int64_t num_classes) : fc(64 * 4 * 4, num_classes) {
    register_module("layer1", layer1);
    register_module("layer2", layer2);
    register_module("pool", pool);
    register_module("fc", fc);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = layer1->forward(x);
    x = layer2->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the Conv2d at position 1 of 'layer2' takes 24 input channels but the Conv2d at position 1 of 'layer1' before it gives 16; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
    x = pool->forward(x);
    x = x.view({-1, 64 * 4 * 4});
    return fc->forward(x);
  }
  nn::Sequential layer1{nn::Conv2d(nn::Conv2dOptions(3, 16, 3).stride(1)),
                        nn::BatchNorm2d(16), nn::ReLU(),
                        nn::MaxPool2d(nn::MaxPool2dOptions(2).stride(2))};
  nn::Sequential layer2{nn::Conv2d(nn::Conv2dOptions(24, 64, 3).stride(1)),
                        nn::BatchNorm2d(32), nn::ReLU()};
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the BatchNorm2d at position 2 takes 32 input channels but the Conv2d at position 1 before it gives 64; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
  nn::MaxPool2d pool{nn::MaxPool2dOptions(2)};
  nn::Linear fc;
};

struct TextNet : nn::Module {
  TextNet() {
    emb = register_module("emb", nn::Embedding(1000, 64));
    out = register_module("out", nn::Linear(128, 2));
  }
  torch::Tensor forward(torch::Tensor tokens) {
    auto e = emb(tokens);
    return out(e);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'out' takes 128 input features but 'emb' before it gives 64; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
  }
  nn::Embedding emb{nullptr};
  nn::Linear out{nullptr};
};

struct SequentialMemberNet : nn::Module {
  SequentialMemberNet() {
    body = register_module("body", nn::Sequential(nn::Linear(10, 20), nn::ReLU()));
    head = register_module("head", nn::Linear(30, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = body->forward(x);
    return head(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'head' takes 30 input features but the Linear at position 1 of 'body' before it gives 20; the forward pass throws at the first batch; make the two sizes agree [torch-layer-shape-mismatch]
  }
  nn::Sequential body{nullptr};
  nn::Linear head{nullptr};
};

// ---- negatives: the correct code that looks like it ------------------------

nn::Sequential mlp_ok() {
  return nn::Sequential(nn::Linear(784, 128), nn::ReLU(), nn::Dropout(0.2),
                        nn::Linear(128, 10));
}

nn::Sequential conv_ok() {
  return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(1, 16, 3)),
                        nn::BatchNorm2d(16), nn::ReLU(), nn::MaxPool2d(2),
                        nn::Conv2d(nn::Conv2dOptions(16, 16, 3).groups(16)));
}

nn::Sequential sizes_from_parameters(int64_t in, int64_t hidden) {
  return nn::Sequential(nn::Linear(in, hidden), nn::ReLU(),
                        nn::Linear(2 * hidden, 10));
}

nn::Sequential flatten_of_unknown_conv() {
  // The size after Flatten depends on the image size: unknown.
  return nn::Sequential(nn::Conv2d(1, 16, 3), nn::Flatten(),
                        nn::Linear(1234, 10));
}

struct MyBlockImpl : nn::Module {
  torch::Tensor forward(torch::Tensor x) { return torch::cat({x, x}, 1); }
};
TORCH_MODULE(MyBlock);

nn::Sequential user_module_between() {
  return nn::Sequential(nn::Linear(784, 128), MyBlock(), nn::Linear(256, 10));
}

torch::Tensor widen(torch::Tensor x) { return torch::cat({x, x}, 1); }

nn::Sequential functional_unknown() {
  return nn::Sequential(nn::Linear(5, 10), nn::Functional(widen),
                        nn::Linear(20, 8));
}

nn::Sequential option_overridden() {
  return nn::Sequential(nn::Linear(32, 128),
                        nn::Linear(nn::LinearOptions(1, 10).in_features(128)));
}

nn::Sequential pushed_back_conditionally(bool bn) {
  nn::Sequential seq;
  seq->push_back(nn::Linear(8, 16));
  if (bn)
    seq->push_back(nn::Linear(16, 32));
  seq->push_back(nn::Linear(32, 4));
  return seq;
}

struct OrderNet : nn::Module {
  // Registered in another order than applied: only the application counts.
  OrderNet() {
    fc2 = register_module("fc2", nn::Linear(128, 10));
    fc1 = register_module("fc1", nn::Linear(784, 128));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  nn::Linear fc1{nullptr}, fc2{nullptr};
};

struct BranchNet : nn::Module {
  explicit BranchNet(bool extra) : use_extra(extra) {
    fc1 = register_module("fc1", nn::Linear(64, 32));
    proj = register_module("proj", nn::Linear(32, 16));
    fc2 = register_module("fc2", nn::Linear(16, 4));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = fc1(x);
    if (use_extra)
      x = proj(x);
    else
      x = x.narrow(1, 0, 16);
    return fc2(x);
  }
  bool use_extra;
  nn::Linear fc1{nullptr}, proj{nullptr}, fc2{nullptr};
};

struct ResidualNet : nn::Module {
  ResidualNet() {
    fc1 = register_module("fc1", nn::Linear(64, 32));
    fc2 = register_module("fc2", nn::Linear(32, 64));
    a = register_module("a", nn::Linear(64, 32));
    b = register_module("b", nn::Linear(64, 16));
    head = register_module("head", nn::Linear(48, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    auto y = fc2(torch::relu(fc1(x)));
    x = x + y;
    auto h = torch::cat({a(x), b(x)}, 1);
    return head(h);
  }
  nn::Linear fc1{nullptr}, fc2{nullptr}, a{nullptr}, b{nullptr},
      head{nullptr};
};

struct ParamNet : nn::Module {
  ParamNet(int64_t in, int64_t hidden) {
    fc1 = register_module("fc1", nn::Linear(in, hidden));
    fc2 = register_module("fc2", nn::Linear(256, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = x.view({x.size(0), -1});
    return fc2(fc1(x));
  }
  nn::Linear fc1{nullptr}, fc2{nullptr};
};

struct ConditionalNet : nn::Module {
  explicit ConditionalNet(bool big) {
    if (big)
      fc1 = register_module("fc1", nn::Linear(784, 256));
    else
      fc1 = register_module("fc1", nn::Linear(784, 128));
    fc2 = register_module("fc2", nn::Linear(256, 10));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(fc1(x)); }
  nn::Linear fc1{nullptr}, fc2{nullptr};
};

struct ViewOkNet : nn::Module {
  ViewOkNet() {
    conv = register_module("conv", nn::Conv2d(1, 16, 5));
    fc = register_module("fc", nn::Linear(256, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(conv(x));
    x = x.view({-1, 256});
    auto h = fc(x);
    return h;
  }
  nn::Conv2d conv{nullptr};
  nn::Linear fc{nullptr};
};

struct PooledTextNet : nn::Module {
  // The mean over the sequence: not modelled, so nothing is said.
  PooledTextNet() {
    emb = register_module("emb", nn::Embedding(1000, 64));
    out = register_module("out", nn::Linear(64, 2));
  }
  torch::Tensor forward(torch::Tensor tokens) { return out(emb(tokens).mean(1)); }
  nn::Embedding emb{nullptr};
  nn::Linear out{nullptr};
};

struct SequentialMemberOkNet : nn::Module {
  SequentialMemberOkNet() {
    body = register_module("body", nn::Sequential(nn::Linear(10, 20), nn::ReLU()));
    head = register_module("head", nn::Linear(20, 1));
  }
  torch::Tensor forward(torch::Tensor x) { return head(body->forward(x)); }
  nn::Sequential body{nullptr};
  nn::Linear head{nullptr};
};

struct HugeSizesNet : nn::Module {
  // Products that do not fit in 64 bits are unknown, not wrapped around.
  HugeSizesNet() { fc = register_module("fc", nn::Linear(16, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::zeros({int64_t(1) << 40, int64_t(1) << 40, 16}).flatten(0, 1);
    x = x.reshape({-1, 16});
    return fc(x);
  }
  nn::Linear fc{nullptr};
};

template <int64_t In, int64_t Out> struct TemplateNet : nn::Module {
  TemplateNet() {
    fc1 = register_module("fc1", nn::Linear(In, Out));
    fc2 = register_module("fc2", nn::Linear(Out, 1));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(fc1(x)); }
  nn::Linear fc1{nullptr}, fc2{nullptr};
};
TemplateNet<8, 4> template_net;
