//===--- Inplace.cpp - in-place operations on tensors ---------------------===//
#include "torch-tidy/Inplace.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Types.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torch_tidy {

namespace {

StringRef nameOf(const NamedDecl *D) {
  return D && D->getIdentifier() ? D->getName() : StringRef();
}

/// In-place methods of at::Tensor that change no values autograd tracks.
bool isMetadataOnly(StringRef N) {
  return compat::isOneOf(
      {"requires_grad_", "rename_", "detach_", "share_memory_"}, N);
}

bool isTensorObject(const Expr *E) {
  return E && isTensorClass(pointeeClass(E->getType()));
}

const char *compoundSpelling(OverloadedOperatorKind K, const char **Plain) {
  switch (K) {
  case OO_PlusEqual:
    *Plain = "+";
    return "+=";
  case OO_MinusEqual:
    *Plain = "-";
    return "-=";
  case OO_StarEqual:
    *Plain = "*";
    return "*=";
  case OO_SlashEqual:
    *Plain = "/";
    return "/=";
  case OO_AmpEqual:
    *Plain = "&";
    return "&=";
  case OO_PipeEqual:
    *Plain = "|";
    return "|=";
  case OO_CaretEqual:
    *Plain = "^";
    return "^=";
  default:
    return nullptr;
  }
}

} // namespace

std::optional<InplaceOp> matchInplace(const Expr *E) {
  // Only calls change a tensor in place. The test comes first: this is asked
  // of every expression, and getExprLoc() of most others is getBeginLoc(),
  // which walks down the first operand of a chain (`a + b + c ...`,
  // `x.view().view()...`) and so made a long chain quadratic.
  if (!isa_and_nonnull<CallExpr>(E))
    return std::nullopt;
  InplaceOp Op;
  Op.Call = E;
  Op.Loc = E->getExprLoc();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (OC->getNumArgs() != 2 || !isTensorObject(OC->getArg(0)))
      return std::nullopt;
    const char *Plain = nullptr;
    if (const char *S = compoundSpelling(OC->getOperator(), &Plain)) {
      Op.Target = OC->getArg(0);
      Op.Spelling = S;
      Op.OutOfPlace = Plain;
      return Op;
    }
    // `w[0] = v` writes into a temporary view: Tensor::operator=() &&.
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    if (OC->getOperator() == OO_Equal && MD &&
        MD->getRefQualifier() == RQ_RValue) {
      Op.Target = OC->getArg(0);
      Op.Spelling = "=";
      return Op;
    }
    return std::nullopt;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    StringRef N = nameOf(MD);
    if (!MD || !isTensorClass(MD->getParent()) || !compat::endsWith(N, "_") ||
        compat::startsWith(N, "_") || isMetadataOnly(N))
      return std::nullopt;
    Op.Target = MC->getImplicitObjectArgument();
    Op.Spelling = N.str();
    Op.OutOfPlace = N.drop_back().str();
    if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
      Op.NameLoc = ME->getMemberLoc();
    return Op;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // at::relu_(t), torch::sigmoid_(t): ATen's in-place functions. The
    // initialisers of torch::nn::init disable autograd themselves.
    const FunctionDecl *FD = CE->getDirectCallee();
    StringRef N = nameOf(FD);
    if (!FD || !compat::endsWith(N, "_") || compat::startsWith(N, "_") ||
        CE->getNumArgs() == 0 || FD->getNumParams() == 0 || isMetadataOnly(N))
      return std::nullopt;
    const auto *NS = dyn_cast<NamespaceDecl>(FD->getDeclContext());
    if (!NS || !(hasQualifiedName(NS, "at") || hasQualifiedName(NS, "torch")))
      return std::nullopt;
    QualType P0 = FD->getParamDecl(0)->getType();
    if (!P0->isLValueReferenceType() ||
        P0.getNonReferenceType().isConstQualified() ||
        !isTensorObject(CE->getArg(0)))
      return std::nullopt;
    Op.Target = CE->getArg(0);
    Op.Spelling = N.str();
    Op.OutOfPlace = (NS->getName() + "::" + N.drop_back()).str();
    if (const auto *Callee =
            dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreImpCasts())) {
      Op.Loc = Callee->getLocation(); // `relu_` in `torch::relu_(p)`
      Op.NameLoc = Op.Loc;
    }
    return Op;
  }
  return std::nullopt;
}

bool hasOutOfPlaceForm(const InplaceOp &Op) {
  const auto *CE = dyn_cast_or_null<CallExpr>(Op.Call);
  if (!CE || isa<CXXOperatorCallExpr>(CE) || Op.NameLoc.isInvalid())
    return false;
  const FunctionDecl *FD = CE->getDirectCallee();
  StringRef N = nameOf(FD);
  if (!compat::endsWith(N, "_"))
    return false;
  const DeclContext *DC = FD->getDeclContext();
  ASTContext &Ctx = FD->getASTContext();
  for (const NamedDecl *D :
       DC->lookup(DeclarationName(&Ctx.Idents.get(N.drop_back()))))
    if (isa<FunctionDecl>(D->getUnderlyingDecl()) ||
        isa<FunctionTemplateDecl>(D->getUnderlyingDecl()))
      return true;
  return false;
}

} // namespace torch_tidy
