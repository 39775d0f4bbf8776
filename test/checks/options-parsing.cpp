// Every kind of option value is parsed the same way: a value that does not
// parse gets one configuration diagnostic naming the check, the option and the
// value, and the default is used (seen in what the check reports and in
// --dump-config). Shown on torch-module-hardcoded-device, which has all kinds.
//
// A list with an entry that is not a qualified name ('a, b' written with a
// comma): the default (no allowed class), so both classes are reported...
// RUN: %check_torch_tidy -check-suffixes=BADLIST,AUTO %s torch-module-hardcoded-device %t.badlist -config="{CheckOptions: [{key: torch-module-hardcoded-device.AllowedClasses, value: 'PlainImpl, AutoImpl'}]}" -- %mock_flags
// CHECK-MESSAGES-BADLIST: warning: invalid configuration value 'PlainImpl, AutoImpl' for option 'torch-module-hardcoded-device.AllowedClasses'; expected a ';'-separated list of qualified names; using the default '' [clang-tidy-config]
// ...a good list is used.
// RUN: %check_torch_tidy %s torch-module-hardcoded-device %t.goodlist -config="{CheckOptions: [{key: torch-module-hardcoded-device.AllowedClasses, value: 'PlainImpl; ::AutoImpl'}]}" -- %mock_flags
//
// A bool that is none: the default (false), so the device picked with
// is_available() is reported...
// RUN: %check_torch_tidy -check-suffixes=BADBOOL,AUTO %s torch-module-hardcoded-device %t.badbool -config="{CheckOptions: [{key: torch-module-hardcoded-device.IgnoreAvailabilitySelection, value: maybe}, {key: torch-module-hardcoded-device.AllowedClasses, value: PlainImpl}]}" -- %mock_flags
// CHECK-MESSAGES-BADBOOL: warning: invalid configuration value 'maybe' for option 'torch-module-hardcoded-device.IgnoreAvailabilitySelection'; expected a bool ('true' or 'false'); using the default 'false' [clang-tidy-config]
// ...and yes/no, on/off, 1/0 are read as clang-tidy reads them.
// RUN: %check_torch_tidy %s torch-module-hardcoded-device %t.yes -config="{CheckOptions: [{key: torch-module-hardcoded-device.IgnoreAvailabilitySelection, value: yes}, {key: torch-module-hardcoded-device.AllowedClasses, value: PlainImpl}]}" -- %mock_flags
// RUN: %check_torch_tidy -check-suffix=AUTO %s torch-module-hardcoded-device %t.no -config="{CheckOptions: [{key: torch-module-hardcoded-device.IgnoreAvailabilitySelection, value: no}, {key: torch-module-hardcoded-device.AllowedClasses, value: PlainImpl}]}" -- %mock_flags
//
// A word that is not one of the choices: the default (WhenMoved), so the CPU
// literal of a translation unit that moves no module is not reported.
// RUN: %check_torch_tidy -check-suffix=BADCHOICE %s torch-module-hardcoded-device %t.badchoice -config="{CheckOptions: [{key: torch-module-hardcoded-device.FlagCPU, value: Sometimes}, {key: torch-module-hardcoded-device.AllowedClasses, value: 'PlainImpl;AutoImpl'}]}" -- %mock_flags
// CHECK-MESSAGES-BADCHOICE: warning: invalid configuration value 'Sometimes' for option 'torch-module-hardcoded-device.FlagCPU'; expected 'WhenMoved', 'Always' or 'Never'; using the default 'WhenMoved' [clang-tidy-config]
//
// Integers: not a number, negative.
// RUN: %check_torch_tidy -check-suffix=BADINT %s torch-module-hardcoded-device %t.badint -config="{CheckOptions: [{key: torch-module-hardcoded-device.MaxCallDepth, value: 'abc'}, {key: torch-module-hardcoded-device.AllowedClasses, value: 'PlainImpl;AutoImpl'}]}" -- %mock_flags
// CHECK-MESSAGES-BADINT: warning: invalid configuration value 'abc' for option 'torch-module-hardcoded-device.MaxCallDepth'; expected a non-negative integer; using the default '4' [clang-tidy-config]
// RUN: %check_torch_tidy -check-suffix=NEGINT %s torch-module-hardcoded-device %t.negint -config="{CheckOptions: [{key: torch-module-hardcoded-device.MaxCallDepth, value: '-3'}, {key: torch-module-hardcoded-device.AllowedClasses, value: 'PlainImpl;AutoImpl'}]}" -- %mock_flags
// CHECK-MESSAGES-NEGINT: warning: invalid configuration value '-3' for option 'torch-module-hardcoded-device.MaxCallDepth'; expected a non-negative integer; using the default '4' [clang-tidy-config]
//
// --dump-config stores the value in effect: the default after a bad value.
// With no file analysed (--dump-config, --list-checks) clang-tidy 14 to 16 have
// no diagnostics engine and crash on a configuration diagnostic: bad values are
// then only replaced by the default, never reported, and nothing crashes.
// RUN: %clang_tidy_torch -checks='-*,torch-module-hardcoded-device' -config="{CheckOptions: [{key: torch-module-hardcoded-device.MaxCallDepth, value: abc}]}" --list-checks | FileCheck %s --check-prefix=LIST
// LIST: torch-module-hardcoded-device
// RUN: %clang_tidy_torch -checks='-*,torch-module-hardcoded-device,torch-bce-on-logits,torch-missing-zero-grad' -config="{CheckOptions: [{key: torch-module-hardcoded-device.AllowedClasses, value: 'a, b'}, {key: torch-module-hardcoded-device.IgnoreAvailabilitySelection, value: maybe}, {key: torch-module-hardcoded-device.FlagCPU, value: Sometimes}, {key: torch-module-hardcoded-device.MaxCallDepth, value: '-3'}, {key: torch-bce-on-logits.SuggestWithLogits, value: no}, {key: torch-missing-zero-grad.MaxCallDepth, value: abc}, {key: torch-missing-zero-grad.ZeroGradFunctions, value: 'mylib::reset;mylib::Trainer::clear'}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-module-hardcoded-device.AllowedClasses: ''
// DUMP-DAG: torch-module-hardcoded-device.IgnoreAvailabilitySelection: 'false'
// DUMP-DAG: torch-module-hardcoded-device.FlagCPU: WhenMoved
// DUMP-DAG: torch-module-hardcoded-device.MaxCallDepth: '4'
// DUMP-DAG: torch-bce-on-logits.SuggestWithLogits: 'false'
// DUMP-DAG: torch-missing-zero-grad.MaxCallDepth: '4'
// DUMP-DAG: torch-missing-zero-grad.ZeroGradFunctions: 'mylib::reset;mylib::Trainer::clear'

#include <torch/torch.h>

// An accelerator literal: always reported, unless the class is allowed.
struct PlainImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + torch::ones({2}, torch::kCUDA); }
  // CHECK-MESSAGES-BADLIST: :[[@LINE-1]]:72: warning: module 'PlainImpl' places a tensor on the hard-coded device 'torch::kCUDA', so the module fails on machines without CUDA
};

// A device picked with is_available(): reported unless IgnoreAvailabilitySelection.
struct AutoImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::Device dev = torch::kCPU;
    if (torch::cuda::is_available())
      dev = torch::kCUDA;
    return x + torch::zeros({2}, dev);
    // CHECK-MESSAGES-AUTO: :[[@LINE-1]]:34: warning: module 'AutoImpl' places a tensor on a device picked with 'torch::cuda::is_available()'
  }
};

// A CPU literal in a translation unit that moves no module: reported only with
// FlagCPU=Always.
struct CountsImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x + torch::zeros({10}, torch::TensorOptions().device(torch::kCPU));
  }
};
