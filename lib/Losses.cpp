//===--- Losses.cpp - which loss a call computes, and on what -------------===//
#include "torch-tidy/Losses.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torch_tidy {

namespace {

struct LossModule {
  const char *Impl;
  LossKind Kind;
  const char *Name; ///< the holder, as messages name it
};

const LossModule LossModules[] = {
    {"torch::nn::BCELossImpl", LossKind::BCE, "torch::nn::BCELoss"},
    {"torch::nn::BCEWithLogitsLossImpl", LossKind::BCEWithLogits,
     "torch::nn::BCEWithLogitsLoss"},
    {"torch::nn::NLLLossImpl", LossKind::NLL, "torch::nn::NLLLoss"},
    {"torch::nn::CrossEntropyLossImpl", LossKind::CrossEntropy,
     "torch::nn::CrossEntropyLoss"},
    {"torch::nn::MSELossImpl", LossKind::MSE, "torch::nn::MSELoss"},
    {"torch::nn::L1LossImpl", LossKind::L1, "torch::nn::L1Loss"},
    {"torch::nn::SmoothL1LossImpl", LossKind::SmoothL1,
     "torch::nn::SmoothL1Loss"},
    {"torch::nn::HuberLossImpl", LossKind::Huber, "torch::nn::HuberLoss"},
};

struct LossFunction {
  const char *Name; ///< qualified as declared
  LossKind Kind;
  LossForm Form;
};

const LossFunction LossFunctions[] = {
    {"at::binary_cross_entropy", LossKind::BCE, LossForm::Function},
    {"torch::nn::functional::binary_cross_entropy", LossKind::BCE,
     LossForm::NNFunction},
    {"at::binary_cross_entropy_with_logits", LossKind::BCEWithLogits,
     LossForm::Function},
    {"torch::nn::functional::binary_cross_entropy_with_logits",
     LossKind::BCEWithLogits, LossForm::NNFunction},
    {"at::nll_loss", LossKind::NLL, LossForm::Function},
    {"at::nll_loss2d", LossKind::NLL, LossForm::Function},
    {"at::nll_loss_nd", LossKind::NLL, LossForm::Function},
    {"torch::nn::functional::nll_loss", LossKind::NLL, LossForm::NNFunction},
    {"at::cross_entropy_loss", LossKind::CrossEntropy, LossForm::Function},
    {"torch::nn::functional::cross_entropy", LossKind::CrossEntropy,
     LossForm::NNFunction},
    {"at::mse_loss", LossKind::MSE, LossForm::Function},
    {"torch::nn::functional::mse_loss", LossKind::MSE, LossForm::NNFunction},
    {"at::l1_loss", LossKind::L1, LossForm::Function},
    {"torch::nn::functional::l1_loss", LossKind::L1, LossForm::NNFunction},
    {"at::smooth_l1_loss", LossKind::SmoothL1, LossForm::Function},
    {"torch::nn::functional::smooth_l1_loss", LossKind::SmoothL1,
     LossForm::NNFunction},
    {"at::huber_loss", LossKind::Huber, LossForm::Function},
    {"torch::nn::functional::huber_loss", LossKind::Huber,
     LossForm::NNFunction},
};

} // namespace

bool isRegressionLoss(LossKind Kind) {
  return Kind == LossKind::MSE || Kind == LossKind::L1 ||
         Kind == LossKind::SmoothL1 || Kind == LossKind::Huber;
}

LossCall builtinLossCall(const CallExpr *Call,
                         const ActivationAnalysis &Analysis) {
  LossCall L;
  if (!Call || !Call->getDirectCallee())
    return L;
  const Expr *Obj = nullptr;
  unsigned First = 0;
  if (const CXXRecordDecl *Impl = Analysis.moduleCall(Call, &Obj, &First)) {
    if (Call->getNumArgs() <= First)
      return L;
    for (const LossModule &M : LossModules)
      if (hasQualifiedName(Impl, M.Impl)) {
        L.Kind = M.Kind;
        L.Form = LossForm::Module;
        L.Call = Call;
        L.Input = Call->getArg(First);
        if (Call->getNumArgs() > First + 1)
          L.Target = Call->getArg(First + 1);
        L.Object = Obj;
        return L;
      }
    return L;
  }
  if (Call->getNumArgs() < 1 || isa<CXXMemberCallExpr>(Call) ||
      isa<CXXOperatorCallExpr>(Call))
    return L;
  const FunctionDecl *FD = Call->getDirectCallee();
  for (const LossFunction &F : LossFunctions)
    if (hasQualifiedName(FD, F.Name)) {
      L.Kind = F.Kind;
      L.Form = F.Form;
      L.Call = Call;
      L.Input = Call->getArg(0);
      if (Call->getNumArgs() > 1 && !isa<CXXDefaultArgExpr>(Call->getArg(1)))
        L.Target = Call->getArg(1);
      L.Callee = FD;
      return L;
    }
  return L;
}

std::string describeLoss(LossKind Kind, LossForm Form) {
  if (Form == LossForm::Module) {
    for (const LossModule &M : LossModules)
      if (M.Kind == Kind)
        return "'" + std::string(M.Name) + "'";
    return "";
  }
  // The first function of each kind is its usual spelling.
  for (const LossFunction &F : LossFunctions)
    if (F.Kind == Kind && F.Form == Form) {
      llvm::StringRef Name(F.Name);
      if (Name.consume_front("at::"))
        return "'torch::" + Name.str() + "'";
      return "'" + Name.str() + "'";
    }
  return "";
}

std::string describeLoss(const LossCall &L) {
  if (L.Form == LossForm::Module || !L.Callee || !L.Callee->getIdentifier())
    return describeLoss(L.Kind, L.Form);
  // at:: functions are spelt torch:: in user code.
  return std::string(L.Form == LossForm::Function
                         ? "'torch::"
                         : "'torch::nn::functional::") +
         L.Callee->getName().str() + "'";
}

WrittenActivation writtenActivation(const Expr *E) {
  WrittenActivation W;
  const auto *CE = dyn_cast_or_null<CallExpr>(stripExpr(E, Strip::SameValue));
  if (!CE || !CE->getDirectCallee() || !CE->getDirectCallee()->getIdentifier())
    return W;
  const FunctionDecl *FD = CE->getDirectCallee();
  llvm::StringRef Name = FD->getName();
  auto Written = [](const Expr *A) { return !isa<CXXDefaultArgExpr>(A); };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    if (!isTensorClass(MC->getMethodDecl()->getParent()))
      return W;
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (!ME)
      return W;
    if (Name == "sigmoid" && MC->getNumArgs() == 0) {
      W.Op = ActivationOp::Sigmoid;
    } else if (Name == "softmax" && MC->getNumArgs() == 2 &&
               MC->getArg(0)->getType()->isIntegerType()) {
      W.Op = ActivationOp::Softmax;
      W.Dim = MC->getArg(0);
      W.HasDtype = Written(MC->getArg(1));
    } else {
      return W;
    }
    W.Call = CE;
    W.Operand = MC->getImplicitObjectArgument();
    W.NameLoc = ME->getMemberLoc();
    return W;
  }
  if (isa<CXXOperatorCallExpr>(CE) || CE->getNumArgs() < 1)
    return W;
  if (CE->getNumArgs() == 1 && (hasQualifiedName(FD, "at::sigmoid") ||
                                hasQualifiedName(FD, "torch::special::expit") ||
                                hasQualifiedName(FD, "at::special_expit"))) {
    W.Op = ActivationOp::Sigmoid;
  } else if (CE->getNumArgs() == 3 && hasQualifiedName(FD, "at::softmax") &&
             CE->getArg(1)->getType()->isIntegerType()) {
    W.Op = ActivationOp::Softmax;
    W.Dim = CE->getArg(1);
    W.HasDtype = Written(CE->getArg(2));
  } else if (CE->getNumArgs() == 2 &&
             hasQualifiedName(FD, "torch::nn::functional::softmax")) {
    W.Op = ActivationOp::Softmax;
  } else {
    return W;
  }
  W.Call = CE;
  W.Operand = CE->getArg(0);
  if (const auto *Ref =
          dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreImpCasts()))
    W.NameLoc = Ref->getLocation();
  return W;
}

std::optional<std::string> writtenText(const Expr *E, const SourceManager &SM,
                                       const LangOptions &LO) {
  SourceRange R = E->getSourceRange();
  if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return std::nullopt;
  StringRef T = Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO);
  if (T.empty())
    return std::nullopt;
  return T.str();
}

ActivationOptions::ActivationOptions(const OptionReader &Reader)
    : RawProbabilityFunctions(Reader.getNameList("ProbabilityFunctions")),
      RawLogitFunctions(Reader.getNameList("LogitFunctions")),
      RawLogitModules(Reader.getNameList("LogitModules")) {
  Config.ProbabilityFunctions = parseList(RawProbabilityFunctions);
  Config.LogitFunctions = parseList(RawLogitFunctions);
  Config.LogitModules = parseList(RawLogitModules);
  Config.MaxCallDepth = Reader.getCount("MaxCallDepth", DefaultMaxCallDepth);
  Config.Program = programSummary(Reader.context());
}

void ActivationOptions::store(const tidy::ClangTidyCheck::OptionsView &Options,
                              tidy::ClangTidyOptions::OptionMap &Opts) const {
  Options.store(Opts, "ProbabilityFunctions", RawProbabilityFunctions);
  Options.store(Opts, "LogitFunctions", RawLogitFunctions);
  Options.store(Opts, "LogitModules", RawLogitModules);
  Options.store(Opts, "MaxCallDepth", Config.MaxCallDepth);
}

} // namespace torch_tidy
