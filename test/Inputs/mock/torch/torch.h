// Mock of LibTorch 1.13 <torch/torch.h> (Debian libtorch-dev 1.13).
//
// Entry point of the parse-only mock LibTorch used by the lit tests
// (`-isystem test/Inputs/mock`). Names, namespaces, class hierarchy, template
// parameters, default arguments and return types mirror the real headers; see
// README.md for the provenance of each file and the known omissions.
#pragma once

#include <torch/all.h>
