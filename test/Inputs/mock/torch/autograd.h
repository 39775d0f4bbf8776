// Mock of LibTorch 1.13 <torch/autograd.h>.
#pragma once

#include <torch/csrc/autograd/autograd.h>
