// Mock of LibTorch 1.13 <ATen/ATen.h>.
#pragma once

#include <ATen/Functions.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/TensorBody.h>
#include <ATen/core/grad_mode.h>
#include <c10/core/GradMode.h>
#include <c10/core/InferenceMode.h>
