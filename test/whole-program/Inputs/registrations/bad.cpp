#include "net.h"
void setup_layers(NetImpl &net) { net.fc = torch::nn::Linear(4, 1); }
torch::nn::Linear make_fc(torch::nn::Module &owner) {
  return torch::nn::Linear(4, 1);
}
