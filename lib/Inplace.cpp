//===--- Inplace.cpp - in-place operations on tensors ---------------------===//
#include "torch-tidy/Inplace.h"
#include "torch-tidy/Compat.h"
#include "torch-tidy/Types.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

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

namespace {
/// Walks one body (lambda bodies excluded: they are functions of their own),
/// each expression with the statement it makes up.
class ExprWalker {
public:
  explicit ExprWalker(llvm::function_ref<void(const Expr *, const Stmt *)> Fn)
      : Fn(Fn) {}

  /// A statement and the statement it makes up (or null).
  using Item = std::pair<const Stmt *, const Stmt *>;

  /// Visits \p Root and everything below it in the order of a recursive walk,
  /// each statement with the statement it makes up (or null), keeping its own
  /// stack so any depth of nesting is safe.
  void walk(const Stmt *Root, const Stmt *RootStatement) {
    llvm::SmallVector<Item, 32> Work{{Root, RootStatement}};
    llvm::SmallVector<Item, 8> Next; // the children of one statement, in order
    while (!Work.empty()) {
      auto [S, Statement] = Work.pop_back_val();
      if (!S)
        continue;
      Next.clear();
      visit(S, Statement, Next);
      Work.append(Next.rbegin(), Next.rend());
    }
  }

private:
  void visit(const Stmt *S, const Stmt *Statement,
             llvm::SmallVectorImpl<Item> &Next) {
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      for (const Expr *Init : L->capture_inits())
        Next.push_back({Init, nullptr});
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      const Expr *Whole =
          Statement && isa<Expr>(Statement)
              ? cast<Expr>(Statement)->IgnoreImplicit()->IgnoreParens()
              : nullptr;
      if (Whole != E && Whole && isWrapper(E)) {
        // ExprWithCleanups and friends around the statement's expression.
        for (const Stmt *Child : S->children())
          Next.push_back({Child, Statement});
        return;
      }
      Fn(E, Whole == E ? Statement : nullptr);
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body())
        Next.push_back({Child, Child});
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      Next.push_back({If->getInit(), If->getInit()});
      Next.push_back({If->getConditionVariableDeclStmt(), nullptr});
      Next.push_back({If->getCond(), nullptr});
      Next.push_back({If->getThen(), If->getThen()});
      Next.push_back({If->getElse(), If->getElse()});
      return;
    }
    if (const auto *Sub = bodyOf(S)) {
      for (const Stmt *Child : S->children())
        Next.push_back({Child, Child == Sub ? Sub : nullptr});
      return;
    }
    for (const Stmt *Child : S->children())
      Next.push_back({Child, nullptr});
  }

  static bool isWrapper(const Expr *E) {
    return isa<ExprWithCleanups>(E) || isa<ImplicitCastExpr>(E) ||
           isa<ParenExpr>(E) || isa<MaterializeTemporaryExpr>(E) ||
           isa<CXXBindTemporaryExpr>(E) || isa<FullExpr>(E);
  }

  static const Stmt *bodyOf(const Stmt *S) {
    if (const auto *F = dyn_cast<ForStmt>(S))
      return F->getBody();
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
      return R->getBody();
    if (const auto *W = dyn_cast<WhileStmt>(S))
      return W->getBody();
    if (const auto *D = dyn_cast<DoStmt>(S))
      return D->getBody();
    if (const auto *C = dyn_cast<SwitchCase>(S))
      return C->getSubStmt();
    if (const auto *L = dyn_cast<LabelStmt>(S))
      return L->getSubStmt();
    return nullptr;
  }

  llvm::function_ref<void(const Expr *, const Stmt *)> Fn;
};
} // namespace

void forEachExprWithStatement(
    const Stmt *Root, llvm::function_ref<void(const Expr *, const Stmt *)> Fn) {
  ExprWalker(Fn).walk(Root, nullptr);
}

} // namespace torch_tidy
