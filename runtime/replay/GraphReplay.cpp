//===- GraphReplay.cpp - MSTAGE_GRAPHS=auto: repeating launches as graphs -===//
#include "replay/GraphReplay.h"
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "cuda/CudaDriver.h"
#include "inspect/Stats.h"
#include "inspect/Trace.h"
#include "replay/GraphBranches.h"
#include "support/Elapsed.h"
#include "support/Settings.h"
#include "support/Warning.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cassert>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <vector>

namespace mstage::rt {

std::atomic<int> ReplayState{-1};

namespace {

// The longest period looked for, and the launches a stream remembers.
constexpr unsigned MaxPeriod = 32;
constexpr unsigned RingSize = 2 * MaxPeriod;
// A hold's first graph holds at least 4 operations (whole periods; the
// setting's default): the GPU, idle since the loop's last check, waits only
// for those to be held. Each graph launched, the next holds GrowBy times as
// many, up to GrownLaunches (MSTAGE_GRAPH_LAUNCHES fixes the size) and no
// more than is left of the period's last runs (growNext), so that the last
// graph before a check ends where it comes: holding a launch costs the host
// about a quarter of what the GPU takes for one of heat's, and each graph
// launch costs the GPU a gap (H200, heat 1024^2, one call, medians of three
// rounds: 4.24 us a step growing so; 4.30 with graphs of 16, 64, 64, 64 and
// 8; 4.92 with 16 and 184; nvcc's graph of 100 steps on parallel
// branches 4.00).
constexpr unsigned GrowBy = 4;
constexpr unsigned GrownLaunches = 256;
// Graphs kept per stream, for periods that come back.
constexpr size_t MaxGraphs = 8;
// Where each hash was last seen, direct-mapped: a launch whose hash was not
// seen in the last MaxPeriod launches starts no period, found with one look
// (and a look through the ring when another recent hash took its slot).
constexpr unsigned SeenSlots = 128;

// A period, repeated Unroll times, made into an executable graph.
struct PeriodGraph {
  std::vector<HeldLaunch> Period;
  unsigned Unroll = 1;
  bool Rest = false; // a hold's rest before a check: not one to resume
  // Its records run newer code than Exec does (takeNewCode): made again
  // before its next launch.
  bool Stale = false;
  // Per operation of Period, the bytes it touches (GraphBranches.h), made
  // at its first capture; empty: not made, or MSTAGE_GRAPH_BRANCHES=0.
  std::vector<AccessFootprint> Footprints;
  CudaDriver *Driver = nullptr;
  CUgraph Graph = nullptr;
  CUgraphExec Exec = nullptr;
  ~PeriodGraph() {
    if (Driver)
      Driver->destroyGraph(Graph, Exec);
  }
};

struct StreamReplay {
  uint64_t StreamId = 0;
  // The last launches, Ring[(Next - 1) % RingSize] the latest, and their
  // hashes apart: the search for a period reads them alone.
  std::array<HeldLaunch, RingSize> Ring;
  std::array<uint64_t, RingSize> Hashes;
  unsigned RingNext = 0, RingCount = 0;
  // Launches put in the ring, ever; LastSeen[H % SeenSlots]: the latest
  // with hash H, by that count, valid from RingStart (the ring's reset).
  uint64_t Count = 0, RingStart = 0;
  struct Seen {
    uint64_t Hash = 0, At = 0;
  };
  std::array<Seen, SeenSlots> LastSeen;
  // Armed: the period found; the next launch should equal Period[Next].
  std::vector<HeldLaunch> Period;
  unsigned Next = 0;
  unsigned HeldCount = 0; // held back: Period[I % size] for I < HeldCount
  PeriodGraph *Current = nullptr; // Period's graph, once made or found
  bool Resumed = false;           // armed by resume(), not findPeriod()
  unsigned LastRest = 0;          // whole periods held when the last hold ended
  uint64_t Replays = 0;           // graph launches since armed
  uint64_t ReplayedOps = 0;       // the operations they held
  unsigned Unroll = 0;  // periods of the next graph; 0: from the setting
  uint64_t LastRun = 0; // operations from arming to the last disarm
  uint64_t RunBefore = 0; // and to the one before it
  // The last period that findPeriod armed and another launch ended (its
  // hashes), and how many times in a row it had come: it is taken again
  // only when it comes more often (a "B A A" loop would otherwise find "A"
  // again after each B, never "B A A").
  llvm::SmallVector<uint64_t, 4> Broken;
  uint64_t BrokenRepeats = 0;
  std::vector<std::unique_ptr<PeriodGraph>> Graphs; // newest last

  unsigned slot(unsigned Back) const {
    return (RingNext + RingSize - 1 - Back) % RingSize;
  }
  const HeldLaunch &recent(unsigned Back) const { return Ring[slot(Back)]; }
  bool armed() const { return !Period.empty(); }
  // A new hold of Period: nothing held or replayed yet.
  void startHold() {
    Next = HeldCount = 0;
    Replays = ReplayedOps = 0;
    Unroll = 0;
  }
  // The ring's next slot, to fill, then pushed() as the latest launch.
  HeldLaunch &nextSlot() { return Ring[RingNext]; }
  void pushed() {
    Hashes[RingNext] = Ring[RingNext].Hash;
    RingNext = (RingNext + 1) % RingSize;
    RingCount = std::min(RingCount + 1, RingSize);
  }
  void forgetRing() {
    RingCount = 0;
    RingStart = Count;
  }
};

struct Replayer {
  std::mutex Lock;
  llvm::DenseMap<Stream *, std::unique_ptr<StreamReplay>> Streams;
};

Replayer &replayer() {
  static Replayer *R = new Replayer; // used at exit, by the last waits
  return *R;
}

std::string describe(Stream &S) {
  return "mstage: replay: stream " + std::to_string(S.id()) + ": ";
}

void trace(Stream &S, const std::string &Text) {
  if (traceEnabled())
    llvm::errs() << describe(S) << Text << "\n";
}

std::string namesOf(llvm::ArrayRef<HeldLaunch> Period) {
  std::string Names;
  for (const HeldLaunch &L : Period)
    Names += (Names.empty() ? "" : ", ") + *L.Name;
  return Names;
}

// "launch(es)" while a period holds kernels alone, else "operation(s)";
// "kernel nodes" or "nodes" likewise.
bool kernelsOnly(llvm::ArrayRef<HeldLaunch> Period) {
  for (const HeldLaunch &L : Period)
    if (L.What != HeldLaunch::Kind::Kernel)
      return false;
  return true;
}
std::string countOf(size_t N, llvm::ArrayRef<HeldLaunch> Period) {
  bool Kernels = kernelsOnly(Period);
  return std::to_string(N) + (Kernels ? " launch" : " operation") +
         (N == 1    ? ""
          : Kernels ? "es"
                    : "s");
}

StreamReplay &stateOf(Stream &S) {
  std::unique_ptr<StreamReplay> &R = replayer().Streams[&S];
  // A destroyed stream's object is reused for a later one.
  if (!R || R->StreamId != S.id()) {
    R = std::make_unique<StreamReplay>();
    R->StreamId = S.id();
  }
  return *R;
}

llvm::Error enqueuePlain(Stream &S, const HeldLaunch &L) {
  CudaDriver &D = *S.driver();
  if (L.What == HeldLaunch::Kind::Fill)
    return D.fillAsync(L.Dst, L.Bytes.data(), L.ElementBytes, L.Count,
                       S.handle());
  if (L.What == HeldLaunch::Kind::Copy)
    return D.copyDeviceAsync(L.Dst, L.Src, L.ElementBytes, S.handle());
  llvm::SmallVector<void *, 16> Params;
  L.params(Params);
  return D.launch(L.Function, L.Config.grid, L.Config.block,
                  L.Config.shared_bytes, Params.data(), S.handle(), nullptr,
                  L.How);
}

// Captures G's period, Unroll times, on S into G's executable graph
// (replacing the one it had: a replay in flight is freed after it).
llvm::Error capture(Stream &S, PeriodGraph &G) {
  CudaDriver &D = *S.driver();
  if (G.Driver)
    G.Driver->destroyGraph(G.Graph, G.Exec);
  G.Driver = nullptr;
  G.Graph = nullptr;
  G.Exec = nullptr;
  if (G.Footprints.empty() && G.Period.size() > 1 &&
      graphBranchesSetting().Value) {
    auto T0 = std::chrono::steady_clock::now();
    for (const HeldLaunch &L : G.Period) {
      llvm::Expected<AccessFootprint> F = footprintOf(L, backend().arch());
      if (!F) {
        trace(S, "cannot tell which bytes " + L.name() +
                     " touches; it runs after everything before it (" +
                     llvm::toString(F.takeError()) + ")");
        F = AccessFootprint::unbounded();
      }
      G.Footprints.push_back(std::move(*F));
    }
    trace(S, "footprints of the period's " + std::to_string(G.Period.size()) +
                 " operations: " + llvm::formatv("{0:f3}", msSince(T0)).str() +
                 " ms");
  }
  // Each operation after those whose footprints meet its own, or, without
  // footprints, after the one before it.
  unsigned Count = G.Unroll * unsigned(G.Period.size());
  std::vector<llvm::SmallVector<unsigned, 4>> After;
  if (!G.Footprints.empty())
    After = orderingOf(G.Footprints, Count);
  unsigned Beside = 0; // operations that may run beside the one before them
  for (unsigned K = 1; K < After.size(); ++K)
    Beside += !llvm::is_contained(After[K], K - 1);
  if (llvm::Error E = D.beginCapture(S.handle()))
    return E;
  llvm::Error Launched = llvm::Error::success();
  std::vector<CUgraphNode> Nodes;
  llvm::SmallVector<CUgraphNode, 4> Deps;
  for (unsigned K = 0; K < Count && !Launched; ++K) {
    // The first node's set is empty already.
    if (Beside && K > 0) {
      Deps.clear();
      for (unsigned J : After[K])
        Deps.push_back(Nodes[J]);
      if ((Launched = D.setCaptureDependencies(S.handle(), Deps)))
        break;
    }
    if ((Launched = enqueuePlain(S, G.Period[K % G.Period.size()])))
      break;
    if (Beside) {
      if ((Launched = D.captureDependencies(S.handle(), Deps)))
        break;
      assert(Deps.size() == 1 && "an operation's capture is one node");
      Nodes.push_back(Deps.front());
    }
  }
  llvm::Error Ended = D.endCapture(S.handle(), &G.Graph);
  G.Driver = &D;
  if (Launched) {
    llvm::consumeError(std::move(Ended));
    return Launched;
  }
  if (Ended)
    return Ended;
  if (llvm::Error E = D.instantiate(G.Graph, &G.Exec))
    return E;
  G.Stale = false;
  statsGraphMade();
  trace(S, "graph of " + std::to_string(G.Unroll) + " period" +
               (G.Unroll == 1 ? "" : "s") + " made (" +
               std::to_string(G.Unroll * G.Period.size()) +
               (kernelsOnly(G.Period) ? " kernel nodes" : " nodes") +
               (Beside ? ", " + std::to_string(Beside) +
                             " beside the node before them)"
                       : ")"));
  return llvm::Error::success();
}

// The graph of R's period on S: found among R's graphs (made again if its
// code was replaced), or captured now.
llvm::Expected<PeriodGraph *> graphOf(Stream &S, StreamReplay &R,
                                      unsigned Unroll) {
  for (auto It = R.Graphs.begin(); It != R.Graphs.end(); ++It)
    if ((*It)->Unroll == Unroll && (*It)->Period == R.Period &&
        (*It)->Driver == S.driver()) {
      std::unique_ptr<PeriodGraph> Found = std::move(*It);
      R.Graphs.erase(It);
      R.Graphs.push_back(std::move(Found));
      PeriodGraph &G = *R.Graphs.back();
      if (G.Stale)
        if (llvm::Error E = capture(S, G))
          return std::move(E);
      return &G;
    }
  auto G = std::make_unique<PeriodGraph>();
  G->Period = R.Period;
  G->Unroll = Unroll;
  if (llvm::Error E = capture(S, *G))
    return std::move(E);
  if (R.Graphs.size() == MaxGraphs)
    R.Graphs.erase(R.Graphs.begin()); // a replay in flight is freed after it
  R.Graphs.push_back(std::move(G));
  return R.Graphs.back().get();
}

// Said, and replay stops; the held launches still run, as they are.
void cannotMakeGraph(StreamReplay &R, llvm::Error Failure) {
  warn(context(std::move(Failure),
               std::string("MSTAGE_GRAPHS=auto: cannot make a graph of ") +
                   (kernelsOnly(R.Period) ? "the kernels " : "") +
                   namesOf(R.Period)),
       "; replay is off from now on");
  ReplayState.store(0);
}

// Enqueues what R holds, in order: as plain launches, or, when the hold
// ends with the same whole periods as the last time (a time loop's steps
// between its last full graph and its check), as a graph of them.
llvm::Error enqueueHeld(Stream &S, StreamReplay &R) {
  unsigned P = R.Period.size(), Whole = R.HeldCount / P;
  bool Periods = R.HeldCount && R.HeldCount % P == 0;
  bool Again = Periods && Whole >= 2 && Whole == R.LastRest;
  R.LastRest = Periods ? Whole : 0;
  if (Again && ReplayState.load(std::memory_order_relaxed) > 0) {
    llvm::Expected<PeriodGraph *> G = graphOf(S, R, Whole);
    if (G) {
      (*G)->Rest = true; // fewer periods than a hold's graph: not hold()'s
      R.HeldCount = 0;
      statsGraphReplay(Whole * P);
      if (llvm::Error E = S.driver()->launchGraph((*G)->Exec, S.handle()))
        return context(std::move(E), "replaying the kernels " +
                                         namesOf(R.Period) +
                                         " as a graph (MSTAGE_GRAPHS=auto)");
      return llvm::Error::success();
    }
    cannotMakeGraph(R, G.takeError()); // then enqueued as plain launches
  }
  llvm::Error First = llvm::Error::success();
  for (unsigned I = 0; I < R.HeldCount && !First; ++I)
    First = enqueuePlain(S, R.Period[I % R.Period.size()]);
  R.HeldCount = 0;
  if (First)
    return context(std::move(First), "enqueuing " + namesOf(R.Period) +
                                         " held back for graph replay");
  return llvm::Error::success();
}

// Counts the ring's latest launch: how many launches ago its hash was last
// seen (at most MaxPeriod, since the ring's reset), or 0.
unsigned noteLatest(StreamReplay &R) {
  uint64_t Latest = R.Hashes[R.slot(0)];
  StreamReplay::Seen &Last = R.LastSeen[Latest % SeenSlots];
  uint64_t Now = R.Count++;
  unsigned First = 0;
  bool Recent = Last.At >= R.RingStart && Now - Last.At <= MaxPeriod;
  if (Recent && Last.Hash == Latest) {
    First = unsigned(Now - Last.At);
  } else if (Recent) {
    // Another recent hash shares the slot and may have replaced Latest's
    // (a period-2 loop whose two launches collide was never replayed: 1 run
    // in about 40 of replay/barriers.test, as addresses fell).
    unsigned Back = std::min(R.RingCount - 1, MaxPeriod);
    for (unsigned I = 1; I <= Back && !First; ++I)
      if (R.Hashes[R.slot(I)] == Latest)
        First = I;
  }
  Last = {Latest, Now};
  return First;
}

// Ends R's hold: enqueues it and forgets the period. Why: said only when
// traced (a hold ends at every check of a time loop). Differs: another
// launch or operation on the stream came, not a barrier.
llvm::Error disarm(Stream &S, StreamReplay &R,
                   llvm::function_ref<std::string()> Why,
                   bool Differs = false) {
  if (!R.armed())
    return llvm::Error::success();
  if (traceEnabled())
    trace(S, std::to_string(R.Replays) + " graph replay" +
                 (R.Replays == 1 ? "" : "s") + " (" +
                 countOf(R.ReplayedOps, R.Period) + "); ended: " + Why());
  // Kept graphs of a period that a resumed loop left before reaching its
  // first graph are stale (another buffer, another argument; a faster
  // tier's code is taken in place, takeNewCode): without them, the loop's
  // period is found again, not resumed and ended at every step.
  if (R.Resumed && R.Replays == 0 && Differs)
    llvm::erase_if(R.Graphs, [&](const std::unique_ptr<PeriodGraph> &G) {
      return G->Period == R.Period;
    });
  // A period that another launch ended stays in the ring with what was held
  // of it, so that a longer period that holds it is found there (only the
  // order of the launches matters, not how many came before).
  bool KeepRing = Differs && !R.Resumed;
  if (KeepRing) {
    unsigned P = R.Period.size();
    R.Broken.assign(R.Period.size(), 0);
    for (unsigned I = 0; I < P; ++I)
      R.Broken[I] = R.Period[I].Hash;
    R.BrokenRepeats = 2 + R.ReplayedOps / P + R.HeldCount / P;
    for (unsigned I = R.HeldCount > RingSize ? R.HeldCount - RingSize : 0;
         I < R.HeldCount; ++I) {
      R.nextSlot() = R.Period[I % P];
      R.pushed();
      noteLatest(R);
    }
  }
  R.Resumed = false;
  R.RunBefore = R.LastRun;
  R.LastRun = R.ReplayedOps + R.HeldCount;
  llvm::Error E = enqueueHeld(S, R);
  R.Period.clear();
  R.Current = nullptr;
  R.startHold();
  if (!KeepRing)
    R.forgetRing();
  return E;
}

// Whether the last P launches of R came Times times in a row (by hash).
bool comesTimes(const StreamReplay &R, unsigned P, uint64_t Times) {
  if (Times * P > R.RingCount)
    return false;
  for (unsigned I = 0; I + P < Times * P; ++I)
    if (R.Hashes[R.slot(I)] != R.Hashes[R.slot(I + P)])
      return false;
  return true;
}

// Whether the last P launches are R's broken period, from any of its
// launches on.
bool isBroken(const StreamReplay &R, unsigned P) {
  if (P != R.Broken.size())
    return false;
  for (unsigned From = 0; From < P; ++From) {
    bool Same = true;
    for (unsigned I = 0; I < P && Same; ++I)
      Same = R.Hashes[R.slot(P - 1 - I)] == R.Broken[(From + I) % P];
    if (Same)
      return true;
  }
  return false;
}

// The smallest period of R's last launches that shows twice (a broken one
// more often than it came before, or as often as the ring holds), or 0.
// The latest launch's hash must have been seen in the last MaxPeriod
// launches: P starts there.
unsigned findPeriod(StreamReplay &R) {
  unsigned First = noteLatest(R);
  if (!First)
    return 0;
  uint64_t Latest = R.Hashes[R.slot(0)];
  for (unsigned P = First; 2 * P <= R.RingCount; ++P) {
    if (R.Hashes[R.slot(P)] != Latest)
      continue;
    bool Repeats = true;
    for (unsigned I = 1; I < P && Repeats; ++I)
      Repeats = R.Hashes[R.slot(I)] == R.Hashes[R.slot(I + P)];
    for (unsigned I = 0; I < P && Repeats; ++I)
      Repeats = R.recent(I) == R.recent(I + P);
    if (Repeats && isBroken(R, P) &&
        !comesTimes(R, P,
                    std::min<uint64_t>(R.BrokenRepeats + 1, RingSize / P)))
      continue;
    if (Repeats)
      return P;
  }
  return 0;
}

void arm(Stream &S, StreamReplay &R, unsigned P) {
  R.Period.clear();
  for (unsigned I = P; I-- > 0;)
    R.Period.push_back(R.recent(I));
  R.startHold();
  R.Current = nullptr;
  AnyHeldWork.store(true, std::memory_order_release);
  trace(S, "period of " + countOf(P, R.Period) + " (" + namesOf(R.Period) +
               ") found");
}

// A loop that left its period for a check comes back to it: when L (or O)
// is the first operation of a period whose graph R keeps, R arms with that
// period at once, rather than after two more periods of plain launches.
// Returns the graph found, or null.
template <typename Offer>
PeriodGraph *resumable(StreamReplay &R, const Offer &Matches) {
  for (size_t I = R.Graphs.size(); I-- > 0;)
    if (!R.Graphs[I]->Rest && Matches(R.Graphs[I]->Period.front()))
      return R.Graphs[I].get();
  return nullptr;
}

void resume(Stream &S, StreamReplay &R, PeriodGraph &G) {
  R.Period = G.Period;
  R.startHold();
  R.Current = nullptr; // the first graph is the small one: the GPU waits
  R.Resumed = true;
  AnyHeldWork.store(true, std::memory_order_release);
  trace(S, "period of " + countOf(G.Period.size(), G.Period) + " (" +
               namesOf(G.Period) + ") resumed");
}

// L runs its specialization's newer code (a faster tier's) where R's
// records run Old: R's period and its kept graphs run L's function from now
// on (the graphs are made again before their next launch), and the loop
// goes on. A code swap is no broken period: the launches are the same.
void takeNewCode(Stream &S, StreamReplay &R, CUfunction Old,
                 const LaunchView &L) {
  auto Patch = [&](std::vector<HeldLaunch> &Period) {
    bool Any = false;
    for (HeldLaunch &H : Period)
      if (H.What == HeldLaunch::Kind::Kernel && H.Function == Old) {
        H.setCode(L.Function, L.How);
        Any = true;
      }
    return Any;
  };
  Patch(R.Period);
  for (std::unique_ptr<PeriodGraph> &G : R.Graphs)
    if (Patch(G->Period))
      G->Stale = true;
  trace(S, "new code of " + *L.Name + " (a faster tier's): the period goes on");
}

// After a graph of Unroll periods, the next holds GrowBy times as many, up
// to GrownLaunches and, when the last two runs were as long, to what is left
// of them (the last graph ends where they ended; a run that goes on beyond
// grows again). Runs of changing lengths are not fitted: each fit would be
// another graph to capture, at every check.
void growNext(StreamReplay &R, unsigned Unroll) {
  uint64_t P = R.Period.size();
  uint64_t Next = std::max<uint64_t>(
      Unroll, std::min<uint64_t>(uint64_t(Unroll) * GrowBy, GrownLaunches / P));
  if (R.LastRun == R.RunBefore && R.LastRun > R.ReplayedOps)
    Next = std::min(Next, (R.LastRun - R.ReplayedOps) / P);
  if (Next == 0 || Next == Unroll)
    return;
  R.Unroll = unsigned(Next);
  R.Current = nullptr;
}

// L equals the launch R expects: hold it, and launch the graph once a
// graph's worth is held.
llvm::Error hold(Stream &S, StreamReplay &R) {
  R.Next = (R.Next + 1) % R.Period.size();
  ++R.HeldCount;
  unsigned P = R.Period.size();
  unsigned Unroll =
      R.Unroll ? R.Unroll : (graphLaunchesSetting().Launches + P - 1) / P;
  assert((!R.Current || R.Current->Unroll == Unroll) &&
         "a hold's graph is made for its size");
  if (R.HeldCount < Unroll * P)
    return llvm::Error::success();
  if (!R.Current || R.Current->Stale) {
    llvm::Expected<PeriodGraph *> G = graphOf(S, R, Unroll);
    if (!G) {
      cannotMakeGraph(R, G.takeError());
      return disarm(S, R, [] { return "the graph could not be made"; });
    }
    R.Current = *G;
  }
  R.HeldCount = 0;
  ++R.Replays;
  R.ReplayedOps += Unroll * P;
  statsGraphReplay(Unroll * P);
  if (llvm::Error E = S.driver()->launchGraph(R.Current->Exec, S.handle()))
    return context(std::move(E), "replaying the kernels " + namesOf(R.Period) +
                                     " as a graph (MSTAGE_GRAPHS=auto)");
  if (graphLaunchesSetting().Grow)
    growNext(R, Unroll);
  return llvm::Error::success();
}

llvm::Error enqueueAllHeld(const char *Why, bool Unloading) {
  Replayer &Rp = replayer();
  std::lock_guard<std::mutex> G(Rp.Lock);
  llvm::Error First = llvm::Error::success();
  for (auto &[S, R] : Rp.Streams) {
    if (R->armed() && S->id() == R->StreamId) {
      llvm::Error E = disarm(*S, *R, [Why] { return std::string(Why); });
      if (E) // a fault of earlier work, most likely: name what was in flight
        E = asyncFailure(std::move(E), S, Why);
      if (E && !First)
        First = std::move(E);
      else
        llvm::consumeError(std::move(E));
    }
    if (Unloading) { // the records may name its functions and its kernels
      R->Graphs.clear();
      R->forgetRing();
    }
  }
  return First;
}

} // namespace

// A fork()ed child has none of its parent's CUDA objects: it must neither
// launch the launches its parent held nor replay its parent's graphs (nor
// destroy them). Its replay is off, and what it inherited is forgotten
// (the graphs leaked, as the parent's context is not the child's).
static void forgetReplayInChild() {
  Replayer &Rp = replayer();
  ReplayState.store(0);
  for (auto &[S, R] : Rp.Streams) {
    for (std::unique_ptr<PeriodGraph> &G : R->Graphs)
      (void)G.release();
  }
  Rp.Streams.clear();
  Rp.Lock.unlock(); // taken by the fork's prepare handler
}

bool decideReplay() {
  const BoolSetting &G = graphsSetting();
  bool On = (G.Value || !G.Error.empty()) && !launchBlockingSetting().Value;
  const CheckSettings &C = checkSettings();
  if (C.Cpu || C.Stage || C.Streams || C.StreamOrder)
    On = false;
  if (On) {
    setHeldWorkFlusher(enqueueAllHeld);
    static std::once_flag AtFork;
    std::call_once(AtFork, [] {
      pthread_atfork([] { replayer().Lock.lock(); },
                     [] { replayer().Lock.unlock(); }, forgetReplayInChild);
    });
  }
  int Undecided = -1;
  ReplayState.compare_exchange_strong(Undecided, On ? 1 : 0);
  return ReplayState.load() > 0;
}

namespace {

// One operation offered to S's replay: a kernel launch (View) or a fill or
// a copy (Record). Held: it was held back; else it is enqueued here, after
// what S held (ElapsedMs: a launch timed and waited for).
llvm::Error offer(Stream &S, const LaunchView *View, const HeldLaunch *Record,
                  bool Candidate, float *ElapsedMs, bool &Held) {
  Held = false;
  if (const std::string &Bad = graphsSetting().Error; !Bad.empty())
    return failure(Bad);
  if (const std::string &Bad = graphLaunchesSetting().Error; !Bad.empty())
    return failure(Bad);
  assert(!S.capturing() && "a captured stream's operations are the capture's");
  Replayer &Rp = replayer();
  std::lock_guard<std::mutex> G(Rp.Lock);
  StreamReplay &R = stateOf(S);
  if (ReplayState.load(std::memory_order_relaxed) == 0)
    Candidate = false; // turned off since the caller looked
  auto Matches = [&](const HeldLaunch &H) {
    return View ? H.matches(*View) : H == *Record;
  };
  if (R.armed()) {
    const HeldLaunch &Expected = R.Period[R.Next];
    if (Candidate && Matches(Expected)) {
      Held = true;
      return hold(S, R);
    }
    if (Candidate && View && Expected.newCodeIn(*View)) {
      takeNewCode(S, R, Expected.Function, *View);
      Held = true;
      return hold(S, R);
    }
    auto Why = [&] {
      return !Candidate
                 ? (View ? "a launch of " + *View->Name : Record->name()) +
                       " that cannot be replayed"
             : View ? Expected.difference(*View)
                    : Expected.difference(*Record);
    };
    if (llvm::Error E = disarm(S, R, Why, /*Differs=*/true))
      return E;
  }
  if (Candidate) {
    PeriodGraph *Kept = resumable(R, Matches);
    if (!Kept && View && !R.Graphs.empty()) {
      Kept = resumable(
          R, [View](const HeldLaunch &H) { return H.newCodeIn(*View); });
      if (Kept)
        takeNewCode(S, R, Kept->Period.front().Function, *View);
    }
    if (Kept) {
      resume(S, R, *Kept);
      Held = true;
      return hold(S, R);
    }
    if (View)
      R.nextSlot().assign(*View);
    else
      R.nextSlot() = *Record;
    R.pushed();
    if (unsigned P = findPeriod(R))
      arm(S, R, P);
  } else {
    R.forgetRing();
  }
  // Under the lock: a barrier of another thread cannot come between.
  if (!View)
    return enqueuePlain(S, *Record);
  return S.driver()->launch(View->Function, View->Config->grid,
                            View->Config->block, View->Config->shared_bytes,
                            const_cast<void **>(View->Params), S.handle(),
                            ElapsedMs, View->How);
}

// The record of a fill or a copy being offered, kept per thread so that
// its storage is reused.
HeldLaunch &scratchRecord() {
  thread_local HeldLaunch Record;
  return Record;
}

} // namespace

llvm::Error launchOrHold(Stream &S, const LaunchView &L, bool Candidate,
                         float *ElapsedMs, bool &Held) {
  return offer(S, &L, nullptr, Candidate, ElapsedMs, Held);
}

llvm::Error fillOrHold(Stream &S, CUdeviceptr Dst, const void *Pattern,
                       size_t ElementBytes, size_t Count) {
  HeldLaunch &Record = scratchRecord();
  Record.assignFill(Dst, Pattern, ElementBytes, Count);
  bool Held;
  return offer(S, nullptr, &Record, /*Candidate=*/true, nullptr, Held);
}

llvm::Error copyOrHold(Stream &S, CUdeviceptr Dst, CUdeviceptr Src,
                       size_t Bytes, bool &Held) {
  HeldLaunch &Record = scratchRecord();
  Record.assignCopy(Dst, Src, Bytes);
  return offer(S, nullptr, &Record, /*Candidate=*/true, nullptr, Held);
}

void turnReplayOff(const char *Why) {
  int Undecided = -1;
  if (ReplayState.compare_exchange_strong(Undecided, 0) || Undecided == 0)
    return; // off before it was decided, or already
  // Off first: a launch that waits for the lock meanwhile holds nothing.
  ReplayState.store(0);
  llvm::Error E = enqueueAllHeld(Why, /*Unloading=*/false);
  if (E)
    failWith(std::move(E));
}

} // namespace mstage::rt
