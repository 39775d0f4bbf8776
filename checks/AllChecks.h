//===--- AllChecks.h - every check's header ---------------------*- C++ -*-===//
#ifndef TORCH_TIDY_ALLCHECKS_H
#define TORCH_TIDY_ALLCHECKS_H

#include "AliasedModuleCopyCheck.h"
#include "BceOnLogitsCheck.h"
#include "DiscardedTensorResultCheck.h"
#include "DropoutTrainingFlagCheck.h"
#include "FromBlobLifetimeCheck.h"
#include "GradAccumulationCheck.h"
#include "GraphBreakCheck.h"
#include "InplaceOnRequiresGradCheck.h"
#include "InplaceOnSavedTensorCheck.h"
#include "LayerShapeMismatchCheck.h"
#include "LossActivationMismatchCheck.h"
#include "LossBroadcastCheck.h"
#include "MissingEvalCheck.h"
#include "MissingZeroGradCheck.h"
#include "ModuleHardcodedDeviceCheck.h"
#include "RetainedLossGraphCheck.h"
#include "SchedulerMisuseCheck.h"
#include "UnnamedGradGuardCheck.h"
#include "UnregisteredModuleMemberCheck.h"

#endif
