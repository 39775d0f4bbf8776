//===--- ModuleHardcodedDeviceCheck.cpp - torch-module-hardcoded-device ---===//
//
// Rule: code of a torch::nn::Module subclass (its methods, constructors,
// in-class member initialisers, and the helpers of the translation unit they
// call) must not place tensors on a device written as a literal. An
// accelerator literal is always reported; a device picked with
// torch::cuda::is_available() too, with its own message; a CPU literal only when
// the translation unit moves a module with to(device) (FlagCPU).
//
//===----------------------------------------------------------------------===//
#include "ModuleHardcodedDeviceCheck.h"

#include "torch-tidy/Anchor.h"
#include "torch-tidy/Options.h"
#include "torch-tidy/TrainingLoop.h"
#include "torch-tidy/WholeProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

ModuleHardcodedDeviceCheck::ModuleHardcodedDeviceCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawAllowedClasses(
          OptionReader(Options, Name, Context).getNameList("AllowedClasses")),
      RawAllowedDeviceFunctions(OptionReader(Options, Name, Context)
                                    .getNameList("AllowedDeviceFunctions")),
      RawFlagCPU(OptionReader(Options, Name, Context)
                     .getChoice("FlagCPU", {"WhenMoved", "Always", "Never"},
                                "WhenMoved")),
      IgnoreAvailabilitySelection(
          OptionReader(Options, Name, Context)
              .getBool("IgnoreAvailabilitySelection", false)) {
  AllowedClasses = parseList(RawAllowedClasses);
  Config.AllowedDeviceFunctions = parseList(RawAllowedDeviceFunctions);
  Config.MaxCallDepth = OptionReader(Options, Name, Context)
                            .getCount("MaxCallDepth", DefaultMaxCallDepth);
  Config.Program = programSummary(Context);
  if (RawFlagCPU == "Always")
    CPU = CPUMode::Always;
  else if (RawFlagCPU == "Never")
    CPU = CPUMode::Never;
}

void ModuleHardcodedDeviceCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AllowedClasses", RawAllowedClasses);
  Options.store(Opts, "AllowedDeviceFunctions", RawAllowedDeviceFunctions);
  Options.store(Opts, "FlagCPU", RawFlagCPU);
  Options.store(Opts, "IgnoreAvailabilitySelection",
                IgnoreAvailabilitySelection ? "true" : "false");
  Options.store(Opts, "MaxCallDepth", Config.MaxCallDepth);
}

void ModuleHardcodedDeviceCheck::onStartOfTranslationUnit() {
  Analysis.reset();
  Moved = false;
  Findings.clear();
  Seen.clear();
}

void ModuleHardcodedDeviceCheck::registerMatchers(MatchFinder *Finder) {
  registerAnchor(*Finder, *this);
}

bool ModuleHardcodedDeviceCheck::isAllowedClass(const CXXRecordDecl *RD) const {
  return llvm::any_of(AllowedClasses, [&](const std::string &N) {
    return isSameOrDerivedFrom(RD, N);
  });
}

void ModuleHardcodedDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  if (handOverUserCode(
          *this, Result,
          {{UserCode::Functions, "fn"}, {UserCode::Classes, "class"}}))
    return;
  if (!Analysis)
    Analysis.emplace(Config);
  SM = Result.SourceManager;
  LangOpts = &Result.Context->getLangOpts();

  if (const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn")) {
    // Templates are analysed once per instantiation, where types are known.
    if (FD->isDependentContext() || FD->isInvalidDecl())
      return;
    if (!Moved && CPU == CPUMode::WhenMoved)
      Moved = Analysis->movesModule(FD);
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (!MD || !isModuleClass(MD->getParent(), Config.Types) ||
        isAllowedClass(MD->getParent()))
      return;
    for (const DevicePlacement &P : Analysis->placements(FD))
      add(P, MD->getParent());
    return;
  }

  const auto *RD = Result.Nodes.getNodeAs<CXXRecordDecl>("class");
  if (!RD || RD->isDependentContext() || RD->isInvalidDecl() ||
      !isModuleClass(RD, Config.Types) || isAllowedClass(RD))
    return;
  for (const FieldDecl *F : RD->fields())
    if (F->hasInClassInitializer())
      for (const DevicePlacement &P :
           Analysis->placements(F->getInClassInitializer()))
        add(P, RD);
}

static SourceLocation locOf(const Expr *E) {
  if (!E)
    return SourceLocation();
  if (isa<CXXMemberCallExpr>(E))
    return E->getExprLoc(); // the method name: `.cuda()`, `.device_index(1)`
  return E->getBeginLoc();
}

/// Where the warning goes: always a line of the module's own code.
static SourceLocation warningLoc(const DevicePlacement &P) {
  if (P.ViaCall)
    return locOf(P.ViaCall);
  if (!P.Device.Through && P.Device.Written)
    return locOf(P.Device.Written);
  return P.DeviceArg ? locOf(P.DeviceArg) : locOf(P.Call);
}

void ModuleHardcodedDeviceCheck::add(const DevicePlacement &P,
                                     const CXXRecordDecl *Module) {
  if (!P.Device.isLiteral())
    return;
  bool Selected = !availabilityQuery(P).empty();
  if (Selected && IgnoreAvailabilitySelection)
    return;
  bool IsCPU = !P.Device.Accelerator;
  if (IsCPU && (CPU == CPUMode::Never || P.HostRead))
    return;
  SourceLocation Loc = warningLoc(P);
  if (Loc.isInvalid() || !Seen.insert(Loc.getRawEncoding()).second)
    return;
  Findings.push_back({P, Module, IsCPU});
}

void ModuleHardcodedDeviceCheck::onEndOfTranslationUnit() {
  for (const Finding &F : Findings)
    if (!F.CPU || CPU == CPUMode::Always || Moved)
      report(F);
  Findings.clear();
}

void ModuleHardcodedDeviceCheck::report(const Finding &F) {
  const DevicePlacement &P = F.P;
  const DeviceProvenance &D = P.Device;
  const CallExpr *Query = D.Availability ? D.Availability : P.UnderAvailability;
  std::string QueryName = availabilityQuery(P);
  bool Selected = !QueryName.empty();
  std::string Placed = P.Remote   ? P.Remote->Placed
                       : D.Remote ? D.Remote->Placed
                                  : describePlacement(D, *SM, *LangOpts);

  std::string Subject = "module '" + F.Module->getNameAsString() + "' ";
  if (P.Via)
    Subject += "calls " + describeFunction(P.Via) + ", which ";
  const char *Advice =
      "take the device from the input (e.g. 'x.device()' or 'x.options()'), "
      "a parameter, a buffer or a constructor argument";
  std::string Msg;
  if (Selected)
    Msg = Subject + "places a tensor on a device picked with '" + QueryName +
          "' instead of the module's own device, so it ignores 'to(device)' "
          "and breaks when "
          "the model is moved to the CPU or to another GPU; " +
          Advice;
  else if (F.CPU)
    Msg = Subject + Placed +
          ", so the tensor stays on the CPU when the module is moved with "
          "'to(device)' and no "
          "longer matches the module's parameters and inputs; " +
          Advice;
  else
    Msg = Subject + Placed + ", so the module fails on machines without " +
          D.TypeName + " and ignores 'to(device)'; " + Advice;
  diag(warningLoc(P), "%0") << Msg;

  SourceLocation WrittenLoc = locOf(D.Written);
  if (P.Via && P.Call && D.Through)
    diag(locOf(P.Call), "the tensor is placed here", DiagnosticIDs::Note);
  if (D.Through && WrittenLoc.isValid()) {
    std::string Name = "'" + D.Through->getNameAsString() + "'";
    if (isa<FunctionDecl>(D.Through))
      diag(WrittenLoc, "%0 returns the hard-coded device here",
           DiagnosticIDs::Note)
          << Name;
    else if (isa<FieldDecl>(D.Through))
      diag(WrittenLoc, "member %0 is set to the hard-coded device here",
           DiagnosticIDs::Note)
          << Name;
    else
      diag(WrittenLoc, "%0 is set to the hard-coded device here",
           DiagnosticIDs::Note)
          << Name;
  } else if (D.Through && D.Remote) {
    // Returned by a function of another file.
    SourceLocation There = remoteLocation(*SM, D.Remote->Site);
    if (There.isValid())
      diag(There, "%0 returns the hard-coded device here", DiagnosticIDs::Note)
          << ("'" + D.Through->getNameAsString() + "'");
  } else if (P.Remote) {
    SourceLocation There = remoteLocation(*SM, P.Remote->Site);
    if (There.isValid())
      diag(There, "the hard-coded device is written here", DiagnosticIDs::Note);
  } else if (P.Via && WrittenLoc.isValid()) {
    diag(WrittenLoc, "the hard-coded device is written here",
         DiagnosticIDs::Note);
  }
  if (Selected && Query)
    diag(locOf(Query),
         "the device is picked here from what the machine has, not from where "
         "the module lives",
         DiagnosticIDs::Note);
}

} // namespace torch_tidy
