//===- Settings.cpp - Every MSTAGE_* variable the runtime reads -----------===//
#include "support/Settings.h"
#include "support/Warning.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace llvm;

namespace mstage::rt {

namespace {

// The one call of getenv in the runtime. Null when the variable is unset.
const char *env(const char *Name) { return std::getenv(Name); }

// The variable's text; "" when it is unset.
StringRef envText(const char *Name) {
  const char *V = env(Name);
  return V ? StringRef(V) : StringRef();
}

// Made once and never destroyed (see the header).
template <typename T, typename Read> const T &once(Read R) {
  // One static per accessor: each instantiation's lambda type is its own.
  static const T &Value = *new T(R());
  return Value;
}

BoolSetting readBool(const char *Name, bool Default = false) {
  BoolSetting S;
  S.Value = Default;
  StringRef Value = envText(Name);
  if (Value.empty())
    return S;
  if (std::optional<bool> B = parseBool(Value))
    S.Value = *B;
  else
    S.Error = (Twine(Name) + "='" + Value +
               "' is not a boolean; use 1, on, true or yes, "
               "or 0, off, false or no")
                  .str();
  return S;
}

// Why Path cannot be written, or "".
std::string unwritable(StringRef Path) {
  if (sys::fs::is_directory(Path))
    return "it is a folder";
  StringRef Dir = sys::path::parent_path(Path);
  if (!sys::fs::is_directory(Dir))
    return "its folder '" + Dir.str() + "' does not exist";
  if (std::error_code EC = sys::fs::access(Dir, sys::fs::AccessMode::Write))
    return "its folder '" + Dir.str() + "' is not writable (" + EC.message() +
           ")";
  if (sys::fs::exists(Path))
    if (std::error_code EC = sys::fs::access(Path, sys::fs::AccessMode::Write))
      return EC.message();
  return "";
}

// A whole non-negative number not over Max, as strtol reads it.
std::optional<long> parseCount(const std::string &Text, long Max) {
  char *End = nullptr;
  errno = 0;
  long Parsed = std::strtol(Text.c_str(), &End, 10);
  if (Text.empty() || errno || *End || Parsed < 0 || Parsed > Max)
    return std::nullopt;
  return Parsed;
}

std::string resolveCacheDir() {
  if (StringRef D = envText("MSTAGE_CACHE_DIR"); !D.empty())
    return D.str();
  SmallString<256> Path;
  if (StringRef X = envText("XDG_CACHE_HOME"); !X.empty())
    Path = X;
  else if (StringRef H = envText("HOME"); !H.empty())
    sys::path::append(Path, H, ".cache");
  else
    return "";
  sys::path::append(Path, "mstage");
  return std::string(Path);
}

CacheSettings readCacheSettings() {
  CacheSettings S;
  if (StringRef M = envText("MSTAGE_CACHE"); !M.empty()) {
    StringRef V = M.trim();
    if (V == "off")
      S.Mode = CacheMode::Off;
    else if (V == "memory")
      S.Mode = CacheMode::Memory;
    else if (V == "disk")
      S.Mode = CacheMode::Disk;
    else
      S.Error =
          "MSTAGE_CACHE='" + V.str() + "' is not one of off, memory, disk";
  }
  if (StringRef Cap = envText("MSTAGE_CACHE_MAX_MB"); !Cap.empty()) {
    double MB;
    if (Cap.trim().getAsDouble(MB) || !(MB >= 0))
      S.Error = "MSTAGE_CACHE_MAX_MB='" + Cap.str() +
                "' is not a number of megabytes";
    else
      S.MaxBytes = uint64_t(MB * 1048576);
  }
  if (StringRef Wait = envText("MSTAGE_CACHE_LOCK_WAIT_MS"); !Wait.empty()) {
    uint32_t Ms;
    if (Wait.trim().getAsInteger(10, Ms))
      S.Error = "MSTAGE_CACHE_LOCK_WAIT_MS='" + Wait.str() +
                "' is not a number of milliseconds (0 or more)";
    else
      S.LockWaitMs = Ms;
  }
  for (auto [Name, To] : {std::pair{"MSTAGE_CACHE_SHARED", &S.Shared},
                          std::pair{"MSTAGE_CACHE_READONLY", &S.ReadOnly}}) {
    BoolSetting B = readBool(Name);
    *To = B.Value;
    if (!B.Error.empty())
      S.Error = B.Error;
  }
  S.Dir = resolveCacheDir();
  if (S.Mode == CacheMode::Disk && S.Dir.empty()) {
    warn("no cache directory (set MSTAGE_CACHE_DIR, XDG_CACHE_HOME or "
         "HOME); caching kernels in memory only");
    S.Mode = CacheMode::Memory;
  }
  assert((S.Mode != CacheMode::Disk || !S.Dir.empty()) &&
         "a disk cache has a directory");
  return S;
}

CheckSettings readCheckSettings() {
  CheckSettings S;
  StringRef Mode = envText("MSTAGE_CHECK");
  SmallVector<StringRef, 2> Parts;
  Mode.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts) {
    Part = Part.trim();
    if (Part == "cpu")
      S.Cpu = true;
    else if (Part == "stage")
      S.Stage = true;
    else if (Part == "streams")
      S.Streams = true;
    else if (Part != "off" && Part != "0" && !Part.empty())
      S.Error = "MSTAGE_CHECK='" + Mode.str() +
                "' is not a list of cpu, stage and streams, or off";
  }
  if (StringRef R = envText("MSTAGE_CHECK_RTOL"); !R.empty()) {
    if (R.trim().getAsDouble(S.Rtol) || !(S.Rtol >= 0))
      S.Error = "MSTAGE_CHECK_RTOL='" + R.str() +
                "' is not a relative tolerance such as 1e-5";
  }
  if (S.Cpu && S.Error.empty())
    warn("MSTAGE_CHECK=cpu: each launch also runs on the CPU back end, and "
         "the outputs are compared");
  if (S.Stage && S.Error.empty())
    warn("MSTAGE_CHECK=stage: on the CPU back end, every stage() is "
         "compared with the value folded for its launch");
  if (StringRef O = envText("MSTAGE_STREAM_ORDER").trim(); !O.empty()) {
    if (O == "auto")
      S.StreamOrder = true;
    else if (O != "off" && O != "0")
      S.Error = "MSTAGE_STREAM_ORDER='" + O.str() + "' is not auto or off";
  }
  if (S.StreamOrder && S.Error.empty())
    warn("MSTAGE_STREAM_ORDER=auto: a use of memory that another stream's "
         "work may still use waits for that work");
  if (S.Streams && S.Error.empty())
    warn("MSTAGE_CHECK=streams: each use of a device, managed or pinned "
         "allocation is checked against the other streams' uses");
  return S;
}

DumpSettings readDumpSettings() {
  DumpSettings S;
  if (StringRef Dir = envText("MSTAGE_DUMP_DIR"); !Dir.empty())
    S.Dir = Dir.str();
  SmallVector<StringRef, 4> Parts;
  envText("MSTAGE_DUMP").split(Parts, ',', -1, false);
  for (StringRef P : Parts) {
    P = P.trim();
    if (P == "ir")
      S.IR = true;
    else if (P == "ptx")
      S.PTX = true;
    else if (P == "sass")
      S.SASS = true;
    else if (P == "all")
      S.IR = S.PTX = S.SASS = true;
    else
      warn("MSTAGE_DUMP: unknown kind '" + P + "' (known: ir, ptx, sass, all)");
  }
  return S;
}

JitSettings readJitSettings() {
  JitSettings S;
  if (StringRef V = envText("MSTAGE_JIT"); !V.empty()) {
    S.Chosen = true;
    std::string Mode = V.trim().lower();
    if (Mode == "sync")
      S.Policy = JitSettings::Mode::Sync;
    else if (Mode == "async")
      S.Policy = JitSettings::Mode::Async;
    else if (Mode == "generic")
      S.Policy = JitSettings::Mode::Generic;
    else if (Mode != "auto")
      S.Error = "MSTAGE_JIT='" + V.str() +
                "' is not one of auto, async, sync or generic";
    S.Async = S.Policy != JitSettings::Mode::Sync;
  }
  if (StringRef V = envText("MSTAGE_JIT_THREADS"); !V.empty()) {
    unsigned N = 0;
    if (V.trim().getAsInteger(10, N) || N == 0 || N > 1024)
      S.Error += (S.Error.empty() ? "" : "; ") +
                 std::string("MSTAGE_JIT_THREADS='") + V.str() +
                 "' is not a number of threads from 1 to 1024";
    else
      S.Threads = N;
  }
  // A dump is asked for to be complete: it waits longer.
  if (!envText("MSTAGE_DUMP").trim().empty())
    S.ExitWaitMs = 60000;
  if (StringRef V = envText("MSTAGE_PTXAS_FAST_COMPILE"); !V.empty()) {
    std::string Level = V.trim().lower();
    if (Level == "min" || Level == "mid" || Level == "max")
      S.PtxasFastCompile = Level;
    else if (Level != "off" && Level != "0")
      S.Error += (S.Error.empty() ? "" : "; ") +
                 std::string("MSTAGE_PTXAS_FAST_COMPILE='") + V.str() +
                 "' is not one of off, min, mid or max";
  }
  if (StringRef V = envText("MSTAGE_JIT_TIERS"); !V.empty()) {
    S.Tiers = parseBool(V);
    if (!S.Tiers)
      S.Error += (S.Error.empty() ? "" : "; ") +
                 std::string("MSTAGE_JIT_TIERS='") + V.str() +
                 "' is not one of on or off";
  }
  if (StringRef V = envText("MSTAGE_JIT_EXIT_WAIT_MS"); !V.empty()) {
    std::optional<long> Ms = parseCount(V.trim().str(), 3600000);
    if (!Ms)
      S.Error += (S.Error.empty() ? "" : "; ") +
                 std::string("MSTAGE_JIT_EXIT_WAIT_MS='") + V.str() +
                 "' is not a number of milliseconds from 0 to 3600000";
    else
      S.ExitWaitMs = unsigned(*Ms);
  }
  return S;
}

VisibleDevicesSetting readVisibleDevices() {
  VisibleDevicesSetting S;
  StringRef Value = envText("MSTAGE_VISIBLE_DEVICES");
  if (Value.empty())
    return S;
  S.Text = Value.str();
  std::string_view Rest(Value.data(), Value.size());
  while (true) {
    size_t Comma = Rest.find(',');
    std::string Item(Rest.substr(0, Comma));
    std::optional<long> Parsed = parseCount(Item, 1 << 20);
    bool Repeated = Parsed && std::find(S.Ordinals.begin(), S.Ordinals.end(),
                                        *Parsed) != S.Ordinals.end();
    if (!Parsed || Repeated || S.Ordinals.size() == MaxDevices) {
      S.Error = "MSTAGE_VISIBLE_DEVICES='" + Value.str() + "' is not " +
                (Repeated ? "a list of distinct device numbers (" + Item +
                                " is repeated)"
                          : "a list of device numbers such as 0,1");
      S.Ordinals.clear();
      return S;
    }
    S.Ordinals.push_back(static_cast<int>(*Parsed));
    if (Comma == std::string_view::npos)
      return S;
    Rest.remove_prefix(Comma + 1);
  }
}

} // namespace

std::optional<bool> parseBool(StringRef Text) {
  return StringSwitch<std::optional<bool>>(Text.trim().lower())
      .Cases({"1", "on", "true", "yes"}, true)
      .Cases({"0", "off", "false", "no"}, false)
      .Default(std::nullopt);
}

const BackendSetting &backendSetting() {
  return once<BackendSetting>([] {
    BackendSetting S;
    if (StringRef Want = envText("MSTAGE_BACKEND"); !Want.empty())
      S.Want = Want.str();
    S.Arch = envText("MSTAGE_ARCH").str();
    if (S.Want != "auto" && S.Want != "cuda" && S.Want != "cpu" &&
        S.Want != "ptx")
      S.Error = "MSTAGE_BACKEND='" + S.Want +
                "' is not one of auto, cuda, cpu and ptx";
    return S;
  });
}

const VisibleDevicesSetting &visibleDevicesSetting() {
  return once<VisibleDevicesSetting>([] { return readVisibleDevices(); });
}

const DeviceSetting &deviceSetting() {
  return once<DeviceSetting>([] {
    DeviceSetting S;
    StringRef Value = envText("MSTAGE_DEVICE");
    if (Value.empty())
      return S;
    if (std::optional<long> N = parseCount(Value.str(), 1 << 20))
      S.Index = static_cast<int>(*N);
    else
      S.Error = "MSTAGE_DEVICE='" + Value.str() +
                "' is not a device number such as 0";
    return S;
  });
}

const BoolSetting &peerAccessSetting() {
  return once<BoolSetting>([] { return readBool("MSTAGE_PEER_ACCESS", true); });
}

const BoolSetting &launchBlockingSetting() {
  return once<BoolSetting>([] { return readBool("MSTAGE_LAUNCH_BLOCKING"); });
}

const BoolSetting &graphsSetting() {
  return once<BoolSetting>([] {
    BoolSetting S;
    StringRef G = envText("MSTAGE_GRAPHS").trim();
    if (G == "auto")
      S.Value = true;
    else if (!G.empty() && G != "off" && G != "0")
      S.Error = "MSTAGE_GRAPHS='" + G.str() + "' is not auto or off";
    return S;
  });
}

const BoolSetting &graphBranchesSetting() {
  return once<BoolSetting>(
      [] { return readBool("MSTAGE_GRAPH_BRANCHES", true); });
}

const GraphLaunchesSetting &graphLaunchesSetting() {
  return once<GraphLaunchesSetting>([] {
    GraphLaunchesSetting S;
    StringRef Value = envText("MSTAGE_GRAPH_LAUNCHES").trim();
    if (Value.empty())
      return S;
    std::optional<long> N =
        parseCount(Value.str(), GraphLaunchesSetting::MaxGraphLaunches);
    S.Grow = false;
    if (N && *N >= 1)
      S.Launches = unsigned(*N);
    else
      S.Error = "MSTAGE_GRAPH_LAUNCHES='" + Value.str() +
                "' is not a count of launches from 1 to " +
                std::to_string(GraphLaunchesSetting::MaxGraphLaunches);
    return S;
  });
}

const BoolSetting &pdlSetting() {
  return once<BoolSetting>([] { return readBool("MSTAGE_PDL", true); });
}

const BoolSetting &fastMathSetting() {
  return once<BoolSetting>([] { return readBool("MSTAGE_FAST_MATH"); });
}

const OccupancySetting &occupancySetting() {
  return once<OccupancySetting>([] {
    OccupancySetting S;
    StringRef O = envText("MSTAGE_OCCUPANCY").trim();
    unsigned N = 0;
    if (O.empty() || O == "auto")
      return S;
    if (O == "off" || O == "0")
      S.How = OccupancySetting::Mode::Off;
    else if (!O.getAsInteger(10, N) && N >= 1 && N <= 64) {
      S.How = OccupancySetting::Mode::Fixed;
      S.Blocks = int(N);
    } else
      S.Error = "MSTAGE_OCCUPANCY='" + O.str() +
                "' is not auto, off or a number of blocks from 1 to 64";
    return S;
  });
}

bool boundsCheckVariableSet() { return env("MSTAGE_BOUNDS_CHECK"); }

const JitSettings &jitSettings() {
  return once<JitSettings>([] { return readJitSettings(); });
}

const std::string &llvmArgsSetting() {
  return once<std::string>([] { return envText("MSTAGE_LLVM_ARGS").str(); });
}

const std::optional<std::string> &ptxasSetting() {
  return once<std::optional<std::string>>([]() -> std::optional<std::string> {
    if (StringRef V = envText("MSTAGE_PTXAS"); !V.empty())
      return V.str();
    return std::nullopt;
  });
}

const CacheSettings &cacheSettings() {
  return once<CacheSettings>([] { return readCacheSettings(); });
}

unsigned cpuThreadsSetting() {
  return once<unsigned>([] {
    long Want = std::atol(envText("MSTAGE_CPU_THREADS").str().c_str());
    return unsigned(std::clamp(Want, 0L, 4096L));
  });
}

std::size_t cpuStackBytesSetting() {
  return once<std::size_t>([] {
    long KB = std::atol(envText("MSTAGE_CPU_STACK_KB").str().c_str());
    return std::size_t(KB > 0 ? KB : 256) * 1024;
  });
}

bool cpuFibersAlwaysSetting() {
  return once<bool>([] { return envText("MSTAGE_CPU_FIBERS") == "always"; });
}

const CheckSettings &checkSettings() {
  return once<CheckSettings>([] { return readCheckSettings(); });
}

TraceSetting parseTraceSetting(StringRef Text) {
  TraceSetting S;
  if (Text.trim().empty())
    return S;
  if (std::optional<bool> B = parseBool(Text)) {
    S.Text = *B;
    return S;
  }
  StringRef File = Text;
  if (!File.consume_front("chrome:")) {
    S.Error = ("MSTAGE_TRACE='" + Text +
               "' is not a boolean; use 1, on, true or yes, or 0, off, false "
               "or no, or chrome:FILE.json for a timeline")
                  .str();
    return S;
  }
  if (File.empty()) {
    S.Error = "MSTAGE_TRACE='chrome:' names no file; use chrome:FILE.json";
    return S;
  }
  SmallString<256> Path(File);
  sys::fs::make_absolute(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  if (std::string Why = unwritable(Path); !Why.empty()) {
    S.Error = ("MSTAGE_TRACE='" + Text + "': cannot write the trace to '" +
               Path + "': " + Why)
                  .str();
    return S;
  }
  S.ChromeFile = Path.str().str();
  return S;
}

const TraceSetting &traceSetting() {
  return once<TraceSetting>(
      [] { return parseTraceSetting(envText("MSTAGE_TRACE")); });
}

const BoolSetting &statsSetting() {
  return once<BoolSetting>([] { return readBool("MSTAGE_STATS"); });
}

const TimersSetting &timersSetting() {
  return once<TimersSetting>([] {
    TimersSetting S;
    StringRef V = envText("MSTAGE_TIMERS").trim();
    if (V.equals_insensitive("kernels")) {
      S.On = S.Kernels = true;
    } else if (!V.empty()) {
      std::optional<bool> B = parseBool(V);
      if (B)
        S.On = *B;
      else
        S.Error = "MSTAGE_TIMERS='" + V.str() + "' is not on, off or kernels";
    }
    return S;
  });
}

const BoolSetting &b4bSetting() {
  return once<BoolSetting>([] { return readBool("MSTAGE_B4B"); });
}

const DumpSettings &dumpSettings() {
  return once<DumpSettings>([] { return readDumpSettings(); });
}

} // namespace mstage::rt
