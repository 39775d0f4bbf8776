//===--- AllChecks.h - every check's header ----------------------*- C++ -*-===//
#ifndef TORCH_TIDY_ALLCHECKS_H
#define TORCH_TIDY_ALLCHECKS_H

#include "MissingZeroGradCheck.h"
#include "ModuleHardcodedDeviceCheck.h"
#include "InplaceOnRequiresGradCheck.h"
#include "BceOnLogitsCheck.h"
#include "UnregisteredModuleMemberCheck.h"

#endif
