// Analysed because the header it includes changed.
#include "trainer.h"

void run(torch::nn::Linear &model, torch::Tensor x, torch::Tensor y) { train_in_header(model, x, y); }
