#include "layers.h"

struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc = register_module("fc", torch::nn::Linear(8, 8));
    block = register_module("block", Block());
    mean = register_buffer("mean", torch::zeros({8}));
    var = register_buffer("var", torch::ones({8}));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = noisy(fc(x));                   // P1
    x = normed(x, mean, var);           // P2
    x = through(x);                     // P3: noisy() through a helper there
    x = in_lambda(x);                   // P4: F::dropout in a lambda there
    x = drop_if(x, is_training());      // N1: the module's mode
    x = zero_rate(x);                   // N2: a zero rate
    x = eval_norm(x, mean, var);        // N3: training off by default
    if (is_training())
      x = noisy(x);                     // N4: only while training
    return block(x);                    // N5: judged in layers.cpp
  }
  torch::nn::Linear fc{nullptr};
  Block block{nullptr};
  torch::Tensor mean, var;
};

// N6: not a method of a module; its caller decides.
torch::Tensor augment(const torch::Tensor &x) { return noisy(x); }
