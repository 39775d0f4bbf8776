// RUN: %check_torch_tidy %s torch-unregistered-module-member %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-unregistered-module-member %t.real -- %real_flags

#include <torch/torch.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

// ---------------------------------------------------------------- positives

// P1: a Linear built in the constructor body, never registered.
struct P1Impl : torch::nn::Module {
  P1Impl(int64_t in, int64_t out) {
    fc = torch::nn::Linear(in, out);
    // CHECK-FIXES: {{^}}    fc = register_module("fc", torch::nn::Linear(in, out));{{$}}
  }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'fc' is never registered with 'register_module()': its parameters are missing from 'parameters()', so the optimizer never updates them, and 'to()', 'train()'/'eval()' and 'save()'/'load()' skip it; assign it with 'fc = register_module("fc", ...)' where it is built [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-6]]:10: note: constructor 'P1Impl(int64_t, int64_t)' stores a new module in 'fc' here without registering it
  // CHECK-MESSAGES: :[[@LINE-4]]:51: note: 'fc' is used here
};

// P2: a tensor made to require grad: a parameter, never registered.
struct P2Impl : torch::nn::Module {
  P2Impl() {
    w = torch::randn({4, 4}, torch::requires_grad());
    // CHECK-FIXES: {{^}}    w = register_parameter("w", torch::randn({4, 4}, torch::requires_grad()));{{$}}
  }
  torch::Tensor forward(torch::Tensor x) { return x.matmul(w); }
  torch::Tensor w;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'w' requires grad but is never registered with 'register_parameter()': it is missing from 'parameters()', so the optimizer never updates it, and 'to()' and 'save()'/'load()' skip it; assign it with 'w = register_parameter("w", ...)' where it is built [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-6]]:9: note: constructor 'P2Impl()' stores a new tensor in 'w' here without registering it
};

// P3: a tensor built in the init list: parameter or buffer cannot be told, so
// the message names both and there is no fix-it.
struct P3Impl : torch::nn::Module {
  P3Impl() : scale(torch::ones({4})) {}
  torch::Tensor forward(torch::Tensor x) { return x * scale; }
  torch::Tensor scale;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'scale' is never registered with 'register_parameter()' or 'register_buffer()': it is missing from 'parameters()' and 'buffers()', so the optimizer never updates it and 'to()' and 'save()'/'load()' skip it; register it with 'register_parameter()' if it is learned or 'register_buffer()' if it is fixed state [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-4]]:20: note: constructor 'P3Impl()' stores a new tensor in 'scale' here without registering it
};

// P4: a std::shared_ptr to a module.
struct P4Impl : torch::nn::Module {
  P4Impl() { proj = std::make_shared<torch::nn::LinearImpl>(8, 8); }
  // CHECK-FIXES: {{^}}  P4Impl() { proj = register_module("proj", std::make_shared<torch::nn::LinearImpl>(8, 8)); }{{$}}
  torch::Tensor forward(torch::Tensor x) { return proj->forward(x); }
  std::shared_ptr<torch::nn::LinearImpl> proj;
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: submodule 'proj' is never registered {{.*}} assign it with 'proj = register_module("proj", ...)' where it is built
};

// P5: a Sequential built in the member-initializer list.
struct P5Impl : torch::nn::Module {
  P5Impl() : body(torch::nn::Sequential(torch::nn::Linear(4, 4), torch::nn::ReLU())) {}
  // CHECK-FIXES: {{^}}  P5Impl() : body(register_module("body", torch::nn::Sequential(torch::nn::Linear(4, 4), torch::nn::ReLU()))) {}{{$}}
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body;
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: submodule 'body' is never registered
};

// P6: a default-constructed Sequential filled in the constructor; no fix-it
// (nothing is assigned that could be wrapped).
struct P6Impl : torch::nn::Module {
  P6Impl() {
    layers->push_back(torch::nn::Linear(4, 4));
    layers->push_back(torch::nn::Tanh());
  }
  torch::Tensor forward(torch::Tensor x) { return layers->forward(x); }
  torch::nn::Sequential layers;
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: submodule 'layers' is never registered
};

// P7: registered by one constructor but not by the other; the fix reuses the
// other constructor's name.
struct P7Impl : torch::nn::Module {
  P7Impl() : fc(register_module("classifier", torch::nn::Linear(4, 2))) {}
  explicit P7Impl(int64_t in) { fc = torch::nn::Linear(in, 2); }
  // CHECK-FIXES: {{^}}  explicit P7Impl(int64_t in) { fc = register_module("classifier", torch::nn::Linear(in, 2)); }{{$}}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'fc' is not registered by constructor 'P7Impl(int64_t)', although constructor 'P7Impl()' registers it: modules built by constructor 'P7Impl(int64_t)' miss its parameters in 'parameters()', so the optimizer never updates them, and 'to()', 'train()'/'eval()' and 'save()'/'load()' skip it; register it there too [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-5]]:38: note: constructor 'P7Impl(int64_t)' stores a new module in 'fc' here without registering it
  // CHECK-MESSAGES: :[[@LINE-7]]:17: note: constructor 'P7Impl()' registers it here
};

// P8: a default member initializer and the implicit constructor; no fix-it.
struct P8Impl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return head(x); }
  torch::nn::Linear head{4, 2};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'head' is never registered
  // CHECK-MESSAGES: :[[@LINE-2]]:25: note: the implicit default constructor stores a new module in 'head' here without registering it
};

// P9: a Cloneable whose reset() builds without registering; clone() calls
// reset(), and so does the constructor.
struct P9Impl : torch::nn::Cloneable<P9Impl> {
  explicit P9Impl(int64_t n) : n(n) { reset(); }
  void reset() override { fc = torch::nn::Linear(n, n); }
  // CHECK-FIXES: {{^}}  void reset() override { fc = register_module("fc", torch::nn::Linear(n, n)); }{{$}}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  int64_t n;
  torch::nn::Linear fc{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'fc' is never registered
  // CHECK-MESSAGES: :[[@LINE-6]]:32: note: 'reset()' stores a new module in 'fc' here without registering it
};

// P10: built through a helper method of the class; no fix-it (the helper
// could be called again later).
struct P10Impl : torch::nn::Module {
  P10Impl() { build(3); }
  void build(int64_t n) { enc = torch::nn::Linear(n, n); }
  torch::Tensor forward(torch::Tensor x) { return enc->forward(x); }
  torch::nn::Linear enc{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'enc' is never registered
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: constructor 'P10Impl()' stores a new module in 'enc' here, through 'build', without registering it
};

// P11: a TORCH_MODULE holder of the user's own module, with the class
// declared first and the constructor defined out of line (as in a header and
// its .cpp); the registration name drops the trailing underscore.
struct BlockImpl : torch::nn::Module {
  BlockImpl() : lin(register_module("lin", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(torch::Tensor x) { return lin(x); }
  torch::nn::Linear lin;
};
TORCH_MODULE(Block);
class P11Impl : public torch::nn::Module {
 public:
  P11Impl();
  torch::Tensor forward(torch::Tensor x);

 private:
  Block block_{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: submodule 'block_' is never registered {{.*}} assign it with 'block_ = register_module("block", ...)' where it is built
  // CHECK-MESSAGES: :[[@LINE+2]]:31: note: constructor 'P11Impl()' stores a new module in 'block_' here
};
P11Impl::P11Impl() { block_ = Block(); }
// CHECK-FIXES: {{^}}P11Impl::P11Impl() { block_ = register_module("block", Block()); }{{$}}
torch::Tensor P11Impl::forward(torch::Tensor x) { return block_(x); }
// CHECK-MESSAGES: :[[@LINE-1]]:58: note: 'block_' is used here

// P12: set_requires_grad(true) makes it a parameter.
struct P12Impl : torch::nn::Module {
  P12Impl() {
    bias_ = torch::zeros({4});
    // CHECK-FIXES: {{^}}    bias_ = register_parameter("bias", torch::zeros({4}));{{$}}
    bias_.set_requires_grad(true);
  }
  torch::Tensor forward(torch::Tensor x) { return x + bias_; }
  torch::Tensor bias_;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'bias_' requires grad but is never registered {{.*}} 'bias_ = register_parameter("bias", ...)'
};

// P13: built in a local variable first.
struct P13Impl : torch::nn::Module {
  P13Impl() {
    auto l = torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3));
    conv = l;
    // CHECK-FIXES: {{^}}    conv = register_module("conv", l);{{$}}
  }
  torch::Tensor forward(torch::Tensor x) { return conv(x); }
  torch::nn::Conv2d conv{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'conv' is never registered
};

// P14: a class template, reported once for its two instantiations.
template <int N> struct P14Impl : torch::nn::Module {
  P14Impl() { fc = torch::nn::Linear(N, N); }
  // CHECK-FIXES: {{^}}  P14Impl() { fc = register_module("fc", torch::nn::Linear(N, N)); }{{$}}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'fc' is never registered
};
void useP14() {
  P14Impl<3> a;
  P14Impl<4> b;
}

// P15: built only when an option asks for it, and then not registered.
struct P15Impl : torch::nn::Module {
  explicit P15Impl(bool project) {
    if (project)
      proj = torch::nn::Linear(4, 4);
    // CHECK-FIXES: {{^}}      proj = register_module("proj", torch::nn::Linear(4, 4));{{$}}
  }
  torch::Tensor forward(torch::Tensor x) { return proj ? proj(x) : x; }
  torch::nn::Linear proj{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'proj' is never registered
};

// P16: an unregistered Dropout: no parameters, but train()/eval() never reach
// it, so it keeps dropping activations at evaluation time.
struct P16Impl : torch::nn::Module {
  P16Impl() : fc(register_module("fc", torch::nn::Linear(4, 4))) { drop = torch::nn::Dropout(0.5); }
  // CHECK-FIXES: {{^}}  P16Impl() : fc(register_module("fc", torch::nn::Linear(4, 4))) { drop = register_module("drop", torch::nn::Dropout(0.5)); }{{$}}
  torch::Tensor forward(torch::Tensor x) {
    auto f = [&](torch::Tensor t) { return drop(t); };
    return f(fc(x));
  }
  torch::nn::Linear fc;
  torch::nn::Dropout drop{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: submodule 'drop' is never registered with 'register_module()': 'train()'/'eval()' do not reach it, so it keeps dropping activations after 'eval()', at validation and inference, and 'to()' and 'save()'/'load()' skip it; assign it with 'drop = register_module("drop", ...)' where it is built [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-6]]:44: note: 'drop' is used here
};

// P17: built by a factory function of the translation unit.
torch::nn::Linear make_head(int64_t n) { return torch::nn::Linear(n, 1); }
struct P17Impl : torch::nn::Module {
  P17Impl() { head = make_head(4); }
  // CHECK-FIXES: {{^}}  P17Impl() { head = register_module("head", make_head(4)); }{{$}}
  torch::Tensor forward(torch::Tensor x) { return head(x); }
  torch::nn::Linear head{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'head' is never registered
};

// ---------------------------------------------------------------- negatives

// N1: registered in the member-initializer list.
struct N1Impl : torch::nn::Module {
  N1Impl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

// N2: registered in the body: a submodule, a parameter and a buffer.
struct N2Impl : torch::nn::Module {
  N2Impl() {
    fc = register_module("fc", torch::nn::Linear(4, 2));
    w = register_parameter("w", torch::randn({2}));
    mean = register_buffer("mean", torch::zeros({2}));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x) * w - mean; }
  torch::nn::Linear fc{nullptr};
  torch::Tensor w, mean;
};

// N3: built first, registered afterwards (holder, .ptr(), shared_ptr, tensor).
struct N3Impl : torch::nn::Module {
  N3Impl() {
    fc = torch::nn::Linear(4, 2);
    register_module("fc", fc);
    seq = torch::nn::Sequential(torch::nn::Linear(2, 2));
    register_module("seq", seq.ptr());
    p = std::make_shared<torch::nn::LinearImpl>(2, 2);
    register_module("p", p);
    t = torch::zeros({2});
    register_buffer("t", t);
  }
  torch::Tensor forward(torch::Tensor x) { return p->forward(seq->forward(fc(x))) + t; }
  torch::nn::Linear fc{nullptr};
  torch::nn::Sequential seq{nullptr};
  std::shared_ptr<torch::nn::LinearImpl> p;
  torch::Tensor t;
};

// N4: registered through a helper of the TU that takes the member by reference.
template <typename M>
void add_layer(torch::nn::Module &self, const std::string &name, M &member) {
  self.register_module(name, member);
}
struct N4Impl : torch::nn::Module {
  N4Impl() {
    fc = torch::nn::Linear(4, 2);
    add_layer(*this, "fc", fc);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// N5: registered through a helper that returns the registration.
torch::nn::Linear make_linear(torch::nn::Module &self, const std::string &name, int64_t n) {
  return self.register_module(name, torch::nn::Linear(n, n));
}
struct N5Impl : torch::nn::Module {
  N5Impl() { fc = make_linear(*this, "fc", 4); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// N6: a Cloneable that registers in reset(), which the constructor calls.
struct N6Impl : torch::nn::Cloneable<N6Impl> {
  explicit N6Impl(int64_t n) : n(n) { reset(); }
  void reset() override {
    fc = register_module("fc", torch::nn::Linear(n, n));
    w = register_parameter("w", torch::ones({n}));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x) * w; }
  int64_t n;
  torch::nn::Linear fc{nullptr};
  torch::Tensor w;
};

// N7: plain config values.
struct N7Impl : torch::nn::Module {
  N7Impl(int64_t h, double p, bool b, std::string n)
      : hidden(h), dropout_p(p), use_bias(b), name(std::move(n)),
        opts(torch::nn::LinearOptions(h, h).bias(b)) {}
  torch::Tensor forward(torch::Tensor x) { return use_bias ? x * dropout_p * hidden : x; }
  int64_t hidden;
  double dropout_p;
  bool use_bias;
  std::string name;
  torch::nn::LinearOptions opts;
};

// N8: tensors used as scratch: assigned in forward() only, or replaced there
// (a cache is not module state).
struct N8Impl : torch::nn::Module {
  N8Impl() : fc(register_module("fc", torch::nn::Linear(4, 4))), last_(torch::zeros({1})) {}
  torch::Tensor forward(torch::Tensor x) {
    auto y = fc(x);
    last_ = y.detach();
    cache_ = y.mean();
    return y;
  }
  torch::nn::Linear fc;
  torch::Tensor last_;
  torch::Tensor cache_;
};

// N9: the constructor is defined in another translation unit: it may register.
struct N9Impl : torch::nn::Module {
  N9Impl();
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// N10: a module and a tensor handed in by the caller (weight tying, a shared
// encoder, class weights): their owner registers them.
struct N10Impl : torch::nn::Module {
  explicit N10Impl(torch::nn::Embedding shared, torch::Tensor weights)
      : emb(shared), class_weights(weights) {}
  torch::Tensor forward(torch::Tensor x) { return emb(x) * class_weights; }
  torch::nn::Embedding emb;
  torch::Tensor class_weights;
};

// N11: registered through a generic lambda, by result and by argument.
struct N11Impl : torch::nn::Module {
  N11Impl() {
    auto reg = [this](const std::string &n, auto m) { return register_module(n, m); };
    fc = reg("fc", torch::nn::Linear(4, 4));
    out = torch::nn::Linear(4, 1);
    reg("out", out);
  }
  torch::Tensor forward(torch::Tensor x) { return out(fc(x)); }
  torch::nn::Linear fc{nullptr}, out{nullptr};
};

// N12: registered as part of a Sequential or a ModuleList.
struct N12Impl : torch::nn::Module {
  N12Impl() {
    fc1 = torch::nn::Linear(4, 4);
    fc2 = torch::nn::Linear(4, 4);
    seq = register_module("seq", torch::nn::Sequential(fc1, torch::nn::ReLU()));
    list = register_module("list", torch::nn::ModuleList());
    list->push_back(fc2);
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(seq->forward(fc1(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::nn::Sequential seq{nullptr};
  torch::nn::ModuleList list{nullptr};
};

// N13: left null by the constructor, built and registered later.
struct N13Impl : torch::nn::Module {
  N13Impl() {}
  void build() { head = register_module("head", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return head(x); }
  torch::nn::Linear head{nullptr};
};

// N14: built but never used: costs memory, not training.
struct N14Impl : torch::nn::Module {
  N14Impl() { spare = torch::nn::Linear(4, 4); }
  torch::Tensor forward(torch::Tensor x) { return x; }
  torch::nn::Linear spare{nullptr};
};

// N15: a base class member that the derived class registers.
struct N15BaseImpl : torch::nn::Module {
  N15BaseImpl() { fc = torch::nn::Linear(4, 4); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }

 protected:
  torch::nn::Linear fc{nullptr};
};
struct N15Impl : N15BaseImpl {
  N15Impl() { register_module("fc", fc); }
};

// N16: locals registered before they are stored.
struct N16Impl : torch::nn::Module {
  N16Impl() {
    auto a = register_module("a", torch::nn::Linear(4, 4));
    fa = a;
    torch::nn::Linear b(4, 4);
    register_module("b", b);
    fb = b;
  }
  torch::Tensor forward(torch::Tensor x) { return fb(fa->forward(x)); }
  std::shared_ptr<torch::nn::LinearImpl> fa;
  torch::nn::Linear fb{nullptr};
};

// N17: one constructor delegates to the other, which registers.
struct N17Impl : torch::nn::Module {
  N17Impl() : N17Impl(4) {}
  explicit N17Impl(int64_t n) { fc = register_module("fc", torch::nn::Linear(n, n)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// N18: not a module: nothing to register with.
struct N18Config {
  N18Config() { fc = torch::nn::Linear(4, 4); }
  torch::Tensor apply(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// N19: registered in a loop over a container of holders: not traced, silent.
struct N19Impl : torch::nn::Module {
  N19Impl() {
    a = torch::nn::Linear(4, 4);
    b = torch::nn::Linear(4, 4);
    std::vector<std::pair<std::string, torch::nn::Linear>> all{{"a", a}, {"b", b}};
    for (auto &kv : all)
      register_module(kv.first, kv.second);
  }
  torch::Tensor forward(torch::Tensor x) { return b(a(x)); }
  torch::nn::Linear a{nullptr}, b{nullptr};
};

// N20: the constructor hands the module to code of another translation unit.
void register_everything(torch::nn::Module &m);
struct N20Impl : torch::nn::Module {
  N20Impl() {
    fc = torch::nn::Linear(4, 4);
    register_everything(*this);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// N21: registered by a member function helper taking the member by reference,
// and with replace_module.
struct N21Impl : torch::nn::Module {
  N21Impl() {
    enc = torch::nn::Linear(4, 4);
    add("enc", enc);
    dec = register_module("dec", torch::nn::Linear(4, 4));
    dec = replace_module("dec", torch::nn::Linear(4, 4));
  }
  void add(const std::string &n, torch::nn::Linear &l) { register_module(n, l); }
  torch::Tensor forward(torch::Tensor x) { return dec(enc(x)); }
  torch::nn::Linear enc{nullptr}, dec{nullptr};
};

// N22: registered under a condition, built under the same condition.
struct N22Impl : torch::nn::Module {
  explicit N22Impl(bool bias) {
    if (bias)
      b = register_parameter("b", torch::zeros({4}));
    else
      b = torch::Tensor();
  }
  torch::Tensor forward(torch::Tensor x) { return b.defined() ? x + b : x; }
  torch::Tensor b;
};

// N23: stateless modules (activations, pooling, reshaping, Functional) have
// nothing to register.
struct N23Impl : torch::nn::Module {
  N23Impl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {
    act = torch::nn::ReLU();
    pool = torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2));
    flat = torch::nn::Flatten();
    fn = torch::nn::Functional(torch::relu);
  }
  torch::Tensor forward(torch::Tensor x) { return fn(flat(pool(act(fc(x))))); }
  torch::nn::Linear fc;
  torch::nn::ReLU act{nullptr};
  torch::nn::MaxPool2d pool{nullptr};
  torch::nn::Flatten flat{nullptr};
  torch::nn::Functional fn{nullptr};
};

// N24: registered inside a lambda handed to a helper, and inside the
// assignment that builds it.
template <typename F> void call_once(F f) { f(); }
struct N24Impl : torch::nn::Module {
  N24Impl() {
    call_once([this] { fc = register_module("fc", torch::nn::Linear(4, 4)); });
    register_module("out", out = torch::nn::Linear(4, 2));
  }
  torch::Tensor forward(torch::Tensor x) { return out(fc(x)); }
  torch::nn::Linear fc{nullptr}, out{nullptr};
};

// N25: registered by a lambda given to a library algorithm, through its
// parameter: not traced, so silent.
struct N25Impl : torch::nn::Module {
  N25Impl() {
    a = torch::nn::Linear(4, 4);
    std::vector<torch::nn::Linear> layers{a};
    std::for_each(layers.begin(), layers.end(),
                  [this](torch::nn::Linear &l) { register_module("a", l); });
  }
  torch::Tensor forward(torch::Tensor x) { return a(x); }
  torch::nn::Linear a{nullptr};
};

// N26: suppressed with NOLINT.
struct N26Impl : torch::nn::Module {
  N26Impl() { fc = torch::nn::Linear(4, 4); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr}; // NOLINT(torch-unregistered-module-member)
};

// N27: a factory of another translation unit, and a reference into a
// container: both may hand out modules registered elsewhere.
torch::nn::Linear shared_encoder();
struct N27Impl : torch::nn::Module {
  explicit N27Impl(std::vector<torch::nn::Linear> &pool) {
    enc = shared_encoder();
    dec = pool.at(0);
  }
  torch::Tensor forward(torch::Tensor x) { return dec(enc(x)); }
  torch::nn::Linear enc{nullptr}, dec{nullptr};
};

// N28: added to a local container that a registered ModuleDict is built from
// or updated with: the dictionary registers them.
struct N28Impl : torch::nn::Module {
  N28Impl() {
    a = torch::nn::Linear(4, 2);
    b = torch::nn::Linear(4, 2);
    c = torch::nn::Linear(4, 2);
    std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>> v;
    v.emplace_back("a", a.ptr());
    v.push_back({"c", c.ptr()});
    heads = register_module("heads", torch::nn::ModuleDict(v));
    torch::OrderedDict<std::string, std::shared_ptr<torch::nn::Module>> more;
    more.insert("b", b.ptr());
    heads->update(more);
  }
  torch::Tensor forward(torch::Tensor x) { return a(x) + b(x) + c(x); }
  torch::nn::Linear a{nullptr}, b{nullptr}, c{nullptr};
  torch::nn::ModuleDict heads{nullptr};
};

// P-look-alike: added to a local container that nothing registers.
struct P28Impl : torch::nn::Module {
  P28Impl() {
    a = torch::nn::Linear(4, 2);
    std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>> v;
    v.emplace_back("a", a.ptr());
    heads = register_module("heads", torch::nn::ModuleDict());
  }
  torch::Tensor forward(torch::Tensor x) { return a(x); }
  torch::nn::Linear a{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'a' is never registered with 'register_module()'{{.*}} [torch-unregistered-module-member]
  // CHECK-MESSAGES: :[[@LINE-8]]:9: note: constructor 'P28Impl()' stores a new module in 'a' here without registering it
  // CHECK-MESSAGES: :[[@LINE-4]]:51: note: 'a' is used here
  // CHECK-FIXES: {{^}}    a = register_module("a", torch::nn::Linear(4, 2));{{$}}
  torch::nn::ModuleDict heads{nullptr};
};
