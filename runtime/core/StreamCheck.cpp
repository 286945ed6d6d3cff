//===- StreamCheck.cpp - MSTAGE_CHECK=streams: cross-stream hazards -------===//
//
// The vector clocks, the allocations' recent uses and the reports; see
// StreamCheck.h. Everything here runs only while the check is on, under one
// lock.
//
//===----------------------------------------------------------------------===//
#include "core/StreamCheck.h"
#include "core/KernelRegistry.h"
#include "core/Stream.h"
#include "core/StreamCheckSlots.h"
#include "inspect/ChecksNote.h"
#include "inspect/Trace.h"
#include "support/Export.h"
#include "support/Settings.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace mstage::rt;
using namespace mstage::rt::streamcheck;

// -1 until read: the first check reads the setting. C linkage from its
// declaration in mstage/abi.h.
MSTAGE_EXPORT int mstage_rt_streams_checked = -1;

namespace {

// For each stream, the count of its operations known to run before.
class Clock {
public:
  uint64_t of(uint64_t StreamId) const { return Times.lookup(StreamId); }
  uint64_t tick(uint64_t StreamId) { return ++Times[StreamId]; }
  void merge(const Clock &Other) {
    for (const auto &[Id, Time] : Other.Times) {
      uint64_t &Mine = Times[Id];
      Mine = std::max(Mine, Time);
    }
  }

private:
  llvm::DenseMap<uint64_t, uint64_t> Times;
};

// Where an operation comes from: static strings and the kernel's entry,
// put in words only for a report.
struct Site {
  const char *File = nullptr;
  unsigned Line = 0;
  const char *What = nullptr;
  const void *Kernel = nullptr;
};

// One operation, as reports name it.
struct Operation {
  Site At;
  Site Replayed; // a graph launch's: the captured operation
  uint64_t StreamId = 0;
  uint64_t Time = 0; // its stream's count
};

struct RecentUse {
  uintptr_t Begin, End;
  bool Write;
  std::shared_ptr<const Operation> Op;
};

struct Allocation {
  uintptr_t End;
  streamcheck::MemoryKind Kind;
  Site Made;
  std::vector<RecentUse> Uses;
};

// A use made while its stream was captured: made again by each replay.
struct CapturedUse {
  uintptr_t P;
  size_t Bytes;
  bool Write;
  Site At;
};

// Enough to report on a loop's streams without growing with its length.
constexpr size_t MaxUsesPerAllocation = 64;

thread_local Site CurrentSite;
thread_local std::vector<Use> PendingUses;

struct Checker {
  std::mutex Lock;
  llvm::DenseMap<uint64_t, Clock> Streams;
  Clock Host;
  llvm::DenseMap<const mstage_event *, Clock> Events;
  std::map<uintptr_t, Allocation> Allocations;                 // by first byte
  llvm::DenseMap<uint64_t, std::vector<CapturedUse>> Captures; // by root
  llvm::DenseMap<const mstage_graph *, std::vector<CapturedUse>> Graphs;
  llvm::StringSet<> Reported;
  bool Order = false; // MSTAGE_STREAM_ORDER=auto: wait instead of reporting
};

Checker &checker() {
  static auto *C = new Checker; // used by static destructors' frees
  return *C;
}

// Its file without folders, as the reports' sites: "main::k@app.cpp:22:9".
std::string kernelName(const void *Kernel) {
  std::string Why;
  const RegisteredKernel *K = findKernel(Kernel, Why);
  if (!K)
    return "?";
  auto [Name, Location] = llvm::StringRef(K->Blob.PrettyName).rsplit('@');
  if (Location.empty())
    return Name.str();
  return (Name + "@" + llvm::sys::path::filename(Location)).str();
}

std::string atWords(const Site &S) {
  return S.File ? " at " + llvm::sys::path::filename(S.File).str() + ":" +
                      std::to_string(S.Line)
                : "";
}

// "kernel 'k' at app.cpp:22", "upload at app.cpp:18", or What alone.
std::string siteWords(const Site &S) {
  std::string Words;
  if (S.Kernel)
    Words = "kernel '" + kernelName(S.Kernel) + "'";
  else
    Words = S.What;
  return Words + atWords(S);
}

std::string operationWords(const Operation &Op) {
  std::string Words = siteWords(Op.At);
  if (Op.Replayed.What)
    Words += " (its " + siteWords(Op.Replayed) + ")";
  return Words;
}

// "the device_vector made at app.cpp:12", "the pinned memory of 64 bytes".
std::string allocationWords(const Allocation &A, uintptr_t Begin) {
  static const char *const Names[] = {"the device_vector", "the pinned memory",
                                      "the managed_vector"};
  std::string Words = Names[int(A.Kind)];
  if (A.Made.File)
    return Words + " made" + atWords(A.Made);
  return Words + " of " + std::to_string(A.End - Begin) + " bytes";
}

// The calling thread's site, with What when it names no operation.
Site currentSite(const char *What) {
  Site S = CurrentSite;
  if (!S.What)
    S.What = What;
  return S;
}

// The allocation holding P, or end() for memory the runtime did not make.
std::map<uintptr_t, Allocation>::iterator allocationOf(Checker &C,
                                                       uintptr_t P) {
  auto It = C.Allocations.upper_bound(P);
  if (It == C.Allocations.begin())
    return C.Allocations.end();
  --It;
  return P < It->second.End ? It : C.Allocations.end();
}

bool overlap(const RecentUse &U, uintptr_t Begin, uintptr_t End) {
  return U.Begin < End && Begin < U.End;
}

// The stream's clock for an operation enqueued now: after what the host
// has waited for, one more of its own.
Clock &enqueue(Checker &C, Stream &S, uint64_t &Time) {
  Clock &Mine = C.Streams[S.id()];
  Mine.merge(C.Host);
  Time = Mine.tick(S.id());
  return Mine;
}

// Who ("kernel 'k' at app.cpp:22 on stream 2") uses the allocation at Begin
// after Before, with nothing between them.
void report(Checker &C, const std::string &Who, bool Write, const Allocation &A,
            uintptr_t Begin, const RecentUse &Before) {
  std::string Text = Who + (Write ? " writes " : " reads ") +
                     allocationWords(A, Begin) + ", " +
                     (Before.Write ? "written" : "read") + " by " +
                     operationWords(*Before.Op) + " on stream " +
                     std::to_string(Before.Op->StreamId) +
                     " with no event or synchronization between them";
  if (!C.Reported.insert(Text).second)
    return;
  llvm::errs() << "mstage: stream check: " << Text << "\n";
}

// MSTAGE_TRACE says each of MSTAGE_STREAM_ORDER=auto's waits once.
void traceWait(Checker &C, const std::string &Who, const RecentUse &Before) {
  std::string Text = Who + " waits for stream " +
                     std::to_string(Before.Op->StreamId) + " after " +
                     operationWords(*Before.Op);
  if (traceEnabled() && C.Reported.insert(Text).second)
    llvm::errs() << "mstage: stream order: " << Text << "\n";
}

// MSTAGE_STREAM_ORDER=auto: S waits for what the stream of Before had
// enqueued so far, as a vector's first use on a stream does.
void orderAfter(Checker &C, Stream &S, Clock &Now, const RecentUse &Before) {
  uint64_t Other = Before.Op->StreamId;
  if (Stream *O = findStream(Other)) {
    if (llvm::Error E = S.orderAfter(*O))
      // The operation itself goes on; the failure is the driver's, and
      // shows at the stream's next synchronization.
      llvm::consumeError(std::move(E));
    traceWait(C, "stream " + std::to_string(S.id()), Before);
  }
  Now.merge(C.Streams[Other]);
}

// Checks one use by Op on S against the allocation's recent ones and keeps
// it.
void use(Checker &C, Stream &S, Clock &Now,
         const std::shared_ptr<const Operation> &Op, uintptr_t Begin,
         size_t Bytes, bool Write) {
  auto It = allocationOf(C, Begin);
  if (It == C.Allocations.end() || Bytes == 0)
    return;
  Allocation *A = &It->second;
  uintptr_t End = std::min(A->End, Begin + Bytes);
  auto Ordered = [&](const RecentUse &U) {
    return U.Op->StreamId == Op->StreamId ||
           Now.of(U.Op->StreamId) >= U.Op->Time;
  };
  for (const RecentUse &U : A->Uses)
    if ((U.Write || Write) && overlap(U, Begin, End) && !Ordered(U)) {
      if (C.Order)
        orderAfter(C, S, Now, U);
      else
        report(C,
               operationWords(*Op) + " on stream " +
                   std::to_string(Op->StreamId),
               Write, *A, It->first, U);
    }
  // A use ordered before this one that it covers adds nothing: whatever
  // is unordered with it is unordered with this one too. A write is kept
  // past reads, which do not conflict with later reads.
  llvm::erase_if(A->Uses, [&](const RecentUse &U) {
    return Ordered(U) && Begin <= U.Begin && U.End <= End &&
           (Write || !U.Write);
  });
  if (A->Uses.size() == MaxUsesPerAllocation)
    A->Uses.erase(A->Uses.begin());
  A->Uses.push_back({Begin, End, Write, Op});
}

// The uses of one operation on S: now, or into the graph while captured.
void operate(Checker &C, Stream &S, const Site &At, llvm::ArrayRef<Use> Uses) {
  if (S.capturing()) {
    std::vector<CapturedUse> &Into = C.Captures[S.captureRoot().id()];
    for (const Use &U : Uses)
      Into.push_back({reinterpret_cast<uintptr_t>(U.P), U.Bytes, U.Write, At});
    return;
  }
  auto Op = std::make_shared<Operation>();
  Op->At = At;
  Op->StreamId = S.id();
  Clock &Now = enqueue(C, S, Op->Time);
  for (const Use &U : Uses)
    use(C, S, Now, Op, reinterpret_cast<uintptr_t>(U.P), U.Bytes, U.Write);
}

} // namespace

// At exit, after the reports: the units whose operator[] of managed and
// pinned memory the check cannot see (the headers test no flag per element
// there, so that host loops vectorize; mstage/check_site.hpp).
static void noteUncheckedElements(bool Order) {
  static std::once_flag Once;
  std::call_once(Once, [Order] {
    static const char *Setting =
        Order ? "MSTAGE_STREAM_ORDER=auto" : "MSTAGE_CHECK=streams";
    std::atexit([] {
      std::string Units = uncheckedUnits();
      if (Units.empty())
        return;
      std::fflush(stdout);
      llvm::errs() << "mstage: note: " << Setting
                   << " does not see the managed_vector and pinned_vector "
                      "operator[] of units built without the checks: "
                   << Units
                   << "; their data() and begin() it sees (-fmstage-checks "
                      "checks each element)\n";
    });
  });
}

bool streamcheck::readSetting() {
  const CheckSettings &Settings = checkSettings();
  bool On = Settings.Streams || Settings.StreamOrder;
  if (On) {
    Checker &C = checker();
    std::lock_guard<std::mutex> G(C.Lock);
    C.Order = Settings.StreamOrder;
  }
  if (On)
    noteUncheckedElements(Settings.StreamOrder);
  __atomic_store_n(&mstage_rt_streams_checked, On ? 1 : 0, __ATOMIC_RELAXED);
  return On;
}

void streamcheck::allocated(const void *P, size_t Bytes, MemoryKind Kind) {
  if (!P)
    return;
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  uintptr_t Begin = reinterpret_cast<uintptr_t>(P);
  // Memory reused from a pool: what was freed there is no more.
  C.Allocations.erase(
      C.Allocations.lower_bound(Begin),
      C.Allocations.lower_bound(Begin + std::max<size_t>(Bytes, 1)));
  C.Allocations[Begin] = {Begin + Bytes, Kind, CurrentSite, {}};
}

void streamcheck::freed(const void *P) {
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  C.Allocations.erase(reinterpret_cast<uintptr_t>(P));
}

void streamcheck::operation(Stream &S, const char *What,
                            llvm::ArrayRef<Use> Uses) {
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  operate(C, S, currentSite(What), Uses);
}

void streamcheck::launched(Stream &S, const void *Kernel, void *const *Params,
                           const uint32_t *ParamSizes, uint32_t NumParams) {
  Site At = currentSite("kernel");
  At.Kernel = Kernel; // a launch outside any site still names it
  std::string Why;
  const RegisteredKernel *K = findKernel(Kernel, Why); // else the launch fails
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  if (K) {
    // A pointer into tracked memory counts from there to the allocation's
    // end: a slot holds no extent.
    llvm::SmallVector<SlotPointer, 8> Pointers;
    slotPointers(*K, Params, ParamSizes, NumParams, Pointers);
    // A non-const argument is only read when the kernel writes through none
    // of the slots holding its pointer (the same vector may come twice).
    for (Use &U : PendingUses) {
      auto Holds = [&](const SlotPointer &P) {
        return P.Argument && P.P == reinterpret_cast<uintptr_t>(U.P);
      };
      if (U.Write && llvm::any_of(Pointers, Holds) &&
          llvm::none_of(Pointers, [&](const SlotPointer &P) {
            return Holds(P) && P.Write;
          }))
        U.Write = false;
    }
    // The arguments' views the headers gave, with their lengths.
    for (const SlotPointer &P : Pointers) {
      if (P.Argument)
        continue;
      auto It = allocationOf(C, P.P);
      if (It != C.Allocations.end())
        PendingUses.push_back({reinterpret_cast<const void *>(P.P),
                               size_t(It->second.End - P.P), P.Write});
    }
  }
  operate(C, S, At, PendingUses);
  PendingUses.clear(); // keeps its room for the thread's next launch
}

void streamcheck::hostUsed(const void *P, size_t Bytes, bool Write,
                           const char *File, unsigned Line, const char *What) {
  if (CurrentSite.File) // the API's own access, within one of its operations
    return;
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  uintptr_t Begin = reinterpret_cast<uintptr_t>(P);
  auto It = allocationOf(C, Begin);
  if (It == C.Allocations.end() || Bytes == 0)
    return;
  const Allocation &A = It->second;
  uintptr_t End = std::min(A.End, Begin + Bytes);
  auto Who = [&] {
    return "host code at " + llvm::sys::path::filename(File).str() + ":" +
           std::to_string(Line) + " (" + What + ")";
  };
  for (const RecentUse &U : A.Uses) {
    uint64_t Other = U.Op->StreamId;
    if (!(U.Write || Write) || !overlap(U, Begin, End) ||
        C.Host.of(Other) >= U.Op->Time)
      continue;
    if (!C.Order) {
      report(C, Who(), Write, A, It->first, U);
      continue;
    }
    // MSTAGE_STREAM_ORDER=auto: the host waits for the other stream. A
    // failure is the driver's, and shows at the program's next
    // synchronization.
    if (Stream *O = findStream(Other))
      if (llvm::Error E = synchronizeStream(*O))
        llvm::consumeError(std::move(E));
    traceWait(C, "the host", U);
    C.Host.merge(C.Streams[Other]);
  }
}

bool streamcheck::enterSite(const char *File, unsigned Line, const char *What,
                            const void *Kernel) {
  if (CurrentSite.File) // an outer call of the API names the operation
    return false;
  CurrentSite = {File, Line, What, Kernel};
  return true;
}

void streamcheck::leaveSite() { CurrentSite = Site(); }

void streamcheck::addPendingUse(const void *P, size_t Bytes, bool Write) {
  PendingUses.push_back({P, Bytes, Write});
}

void streamcheck::recorded(const mstage_event *E, Stream &S) {
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  if (S.capturing()) { // its replays order the graph's work within itself
    C.Events.erase(E);
    return;
  }
  Clock &Mine = C.Streams[S.id()];
  Mine.merge(C.Host);
  C.Events[E] = Mine;
}

void streamcheck::waited(Stream &S, const mstage_event *E) {
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  Clock &Mine = C.Streams[S.id()];
  Mine.merge(C.Host);
  auto It = C.Events.find(E);
  if (It != C.Events.end())
    Mine.merge(It->second);
}

void streamcheck::orderedAfter(Stream &S, Stream &Other) {
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  Clock Theirs = C.Streams[Other.id()]; // a copy: the map may grow
  Clock &Mine = C.Streams[S.id()];
  Mine.merge(C.Host);
  Mine.merge(Theirs);
}

void streamcheck::streamDone(Stream &S) {
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  auto It = C.Streams.find(S.id());
  if (It != C.Streams.end())
    C.Host.merge(It->second);
}

void streamcheck::eventDone(const mstage_event *E) {
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  auto It = C.Events.find(E);
  if (It != C.Events.end())
    C.Host.merge(It->second);
}

void streamcheck::allDone() {
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  for (const auto &[Id, Times] : C.Streams)
    C.Host.merge(Times);
}

void streamcheck::eventDestroyed(const mstage_event *E) {
  Checker &C = checker();
  std::lock_guard<std::mutex> G(C.Lock);
  C.Events.erase(E);
}

void streamcheck::captureEnded(Stream &Root, const mstage_graph *G) {
  Checker &C = checker();
  std::lock_guard<std::mutex> L(C.Lock);
  auto It = C.Captures.find(Root.id());
  if (It == C.Captures.end())
    return;
  if (G)
    C.Graphs[G] = std::move(It->second);
  C.Captures.erase(It);
}

void streamcheck::graphLaunched(const mstage_graph *G, Stream &S) {
  Site Launch = currentSite("graph launch");
  Checker &C = checker();
  std::lock_guard<std::mutex> L(C.Lock);
  auto It = C.Graphs.find(G);
  if (It == C.Graphs.end())
    return;
  // One operation on S, each use named by what was captured.
  uint64_t Time;
  Clock &Now = enqueue(C, S, Time);
  for (const CapturedUse &U : It->second) {
    auto Op = std::make_shared<Operation>();
    Op->At = Launch;
    Op->Replayed = U.At;
    Op->StreamId = S.id();
    Op->Time = Time;
    use(C, S, Now, Op, U.P, U.Bytes, U.Write);
  }
}

void streamcheck::graphDestroyed(const mstage_graph *G) {
  Checker &C = checker();
  std::lock_guard<std::mutex> L(C.Lock);
  C.Graphs.erase(G);
}
