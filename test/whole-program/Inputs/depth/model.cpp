#include "net.h"

NetImpl::NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 1)); }
torch::Tensor NetImpl::forward(torch::Tensor x) { return head(fc, x); }

ProbNetImpl::ProbNetImpl() {
  fc = register_module("fc", torch::nn::Linear(4, 1));
}
torch::Tensor ProbNetImpl::forward(torch::Tensor x) { return prob_head(fc, x); }

Trainer::Trainer(Net net)
    : net(net), opt(net->parameters(), torch::optim::SGDOptions(0.1)) {}
void Trainer::finish_step() { apply_step(opt); }
void Trainer::begin_step() { clear(opt); }
