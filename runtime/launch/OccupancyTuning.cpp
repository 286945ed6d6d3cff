//===- OccupancyTuning.cpp - The occupancy a kernel runs at ---------------===//
#include "launch/OccupancyTuning.h"
#include "cache/DiskCache.h"
#include "core/Stream.h"
#include "cuda/CudaDriver.h"
#include "inspect/Trace.h"
#include "support/Settings.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

using namespace llvm;

namespace mstage::rt {

// A first run shorter than this is not worth a launch at a worse occupancy.
static constexpr float MinTunedMs = 0.1f;
// With fewer blocks a multiprocessor, three quarters of them is half or
// less of the latency hiding: not tried.
static constexpr int MinTunedBlocks = 4;
// Each choice is timed this many times; its fastest counts.
static constexpr int Rounds = 2;
// A limit is kept when it is this much faster than the natural occupancy:
// less is noise.
static constexpr float Margin = 0.98f;

namespace {

// A way to run a kernel at Blocks a multiprocessor: its preferred shared
// memory carveout (percent, or the driver's default) and the dynamic shared
// memory each launch adds.
struct Limit {
  int Blocks = 0;
  int Carveout = CU_SHAREDMEM_CARVEOUT_DEFAULT;
  uint32_t Pad = 0;
};

// A timed launch, its events not read yet.
struct Sample {
  int Choice;
  CUevent Start, End;
};

// One specialization's tuning.
struct Tuning {
  std::mutex Lock;
  enum class Phase { Fresh, Measuring, Trying, Decided } Now = Phase::Fresh;
  CudaDriver *D = nullptr;
  uint64_t BlockThreads = 0;     // the block size it is tuned for
  SmallVector<Limit, 3> Choices; // [0]: the natural occupancy
  SmallVector<float, 3> FastestMs;
  SmallVector<int, 3> Times;
  std::deque<Sample> Pending;
  unsigned Turn = 0; // launches timed while trying
  int Chosen = 0;
  int Carveout = CU_SHAREDMEM_CARVEOUT_DEFAULT; // the function's, as last set
  std::optional<CacheKey> NoteKey; // where the choice is noted (auto)
  // Once decided, a steady launch reads the padding without the lock (D
  // and BlockThreads no longer change).
  std::atomic<bool> Settled{false};
  uint32_t SettledPad = 0;
};

class Tunings {
public:
  Tuning &of(CUfunction F) {
    // A kernel launched again and again finds its tuning without the lock
    // (a tuning lives as long as the process).
    thread_local CUfunction LastF = nullptr;
    thread_local Tuning *LastT = nullptr;
    if (F == LastF)
      return *LastT;
    std::lock_guard<std::mutex> G(Lock);
    std::unique_ptr<Tuning> &T = Map[F];
    if (!T)
      T = std::make_unique<Tuning>();
    LastF = F;
    LastT = T.get();
    return *T;
  }

private:
  std::mutex Lock;
  DenseMap<CUfunction, std::unique_ptr<Tuning>> Map;
};

Tunings &tunings() {
  static Tunings *T = new Tunings; // launches may come during exit
  return *T;
}

} // namespace

static uint64_t threadsOf(const LaunchConfig &C) {
  return uint64_t(C.block[0]) * C.block[1] * C.block[2];
}

static bool setCarveout(Tuning &T, CUfunction F, int Percent) {
  if (T.Carveout == Percent)
    return true;
  if (Error E = T.D->setFunctionAttribute(
          F, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, Percent)) {
    consumeError(std::move(E));
    return false;
  }
  T.Carveout = Percent;
  return true;
}

// Blocks of Threads with Pad bytes of dynamic shared memory that fit on a
// multiprocessor under F's carveout now; 0 when the driver cannot say.
static int blocksAt(CudaDriver &D, CUfunction F, uint64_t Threads,
                    uint32_t Pad) {
  int Blocks = 0;
  if (Error E = D.occupancy(F, int(Threads), Pad, &Blocks)) {
    consumeError(std::move(E));
    return 0;
  }
  return Blocks;
}

// The least padding up to Most that keeps F at Blocks a multiprocessor
// under its carveout now; false when padding skips over Blocks.
static bool leastPad(CudaDriver &D, CUfunction F, uint64_t Threads, int Blocks,
                     uint32_t Most, uint32_t &Pad) {
  if (blocksAt(D, F, Threads, Most) > Blocks)
    return false;
  uint32_t Lo = 0, Hi = Most; // blocksAt(Hi) <= Blocks
  while (Lo < Hi) {
    uint32_t Mid = Lo + (Hi - Lo) / 2;
    if (blocksAt(D, F, Threads, Mid) <= Blocks)
      Hi = Mid;
    else
      Lo = Mid + 1;
  }
  Pad = Hi;
  return blocksAt(D, F, Threads, Pad) == Blocks;
}

// A limit at Blocks for F: the smallest carveout (percent) that holds
// Blocks, with the least padding that keeps one more out. False when no
// carveout and padding give exactly Blocks.
static bool limitAt(Tuning &T, CUfunction F, int Blocks, Limit &Out) {
  CudaDriver &D = *T.D;
  int Static = 0;
  if (Error E =
          D.functionAttribute(F, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &Static))
    consumeError(std::move(E));
  // Padding within the default limit: raising a kernel's dynamic shared
  // memory limit may cost it L1 (test/cuda/dynamic-shared-limit.cpp).
  int Room = std::min(D.maxSharedBytesPerBlock(),
                      int(CudaDriver::DefaultSharedLimit)) -
             Static;
  if (Room <= 0)
    return false;
  bool Found = false;
  for (int Percent = 0; Percent <= 100 && !Found; ++Percent) {
    uint32_t Pad;
    if (!setCarveout(T, F, Percent))
      break;
    if (blocksAt(D, F, T.BlockThreads, 0) < Blocks)
      continue; // too small a carveout for Blocks
    if (leastPad(D, F, T.BlockThreads, Blocks, uint32_t(Room), Pad)) {
      Out = {Blocks, Percent, Pad};
      Found = true;
    }
  }
  setCarveout(T, F, CU_SHAREDMEM_CARVEOUT_DEFAULT);
  return Found;
}

static void describe(raw_ostream &OS, const Limit &C) {
  OS << C.Blocks << " blocks";
  if (C.Carveout != CU_SHAREDMEM_CARVEOUT_DEFAULT)
    OS << " (carveout " << C.Carveout << "%, " << C.Pad << " bytes of padding)";
  else if (C.Pad)
    OS << " (" << C.Pad << " bytes of padding)";
}

// The natural occupancy and the limits to try (auto) or to run at (N).
static void chooseLimits(Tuning &T, CUfunction F, const std::string &Name) {
  int Natural = blocksAt(*T.D, F, T.BlockThreads, 0);
  T.Choices.assign(1, Limit{Natural});
  const OccupancySetting &Set = occupancySetting();
  SmallVector<int, 2> Wanted;
  if (Set.How == OccupancySetting::Mode::Fixed)
    Wanted.push_back(Set.Blocks);
  else if (Natural >= MinTunedBlocks)
    Wanted = {(3 * Natural + 3) / 4, (Natural + 1) / 2};
  for (int Blocks : Wanted) {
    Limit L;
    if (Blocks < Natural && Blocks != T.Choices.back().Blocks &&
        limitAt(T, F, Blocks, L))
      T.Choices.push_back(L);
  }
  T.FastestMs.assign(T.Choices.size(), -1);
  T.Times.assign(T.Choices.size(), 0);
  // Nothing to try says nothing (most kernels on the fake driver).
  if (!traceEnabled() ||
      (Set.How != OccupancySetting::Mode::Fixed && T.Choices.size() < 2))
    return;
  std::string Line;
  raw_string_ostream OS(Line);
  OS << "mstage: trace: occupancy: kernel '" << Name << "' fits " << Natural
     << " blocks of " << T.BlockThreads << " a multiprocessor";
  if (Set.How == OccupancySetting::Mode::Fixed) {
    OS << "; MSTAGE_OCCUPANCY=" << Set.Blocks << ": ";
    if (T.Choices.size() > 1)
      describe(OS << "runs at ", T.Choices[1]);
    else
      OS << (Set.Blocks < Natural ? "no limit makes it so"
                                  : "not more than that");
  } else {
    OS << "; tries";
    for (size_t I = 1; I < T.Choices.size(); ++I)
      describe(OS << (I > 1 ? ", " : " "), T.Choices[I]);
  }
  errs() << Line << "\n";
}

// The note of a choice (loadEntryNote): the device's name and the limit.
static constexpr StringLiteral NoteHeader = "mstage occupancy 1";

static std::string noteText(const Tuning &T) {
  const Limit &L = T.Choices[T.Chosen];
  return (NoteHeader + "\ndevice " + T.D->deviceName() + "\nthreads " +
          Twine(T.BlockThreads) + " blocks " + Twine(L.Blocks) + " carveout " +
          Twine(L.Carveout) + " pad " + Twine(L.Pad) + "\n")
      .str();
}

// Runs F at the limit an earlier process noted (noteText) when the note is
// for this device and block size and the limit still gives its blocks:
// decided, true. Otherwise nothing changes.
static bool applyNote(Tuning &T, CUfunction F, StringRef Text,
                      const std::string &Name) {
  SmallVector<StringRef, 4> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.size() != 3 || Lines[0] != NoteHeader ||
      Lines[1] != "device " + T.D->deviceName())
    return false;
  unsigned long long Threads = 0, Pad = 0;
  int Blocks = 0, Carveout = 0;
  char End = 0;
  if (std::sscanf(Lines[2].str().c_str(),
                  "threads %llu blocks %d carveout %d pad %llu%c", &Threads,
                  &Blocks, &Carveout, &Pad, &End) != 4 ||
      Threads != T.BlockThreads)
    return false;
  int Natural = blocksAt(*T.D, F, T.BlockThreads, 0);
  Limit Noted{Blocks, Carveout, uint32_t(Pad)};
  bool IsNatural = Blocks == Natural &&
                   Carveout == CU_SHAREDMEM_CARVEOUT_DEFAULT && Pad == 0;
  if (!IsNatural) {
    if (Blocks < 1 || Blocks >= Natural || Carveout < 0 || Carveout > 100 ||
        Pad > CudaDriver::DefaultSharedLimit)
      return false;
    if (!setCarveout(T, F, Carveout) ||
        blocksAt(*T.D, F, T.BlockThreads, Noted.Pad) != Blocks) {
      setCarveout(T, F, CU_SHAREDMEM_CARVEOUT_DEFAULT);
      return false;
    }
  }
  T.Choices.assign(1, Limit{Natural});
  if (!IsNatural)
    T.Choices.push_back(Noted);
  T.Chosen = IsNatural ? 0 : 1;
  T.Now = Tuning::Phase::Decided;
  if (traceEnabled()) {
    std::string Line;
    raw_string_ostream OS(Line);
    OS << "mstage: trace: occupancy: kernel '" << Name << "' runs at ";
    describe(OS, T.Choices[T.Chosen]);
    OS << ", as an earlier run measured (disk cache)";
    errs() << Line << "\n";
  }
  return true;
}

static void dropSample(CudaDriver &D, const Sample &S) {
  consumeError(D.destroyEvent(S.Start));
  consumeError(D.destroyEvent(S.End));
}

// Reads the samples that are done, in the order they were enqueued.
static void readSamplesRelaxed(Tuning &T) {
  while (!T.Pending.empty()) {
    Sample S = T.Pending.front();
    CUresult Q = T.D->queryEvent(S.End);
    if (Q == CUDA_ERROR_NOT_READY)
      return;
    float Ms = -1;
    if (Q == CUDA_SUCCESS)
      if (Error E = T.D->elapsedMs(&Ms, S.Start, S.End)) {
        consumeError(std::move(E));
        Ms = -1;
      }
    dropSample(*T.D, S);
    T.Pending.pop_front();
    if (Ms < 0)
      continue;
    float &Fastest = T.FastestMs[S.Choice];
    Fastest = Fastest < 0 ? Ms : std::min(Fastest, Ms);
    ++T.Times[S.Choice];
  }
}

// A query from a thread that captures a stream would invalidate its capture
// (a launch inside mstage::capture comes here) unless its mode is relaxed.
static void readSamples(Tuning &T) {
  if (T.Pending.empty())
    return;
  CUstreamCaptureMode Mode = T.D->relaxCapture(CU_STREAM_CAPTURE_MODE_RELAXED);
  readSamplesRelaxed(T);
  T.D->relaxCapture(Mode);
}

static void decide(Tuning &T, CUfunction F, int Choice,
                   const std::string &Name) {
  T.Chosen = Choice;
  if (!setCarveout(T, F, T.Choices[Choice].Carveout))
    T.Chosen = 0; // the driver refused it: the natural occupancy
  T.Now = Tuning::Phase::Decided;
  for (const Sample &S : T.Pending)
    dropSample(*T.D, S);
  T.Pending.clear();
  bool Tried = T.FastestMs.size() > 1 && T.Times[1] > 0;
  if (Tried && T.NoteKey)
    storeEntryNote(*T.NoteKey, noteText(T));
  if (!traceEnabled() || !Tried)
    return;
  std::string Line;
  raw_string_ostream OS(Line);
  OS << "mstage: trace: occupancy: kernel '" << Name << "' keeps ";
  describe(OS, T.Choices[T.Chosen]);
  OS << ":";
  for (size_t I = 0; I < T.Choices.size(); ++I)
    OS << (I ? "," : "") << format(" %.3f ms at ", T.FastestMs[I])
       << T.Choices[I].Blocks;
  errs() << Line << "\n";
}

// The tuning's next step before a launch; the choice it runs at. Timed:
// this launch is to be timed as that choice.
static int step(Tuning &T, CUfunction F, bool Timeable, const std::string &Name,
                bool &Timed) {
  Timed = false;
  readSamples(T);
  if (T.Now == Tuning::Phase::Measuring && T.Times[0] > 0) {
    if (T.FastestMs[0] < MinTunedMs) {
      decide(T, F, 0, Name);
    } else {
      float First = T.FastestMs[0];
      chooseLimits(T, F, Name);
      T.FastestMs[0] = First; // the natural run keeps its first time
      T.Times[0] = 1;
      T.Now =
          T.Choices.size() > 1 ? Tuning::Phase::Trying : Tuning::Phase::Decided;
      T.Turn = 1; // the natural occupancy has its first time
    }
  }
  if (T.Now == Tuning::Phase::Trying) {
    bool Done = true;
    for (int N : T.Times)
      Done &= N >= Rounds;
    if (Done) {
      int Best = 0;
      for (size_t I = 1; I < T.FastestMs.size(); ++I)
        if (T.FastestMs[I] < T.FastestMs[Best])
          Best = int(I);
      decide(T, F, T.FastestMs[Best] < Margin * T.FastestMs[0] ? Best : 0,
             Name);
    }
  }
  switch (T.Now) {
  case Tuning::Phase::Fresh:
    assert(false && "a fresh tuning is begun by its first launch");
    return 0;
  case Tuning::Phase::Measuring:
    // Natural launches until the first one's time is read; a lost sample
    // (its launch failed) is taken again.
    Timed = Timeable && T.Pending.empty() && T.Times[0] == 0;
    return 0;
  case Tuning::Phase::Trying: {
    if (!Timeable)
      return setCarveout(T, F, CU_SHAREDMEM_CARVEOUT_DEFAULT) ? 0 : -1;
    int Choice = int(T.Turn++ % T.Choices.size());
    if (!setCarveout(T, F, T.Choices[Choice].Carveout))
      return -1;
    Timed = true;
    return Choice;
  }
  case Tuning::Phase::Decided:
    return T.Chosen;
  }
  return 0;
}

OccupancyTrial::OccupancyTrial(
    const LaunchRequest &L, CUfunction Function, bool Timeable,
    LaunchConfig &Config, function_ref<std::optional<CacheKey>()> NoteKey) {
  const OccupancySetting &Set = occupancySetting();
  CudaDriver *D = L.S->driver();
  if (Set.How == OccupancySetting::Mode::Off || !D || !Function ||
      Config.shared_bytes != 0)
    return;
  Tuning &T = tunings().of(Function);
  if (T.Settled.load(std::memory_order_acquire)) {
    if (T.D == D && threadsOf(Config) == T.BlockThreads)
      Config.shared_bytes = T.SettledPad;
    return;
  }
  T.Lock.lock();
  const std::string &Name = L.K->Blob.PrettyName;
  if (T.Now == Tuning::Phase::Fresh) {
    T.D = D;
    T.BlockThreads = threadsOf(Config);
    if (Set.How == OccupancySetting::Mode::Fixed) {
      chooseLimits(T, Function, Name);
      T.Chosen = T.Choices.size() > 1 ? 1 : 0;
      T.Now = Tuning::Phase::Decided;
      if (!setCarveout(T, Function, T.Choices[T.Chosen].Carveout))
        T.Chosen = 0;
    } else {
      T.NoteKey = NoteKey();
      std::optional<std::string> Note;
      if (T.NoteKey)
        Note = loadEntryNote(*T.NoteKey);
      if (!Note || !applyNote(T, Function, *Note, Name)) {
        T.Choices.assign(1, Limit{});
        T.FastestMs.assign(1, -1);
        T.Times.assign(1, 0);
        T.Now = Tuning::Phase::Measuring;
      }
    }
  }
  if (T.D != D || threadsOf(Config) != T.BlockThreads) {
    T.Lock.unlock(); // another device or block size: as it comes
    return;
  }
  bool Timed;
  int Choice = step(T, Function, Timeable, Name, Timed);
  if (Choice < 0) { // the carveout was refused: the natural occupancy
    decide(T, Function, 0, Name);
    Choice = 0;
    Timed = false;
  }
  Config.shared_bytes = T.Choices[Choice].Pad;
  if (T.Now == Tuning::Phase::Decided && !Timed) {
    T.SettledPad = Config.shared_bytes;
    T.Settled.store(true, std::memory_order_release);
  }
  if (Timed) {
    if (Error E = D->createEvent(&Start)) {
      consumeError(std::move(E));
      Timed = false;
    } else if (Error E = D->recordEvent(Start, L.S->handle())) {
      consumeError(std::move(E));
      consumeError(D->destroyEvent(Start));
      Start = nullptr;
      Timed = false;
    }
  }
  if (!Timed) {
    T.Lock.unlock();
    return;
  }
  // Held until the launch is enqueued: the function's carveout is this
  // launch's.
  Held = &T;
  this->Choice = Choice;
  Queue = L.S->handle();
}

void OccupancyTrial::enqueued() {
  if (!Held)
    return;
  Tuning &T = *static_cast<Tuning *>(Held);
  Held = nullptr;
  CUevent End = nullptr;
  if (Error E = T.D->createEvent(&End)) {
    consumeError(std::move(E));
    consumeError(T.D->destroyEvent(Start));
  } else if (Error E = T.D->recordEvent(End, Queue)) {
    consumeError(std::move(E));
    dropSample(*T.D, {Choice, Start, End});
  } else {
    T.Pending.push_back({Choice, Start, End});
  }
  T.Lock.unlock();
}

OccupancyTrial::~OccupancyTrial() {
  if (!Held)
    return;
  // The launch failed: its sample is dropped.
  Tuning &T = *static_cast<Tuning *>(Held);
  consumeError(T.D->destroyEvent(Start));
  T.Lock.unlock();
}

} // namespace mstage::rt
