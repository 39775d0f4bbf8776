// Mock of LibTorch 1.13 <torch/csrc/autograd/autograd.h>, plus
// <torch/csrc/autograd/variable.h> (Variable), <.../function_hook.h>
// (variable_list) and <.../grad_mode.h>. (torch::autograd::InferenceMode, from
// <torch/csrc/autograd/InferenceMode.h>, is not reachable from <torch/torch.h>
// in 1.13 and is deliberately absent.)
#pragma once

#include <ATen/ATen.h>

#include <vector>

namespace torch {
namespace autograd {

using Variable = at::Tensor;
using variable_list = std::vector<Variable>;

using GradMode = at::GradMode;
using AutoGradMode = at::AutoGradMode;

TORCH_API void backward(
    const variable_list& tensors,
    const variable_list& grad_tensors = {},
    c10::optional<bool> retain_graph = c10::nullopt,
    bool create_graph = false,
    const variable_list& inputs = {});

TORCH_API variable_list grad(
    const variable_list& outputs,
    const variable_list& inputs,
    const variable_list& grad_outputs = {},
    c10::optional<bool> retain_graph = c10::nullopt,
    bool create_graph = false,
    bool allow_unused = false);

} // namespace autograd
} // namespace torch
