//===- Settings.h - Every MSTAGE_* variable the runtime reads -------------===//
//
// The runtime's only reader of the environment: each variable has one
// accessor here, which reads, parses and checks it once, on its first call
// (so a program may still set a variable before the runtime first needs
// it), and keeps the result for the process's life. Values are never
// destroyed: background compiles may read them during exit(). A bad value is
// kept as an Error text that names the variable and its value; the runtime
// fails launches with it. docs/environment.md documents them.
//
// Every boolean MSTAGE_* variable takes the same values: 1, on, true or yes;
// 0, off, false or no (in any case).
//
// Read elsewhere, outside the runtime: MSTAGE_CXX (tools/mstage++) and, at
// compile time, MSTAGE_PTXAS and CUDA_HOME (passes/aot/AotCompile.cpp,
// CudaToolkit.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_SUPPORT_SETTINGS_H
#define MSTAGE_RUNTIME_SUPPORT_SETTINGS_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mstage::rt {

// Text as a boolean, or nothing when it is not one of the words above.
std::optional<bool> parseBool(llvm::StringRef Text);

// A boolean variable: Error is empty when it is valid.
struct BoolSetting {
  bool Value = false;
  std::string Error;
};

// --- Where launches go ---------------------------------------------------

// MSTAGE_BACKEND (auto, cuda, cpu or ptx; default auto) and MSTAGE_ARCH
// (empty when unset; checked against LLVM's architectures by Backend.cpp).
struct BackendSetting {
  std::string Want = "auto";
  std::string Arch;
  std::string Error; // MSTAGE_BACKEND is none of the four
};
const BackendSetting &backendSetting();

// The most devices one process uses.
constexpr unsigned MaxDevices = 64;

// MSTAGE_VISIBLE_DEVICES: CUDA's numbers of the devices to use, in order
// (empty: all), distinct and at most MaxDevices of them.
struct VisibleDevicesSetting {
  std::vector<int> Ordinals;
  std::string Text; // the value as given, for messages
  std::string Error;
};
const VisibleDevicesSetting &visibleDevicesSetting();

// MSTAGE_DEVICE: the default device's number among the visible ones
// (default 0).
struct DeviceSetting {
  int Index = 0;
  std::string Error;
};
const DeviceSetting &deviceSetting();

// MSTAGE_PEER_ACCESS (default on): off, devices never reach each other's
// memory; copies between them are staged through the host.
const BoolSetting &peerAccessSetting();

// MSTAGE_LAUNCH_BLOCKING: every launch waits for its kernel.
const BoolSetting &launchBlockingSetting();

// MSTAGE_GRAPHS: auto replays a stream's repeating launches as CUDA graphs
// (replay/GraphReplay.h); off (default) launches each as it comes. Another
// value is an Error that fails launches on the GPU.
const BoolSetting &graphsSetting();

// MSTAGE_GRAPH_BRANCHES (default on): a replayed graph orders two of its
// operations only where their footprints meet (replay/GraphBranches.h);
// off: each after the one before it, as the stream ordered them.
const BoolSetting &graphBranchesSetting();

// MSTAGE_GRAPH_LAUNCHES: the fewest operations a replayed graph holds
// (whole periods of them). Unset: 4, and each graph launched, the next
// holds four times as many (GraphReplay.cpp); set: that many, always. Not a
// count from 1 to MaxGraphLaunches: an Error that fails launches on the GPU.
struct GraphLaunchesSetting {
  static constexpr unsigned MaxGraphLaunches = 4096;
  unsigned Launches = 4; // the first graph's, when it grows
  bool Grow = true;
  std::string Error;
};
const GraphLaunchesSetting &graphLaunchesSetting();

// MSTAGE_PDL: JIT specializations for sm_90 and newer whose grid fits on
// the device at once begin with griddepcontrol.wait and are launched with
// programmatic stream serialization (cuda/LaunchKind.h,
// launch/JitCompile.h); off: neither.
const BoolSetting &pdlSetting();

// MSTAGE_FAST_MATH: fast math for every launch.
const BoolSetting &fastMathSetting();

// MSTAGE_OCCUPANCY: auto (default) tries fewer resident blocks a
// multiprocessor on a long specialization's first launches and keeps the
// fastest (launch/OccupancyTuning.h); off never does; a number N runs every
// specialization at N blocks a multiprocessor where a limit can make it so.
// Another value is an Error that fails launches.
struct OccupancySetting {
  enum class Mode { Auto, Off, Fixed } How = Mode::Auto;
  int Blocks = 0; // under Fixed
  std::string Error;
};
const OccupancySetting &occupancySetting();

// MSTAGE_BOUNDS_CHECK is a macro, not a variable: whether it is set in the
// environment anyway (the first launch says it changes nothing there).
bool boundsCheckVariableSet();

// --- The JIT ---------------------------------------------------------------

// MSTAGE_JIT, MSTAGE_JIT_THREADS and MSTAGE_JIT_EXIT_WAIT_MS.
struct JitSettings {
  // MSTAGE_JIT=auto (default): a launch that misses the in-memory cache
  // waits for its specialization when the compile is expected to be short
  // against the launch's work, else runs the kernel's ahead-of-time generic
  // code while the specialization compiles in the background
  // (launch/JitPolicy.h). async: it never waits. sync: it always waits.
  // generic: a kernel with generic code always runs it and nothing is
  // specialized (for measuring the generic code against the specialized).
  // In PTX-only mode, where nothing runs, the default is sync: only an
  // explicit auto or async (Chosen) compiles in the background there.
  enum class Mode { Auto, Async, Sync, Generic };
  Mode Policy = Mode::Auto;
  bool Async = true;   // not sync: a miss may run the generic code
  bool Chosen = false; // MSTAGE_JIT is set
  // MSTAGE_JIT_THREADS: the background compile pool's workers (0: one per
  // hardware thread).
  unsigned Threads = 0;
  // MSTAGE_JIT_EXIT_WAIT_MS: how long exit() lets queued background
  // compiles finish, so that the disk cache and the dumps get them
  // (default 5000, or 60000 with MSTAGE_DUMP set; 0 drops them at once).
  // Compiles still queued then are dropped (and said); running ones
  // finish.
  unsigned ExitWaitMs = 5000;
  // MSTAGE_PTXAS_FAST_COMPILE=min|mid|max: ptxas's --Ofast-compile level for
  // the JIT's cubins ("" for off, the default: ptxas -O3). On issue 33's
  // 1,500-2,500-line stencil kernels, min and mid take 31% less ptxas time
  // and may use more registers (docs/performance.md).
  std::string PtxasFastCompile;
  // MSTAGE_JIT_TIERS=on|off: a background compile first makes tier 0 (a
  // quick pipeline, never cached), which launches run until tier 1 (the full
  // compile) replaces it (launch/CompileInBackground.h). Unset: on where code
  // is loaded (the GPU), off in PTX-only mode.
  std::optional<bool> Tiers;
  std::string Error; // what is wrong with any of these variables, or ""
};
const JitSettings &jitSettings();

// MSTAGE_LLVM_ARGS as given ("" when unset); the JIT checks the options
// (jit/JitCompiler.cpp) and the cache key carries the text.
const std::string &llvmArgsSetting();

// MSTAGE_PTXAS as given: nothing when unset or empty (look for ptxas), "off",
// or a program (cuda/CudaTools.cpp checks that it can be run).
const std::optional<std::string> &ptxasSetting();

// --- The caches ------------------------------------------------------------

enum class CacheMode { Off, Memory, Disk };

struct CacheSettings {
  CacheMode Mode = CacheMode::Disk;
  std::string Dir;                   // resolved; empty when it cannot be
  uint64_t MaxBytes = 1024ull << 20; // MSTAGE_CACHE_MAX_MB
  bool Shared = false;               // MSTAGE_CACHE_SHARED
  bool ReadOnly = false;             // MSTAGE_CACHE_READONLY
  uint32_t LockWaitMs = 10000;       // MSTAGE_CACHE_LOCK_WAIT_MS
  std::string Error;                 // a bad setting: every launch fails
};

// MSTAGE_CACHE (off|memory|disk, default disk), MSTAGE_CACHE_DIR (else
// $XDG_CACHE_HOME/mstage, else ~/.cache/mstage; with none of them the disk
// cache is off, said once), MSTAGE_CACHE_MAX_MB (default 1024; fractions
// allowed), MSTAGE_CACHE_SHARED and MSTAGE_CACHE_READONLY (booleans, default
// 0) and MSTAGE_CACHE_LOCK_WAIT_MS (milliseconds, default 10000).
const CacheSettings &cacheSettings();

// --- The CPU back end ------------------------------------------------------

// MSTAGE_CPU_THREADS: OS threads for a CPU launch, 1 to 4096 (0: unset, one
// per hardware thread).
unsigned cpuThreadsSetting();

// MSTAGE_CPU_STACK_KB: each fiber's stack in bytes (default 256 KiB).
std::size_t cpuStackBytesSetting();

// MSTAGE_CPU_FIBERS=always: every kernel's threads run as fibers.
bool cpuFibersAlwaysSetting();

// MSTAGE_CHECK is a comma-separated list: "cpu" runs each GPU launch again on
// the CPU back end and compares the outputs (CpuCheck.cpp); "stage" compares
// every execution of a stage() site on the CPU back end with the value that
// was folded (backends/cpu/StageCheck.h); "streams" reports uses of memory
// that no event or synchronization orders after a conflicting use on
// another stream (core/StreamCheck.h); "off" or empty checks nothing.
// Each check that is on is announced once on stderr.
struct CheckSettings {
  bool Cpu = false;     // MSTAGE_CHECK=cpu
  bool Stage = false;   // MSTAGE_CHECK=stage
  bool Streams = false; // MSTAGE_CHECK=streams
  // MSTAGE_STREAM_ORDER=auto: each use the streams check would report makes
  // its stream wait for the other's work instead (no report).
  bool StreamOrder = false;
  double Rtol = 1e-5; // MSTAGE_CHECK_RTOL
  std::string Error;  // a bad setting: every launch fails
};
const CheckSettings &checkSettings();

// --- What the runtime shows ------------------------------------------------

// MSTAGE_TRACE: a boolean (the text trace, one line per launch), or
// chrome:FILE, a timeline written to FILE at exit (TraceEvents.h). FILE is
// made absolute when read, and its folder must be writable then, so that a
// path that cannot be written fails the first launch, not the exit.
struct TraceSetting {
  bool Text = false;
  std::string ChromeFile; // absolute; empty without chrome:
  std::string Error;
};
TraceSetting parseTraceSetting(llvm::StringRef Text);
const TraceSetting &traceSetting();

// MSTAGE_STATS: a table per kernel at exit.
const BoolSetting &statsSetting();

// MSTAGE_TIMERS: off (default) leaves mstage::timer_start and timer_stop
// doing nothing; on (a boolean's words) times them, each waiting for the
// device first, with a table at exit; kernels also times every
// parallel_for under its label.
struct TimersSetting {
  bool On = false;
  bool Kernels = false;
  std::string Error;
};
const TimersSetting &timersSetting();

// MSTAGE_B4B: the kernels launched with mstage::b4b run in index order on
// one thread, for results that are the same bits at every run.
const BoolSetting &b4bSetting();

// MSTAGE_DUMP (a comma-separated list of ir, ptx, sass and all; an unknown
// kind is said once and left out) and MSTAGE_DUMP_DIR.
struct DumpSettings {
  bool IR = false, PTX = false, SASS = false;
  std::string Dir = "mstage-dump";
};
const DumpSettings &dumpSettings();

} // namespace mstage::rt

#endif
