//===--- Summaries.h - memoised per-function summaries ----------*- C++ -*-===//
//
// The one summary engine of the rooms that follow calls (TrainingLoop,
// Activation, Devices, ModuleModel). An analysis that reads a helper's body
// to learn what a call of it does keeps what it learnt as a summary of that
// helper, so each body is read once per translation unit. Three rules come
// with that, and they live here rather than in each room:
//
//  * The call depth. The function a check asks about is level 0; a function
//    entered by a call written in it is level 1, and so on. A function at
//    level N is read when N <= MaxCallDepth (the option of the same name of
//    every check that follows calls): with MaxCallDepth = 0 no helper is read,
//    with 2 a helper and the helpers it calls are read, theirs are not.
//  * Truncation. A summary computed while the depth bound cut something off
//    below it is incomplete, and the summaries being computed around it are
//    incomplete too. A summary computed without a cut is complete and is
//    reused wherever the function is called again, at any level (reading it
//    again could only give the same answer or cut it). An incomplete one is
//    reused only at the level it was computed at, where reading again would
//    cut at the same place: a helper called four times by each of a chain of
//    helpers is then read once per level, not once per path (4^MaxCallDepth
//    reads before).
//  * Recursion. A function whose summary is being computed is not entered
//    again: the call gives the empty summary (it adds nothing new), which is
//    not a cut.
//
// SummaryEngine holds the bound, the functions in progress and the truncation
// state of one analysis; a Summaries table per kind of summary memoises on
// top of one engine, so that tables of one analysis share the recursion
// guard (a room that summarises a function in two ways does not enter it
// twice).
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_SUMMARIES_H
#define TORCH_TIDY_SUMMARIES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace torch_tidy {

/// The default of every check's MaxCallDepth option.
constexpr unsigned DefaultMaxCallDepth = 4;

/// The call-depth bound, recursion guard and truncation state shared by the
/// summaries of one analysis; see the file comment.
class SummaryEngine {
public:
  explicit SummaryEngine(unsigned MaxCallDepth) : MaxCallDepth(MaxCallDepth) {}

  unsigned maxCallDepth() const { return MaxCallDepth; }

  /// Whether a function \p Level calls below the one asked about is read.
  bool follows(unsigned Level) const { return Level <= MaxCallDepth; }

  /// Something below the summaries being computed was not read (the depth
  /// bound, or code the analysis cannot read whole): they are incomplete.
  void cutOff() { Truncated = true; }

  /// Marks \p Key (a function, a variable, a write) as being computed; false
  /// when it already is, i.e. the analysis came back to it (recursion).
  bool enter(const void *Key) { return InProgress.insert(Key).second; }
  void leave(const void *Key) { InProgress.erase(Key); }
  bool inProgress(const void *Key) const { return InProgress.count(Key); }

  /// Runs \p Compute as the computation of one summary: it starts with no
  /// cut, and a cut inside it is a cut of the summaries around it too.
  /// Returns true when \p Compute ran with nothing cut off (complete).
  template <typename Fn> bool complete(Fn Compute) {
    bool Outer = Truncated;
    Truncated = false;
    Compute();
    bool Cut = Truncated;
    Truncated = Cut || Outer;
    return !Cut;
  }

private:
  unsigned MaxCallDepth;
  llvm::DenseSet<const void *> InProgress;
  bool Truncated = false;
};

/// One table of memoised summaries on a SummaryEngine. \p Value must be
/// default-constructible: the default value is the empty summary (what a call
/// not followed contributes).
template <typename Key, typename Value> class Summaries {
public:
  explicit Summaries(SummaryEngine &Engine) : Engine(Engine) {}

  /// The summary of function \p K read at \p Level: the memoised one, or the
  /// empty summary when \p Level is beyond the bound (a cut) or \p K is in
  /// progress, else \p Compute() (memoised when complete).
  template <typename Fn> Value get(Key K, unsigned Level, Fn Compute) {
    return get(K, K, Level, Compute);
  }

  /// As above, with \p Guard as the recursion key (shared with other tables
  /// or differing from the memo key).
  template <typename Fn>
  Value get(Key K, const void *Guard, unsigned Level, Fn Compute) {
    return read(K, Guard, Level, /*AtLevel=*/true, Compute);
  }

  /// A summary that is not a call (a write, a variable): no depth test, and
  /// an incomplete one is not kept (the level of the code it reads is not
  /// known here).
  template <typename Fn> Value getAt(Key K, const void *Guard, Fn Compute) {
    return read(K, Guard, 0, /*AtLevel=*/false, Compute);
  }

private:
  template <typename Fn>
  Value read(Key K, const void *Guard, unsigned Level, bool AtLevel,
             Fn Compute) {
    auto It = Memo.find(K);
    if (It != Memo.end())
      return It->second;
    if (!Engine.follows(Level)) {
      Engine.cutOff(); // callers' summaries are incomplete
      return Value();
    }
    if (AtLevel) {
      auto Cut = CutMemo.find({K, Level});
      if (Cut != CutMemo.end()) {
        Engine.cutOff(); // as incomplete as when it was computed
        return Cut->second;
      }
    }
    if (!Engine.enter(Guard))
      return Value(); // recursion adds nothing new
    Value V;
    bool Complete = Engine.complete([&] { V = Compute(); });
    Engine.leave(Guard);
    if (Complete)
      Memo[K] = V;
    else if (AtLevel)
      CutMemo[{K, Level}] = V;
    return V;
  }

  SummaryEngine &Engine;
  llvm::DenseMap<Key, Value> Memo;
  /// Incomplete summaries, by the level they were read at.
  llvm::DenseMap<std::pair<Key, unsigned>, Value> CutMemo;
};

} // namespace torch_tidy

#endif
