// Module classes written in odd ways: macros, templates (instantiated or not),
// CRTP, virtual and multiple inheritance, recursive and deep helper chains,
// constructor templates, anonymous unions. Nothing crashes, fix-its never land
// in macros, and what cannot be followed is not reported.
// RUN: %check_torch_tidy %s torch-unregistered-module-member %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-unregistered-module-member %t.real -- %real_flags

#include <torch/torch.h>

#include <memory>

#define LAYER(name) torch::nn::Linear name{nullptr}
#define BUILD(name, n) name = torch::nn::Linear(n, n)

// Members and stores written by macros: reported, no fix-it in a macro.
struct MacroImpl : torch::nn::Module {
  MacroImpl() { BUILD(fc, 4); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  LAYER(fc);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: submodule 'fc' is never registered
};

// A template never instantiated: dependent, not analysed.
template <typename T> struct NeverUsedImpl : torch::nn::Module {
  NeverUsedImpl() { fc = torch::nn::Linear(4, 4); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
  T extra;
};

// CRTP: the base template registers for the derived class.
template <typename Derived> struct RegisteringBase : torch::nn::Module {
  template <typename M> M add(const std::string &name, M m) {
    return this->register_module(name, m);
  }
};
struct CrtpImpl : RegisteringBase<CrtpImpl> {
  CrtpImpl() { fc = add("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// Virtual and multiple inheritance.
struct Mixin {
  virtual ~Mixin() = default;
  int tag = 0;
};
struct MultiImpl : virtual torch::nn::Module, Mixin {
  MultiImpl() { fc = torch::nn::Linear(4, 4); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'fc' is never registered
  // CHECK-FIXES: {{^}}  MultiImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }{{$}}
};

// Mutually recursive helpers, the registration at the end of the chain.
struct RecursiveImpl : torch::nn::Module {
  RecursiveImpl() { a(2); }
  void a(int n) {
    if (n > 0)
      b(n - 1);
    else
      fc = register_module("fc", torch::nn::Linear(4, 4));
  }
  void b(int n) { a(n); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// A helper chain deeper than MaxCallDepth that gets *this: not followed, silent.
void deep5(torch::nn::Module &m, torch::nn::Linear &l) { m.register_module("l", l); }
void deep4(torch::nn::Module &m, torch::nn::Linear &l) { deep5(m, l); }
void deep3(torch::nn::Module &m, torch::nn::Linear &l) { deep4(m, l); }
void deep2(torch::nn::Module &m, torch::nn::Linear &l) { deep3(m, l); }
void deep1(torch::nn::Module &m, torch::nn::Linear &l) { deep2(m, l); }
struct DeepImpl : torch::nn::Module {
  DeepImpl() {
    l = torch::nn::Linear(4, 4);
    deep1(*this, l);
  }
  torch::Tensor forward(torch::Tensor x) { return l(x); }
  torch::nn::Linear l{nullptr};
};

// A constructor template: not analysed, silent.
struct CtorTemplateImpl : torch::nn::Module {
  template <typename... Args> explicit CtorTemplateImpl(Args... args) {
    fc = torch::nn::Linear(args...);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
void useCtorTemplate() { CtorTemplateImpl m(4, 4); }

// Anonymous unions and bit-fields next to a registered member.
struct UnionImpl : torch::nn::Module {
  UnionImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(torch::Tensor x) { return mode ? fc(x) : x * scale; }
  union {
    int mode;
    float scale;
  };
  unsigned flags : 3;
  torch::nn::Linear fc;
};

// A module holding a pointer to its own type, and a self-referencing lambda.
struct SelfImpl : torch::nn::Module {
  SelfImpl() {
    auto self = [this](auto &&rec, int n) -> void {
      if (n > 0)
        rec(rec, n - 1);
      else
        fc = register_module("fc", torch::nn::Linear(4, 4));
    };
    self(self, 2);
  }
  torch::Tensor forward(torch::Tensor x) { return next ? next->forward(fc(x)) : fc(x); }
  std::shared_ptr<SelfImpl> next;
  torch::nn::Linear fc{nullptr};
};

// A local class, and a module inside a namespace used through an alias.
namespace deep { namespace inner {
struct NsImpl : torch::nn::Module {
  NsImpl() { fc = torch::nn::Linear(4, 4); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  using Layer = torch::nn::Linear;
  Layer fc{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: submodule 'fc' is never registered
  // CHECK-FIXES: {{^}}  NsImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }{{$}}
};
}} // namespace deep::inner
void localClass() {
  struct LocalImpl : torch::nn::Module {
    LocalImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
    torch::nn::Linear fc{nullptr};
  };
  LocalImpl l;
}

// Arrays and handed-in tensors written oddly: a module that constructs
// itself recursively through a handed tensor, a vector of vectors, an array
// of arrays, a vector of an unregistered-but-dependent element type, a
// handed tensor of a constructor template, a vector filled with a range.
struct SelfMakingImpl : torch::nn::Module {
  explicit SelfMakingImpl(torch::Tensor t, int depth = 0) : t_(t) {
    if (depth < 2)
      child = register_module("child", std::make_shared<SelfMakingImpl>(t_, depth + 1));
  }
  torch::Tensor forward(torch::Tensor x) { return x * t_; }
  torch::Tensor t_;
  std::shared_ptr<SelfMakingImpl> child;
};
struct NestedArraysImpl : torch::nn::Module {
  NestedArraysImpl() {
    grid.push_back(std::vector<torch::nn::Linear>{torch::nn::Linear(2, 2)});
    std::vector<torch::nn::Linear> more{torch::nn::Linear(2, 2)};
    flat.insert(flat.end(), more.begin(), more.end());
    for (auto &l : more)
      register_module("more", l);
  }
  torch::Tensor forward(torch::Tensor x) { return grid[0][0](flat[0](x)) + cells[0][0](x); }
  std::vector<std::vector<torch::nn::Linear>> grid;
  std::vector<torch::nn::Linear> flat;
  torch::nn::Linear cells[2][2]{{nullptr, nullptr}, {nullptr, nullptr}};
};
template <typename T> struct ArrayOfTImpl : torch::nn::Module {
  ArrayOfTImpl() { items.emplace_back(); }
  std::vector<T> items;
};
struct TemplCtorImpl : torch::nn::Module {
  template <typename T> explicit TemplCtorImpl(T t) : t_(t) {}
  torch::Tensor forward(torch::Tensor x) { return x * t_; }
  torch::Tensor t_;
};
void oddArrays() {
  ArrayOfTImpl<int> a;
  TemplCtorImpl b(torch::ones({2}));
  SelfMakingImpl c(torch::ones({2}));
}
