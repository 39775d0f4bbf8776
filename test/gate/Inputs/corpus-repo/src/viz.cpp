#include <opencv2/opencv.hpp>
#include "net/model.h"

torch::Tensor show(Net &model, torch::Tensor x) { return model->forward(x); }
