// Options: in-house registration functions (defined in another translation
// unit here), and --dump-config shows what was set.
// RUN: %check_torch_tidy %s torch-unregistered-module-member %t.mock -config="{CheckOptions: [{key: torch-unregistered-module-member.RegistrationFunctions, value: 'mylib::add;mylib::ModuleBase::track'}]}" -- %mock_flags
// RUN: %check_torch_tidy %s torch-unregistered-module-member %t.real -config="{CheckOptions: [{key: torch-unregistered-module-member.RegistrationFunctions, value: 'mylib::add;mylib::ModuleBase::track'}]}" -- %real_flags
// RUN: %clang_tidy_torch -checks='-*,torch-unregistered-module-member' -config="{CheckOptions: [{key: torch-unregistered-module-member.RegistrationFunctions, value: 'mylib::add'}, {key: torch-unregistered-module-member.MaxCallDepth, value: 2}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-unregistered-module-member.MaxCallDepth: '2'
// DUMP-DAG: torch-unregistered-module-member.RegistrationFunctions: 'mylib::add'

#include <torch/torch.h>

#include <string>

namespace mylib {
// In-house registration helpers whose bodies live in another translation unit.
void add(torch::nn::Module &owner, const std::string &name, torch::nn::Linear &layer);
struct ModuleBase : torch::nn::Module {
  torch::nn::Linear track(const std::string &name, torch::nn::Linear layer);
};
} // namespace mylib

// A listed function registers what it is given; the member it is not given
// is reported (without the option, the unknown call would silence the class).
struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc = torch::nn::Linear(4, 4);
    mylib::add(*this, "fc", fc);
    head = torch::nn::Linear(4, 2);
    // CHECK-FIXES: {{^}}    head = register_module("head", torch::nn::Linear(4, 2));{{$}}
  }
  torch::Tensor forward(torch::Tensor x) { return head(fc(x)); }
  torch::nn::Linear fc{nullptr}, head{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: submodule 'head' is never registered {{.*}} [torch-unregistered-module-member]
};

// A listed method (and so its uses in derived classes): its result is registered.
struct DerivedImpl : mylib::ModuleBase {
  DerivedImpl() {
    enc = track("enc", torch::nn::Linear(4, 4));
    dec = torch::nn::Linear(4, 4);
    track("dec", dec);
  }
  torch::Tensor forward(torch::Tensor x) { return dec(enc(x)); }
  torch::nn::Linear enc{nullptr}, dec{nullptr};
};
