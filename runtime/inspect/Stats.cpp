//===- Stats.cpp - MSTAGE_STATS: a table per kernel at exit ---------------===//
#include "inspect/Stats.h"
#include "inspect/ChecksNote.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <atomic>
#include <cassert>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace llvm;

namespace mstage::rt {
namespace {

struct KernelStats {
  std::string Name;
  uint64_t Launches = 0, Memory = 0, Disk = 0, Generic = 0, Miss = 0;
  DenseSet<uint64_t> Specializations;
  bool OnCpu = false, Ran = false;
  double CompileMs = 0, KernelMs = 0;
  // The timed runs (on a GPU) of the generic code and of specializations.
  uint64_t GenericRuns = 0, SpecializedRuns = 0;
  double GenericMs = 0, SpecializedMs = 0;
  // MSTAGE_JIT_TIERS: launches that ran tier-0 code (in no column of the
  // table: a line of their own), and the tier-0 compiles.
  uint64_t Tier0 = 0, Tier0Compiles = 0;
  double Tier0CompileMs = 0;
};

struct ResourceRow {
  std::string Kernel;
  uint64_t Id;
  CodeResources R;
};

// Never destroyed: the exit handler prints it after static destructors of
// the runtime may have run.
struct Table {
  std::mutex Lock;
  StringMap<size_t> Index;
  std::vector<KernelStats> Rows; // in the order of first launch
  // By kernel and specialization: two kernels may stage the same values.
  std::map<std::pair<std::string, uint64_t>, size_t> ResourceIndex;
  std::vector<ResourceRow> Resources; // in the order they were made

  KernelStats &row(StringRef Kernel) {
    auto [It, New] = Index.try_emplace(Kernel, Rows.size());
    if (New)
      Rows.push_back(KernelStats{Kernel.str()});
    assert(It->second < Rows.size() && "the index points at a row");
    return Rows[It->second];
  }
};

Table &table() {
  static Table *T = new Table;
  return *T;
}

} // namespace

uint64_t specializationId(std::string_view Key) {
  return xxh3_64bits(StringRef(Key.data(), Key.size()));
}

void statsLaunch(StringRef Kernel, const char *Source, uint64_t KeyHash) {
  Table &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  KernelStats &K = T.row(Kernel);
  ++K.Launches;
  if (!Source) {
    K.OnCpu = true;
    return;
  }
  K.Specializations.insert(KeyHash);
  StringRef S(Source);
  if (S == "memory")
    ++K.Memory;
  else if (S == "disk")
    ++K.Disk;
  else if (S == "generic")
    ++K.Generic;
  else if (S == "tier0")
    ++K.Tier0;
  else
    ++K.Miss; // compiled now, or MSTAGE_CACHE=off
}

bool statsEnabled() { return statsSetting().Value; }

void statsResources(StringRef Kernel, uint64_t Id, const CodeResources &R) {
  Table &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  auto [It, New] =
      T.ResourceIndex.try_emplace({Kernel.str(), Id}, T.Resources.size());
  if (New)
    T.Resources.push_back({Kernel.str(), Id, CodeResources()});
  CodeResources &Row = T.Resources[It->second].R;
  for (auto [To, From] : {std::pair{&Row.Registers, R.Registers},
                          {&Row.SpillStores, R.SpillStores},
                          {&Row.SpillLoads, R.SpillLoads},
                          {&Row.SharedBytes, R.SharedBytes},
                          {&Row.LocalBytes, R.LocalBytes},
                          {&Row.BlocksPerSm, R.BlocksPerSm},
                          {&Row.OccupancyPercent, R.OccupancyPercent}})
    if (From >= 0)
      *To = From;
  if (R.BlockThreads)
    Row.BlockThreads = R.BlockThreads;
}

// The second table: a row per specialization whose resources are known.
static void printResources(raw_ostream &OS, const Table &T) {
  if (T.Resources.empty())
    return;
  OS << "mstage: stats: "
     << format("%9s %8s %8s %8s %8s %6s %9s %6s  %s\n", "registers", "spill st",
               "spill ld", "shared", "local", "block", "blocks/SM", "occup.",
               "kernel key");
  for (const ResourceRow &Row : T.Resources) {
    const CodeResources &R = Row.R;
    auto N = [](int64_t V) {
      return V < 0 ? std::string("-") : std::to_string(V);
    };
    OS << "mstage: stats: "
       << format("%9s %8s %8s %8s %8s %6s %9s %6s  %s key %016llx\n",
                 N(R.Registers).c_str(), N(R.SpillStores).c_str(),
                 N(R.SpillLoads).c_str(), N(R.SharedBytes).c_str(),
                 N(R.LocalBytes).c_str(),
                 R.BlockThreads ? std::to_string(R.BlockThreads).c_str() : "-",
                 N(R.BlocksPerSm).c_str(),
                 R.OccupancyPercent < 0
                     ? "-"
                     : (std::to_string(R.OccupancyPercent) + "%").c_str(),
                 Row.Kernel.c_str(), (unsigned long long)Row.Id);
  }
}

void statsCompileMs(StringRef Kernel, double Ms) {
  Table &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  T.row(Kernel).CompileMs += Ms;
}

void statsTier0Compile(StringRef Kernel, double Ms) {
  Table &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  KernelStats &K = T.row(Kernel);
  ++K.Tier0Compiles;
  K.Tier0CompileMs += Ms;
}

// A line per kernel that made tier-0 code: its compiles and the launches
// that ran it before tier 1 replaced it.
static void printTiers(raw_ostream &OS, const Table &T) {
  for (const KernelStats &K : T.Rows)
    if (K.Tier0Compiles || K.Tier0)
      OS << "mstage: stats: tier 0: " << K.Tier0Compiles << " compiles ("
         << formatv("{0:f3}", K.Tier0CompileMs) << " ms), " << K.Tier0
         << " launches ran it  " << K.Name << "\n";
}

void statsKernelMs(StringRef Kernel, double Ms, bool Generic) {
  Table &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  KernelStats &K = T.row(Kernel);
  K.KernelMs += Ms;
  K.Ran = true;
  if (K.OnCpu)
    return; // the CPU runs the host body: neither
  (Generic ? K.GenericRuns : K.SpecializedRuns) += 1;
  (Generic ? K.GenericMs : K.SpecializedMs) += Ms;
}

// MSTAGE_GRAPHS=auto's graphs: made, launched, and the launches they ran.
static std::atomic<uint64_t> GraphsMade{0}, GraphReplays{0},
    ReplayedLaunches{0};

void statsGraphMade() { GraphsMade.fetch_add(1, std::memory_order_relaxed); }

void statsGraphReplay(uint64_t Launches) {
  GraphReplays.fetch_add(1, std::memory_order_relaxed);
  ReplayedLaunches.fetch_add(Launches, std::memory_order_relaxed);
}

void printStats(raw_ostream &OS) {
  Table &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  if (T.Rows.empty())
    return;
  std::string Checks = checksSummary();
  if (!Checks.empty())
    OS << "mstage: stats: " << Checks << "\n";
  OS << "mstage: stats: "
     << format("%8s %8s %7s %7s %7s %7s %12s %12s %11s %11s %6s  %s\n",
               "launches", "special.", "memory", "disk", "generic", "miss",
               "compile ms", "kernel ms", "generic ms", "special. ms", "ratio",
               "kernel");
  for (const KernelStats &K : T.Rows) {
    auto Count = [&](uint64_t N) {
      return K.OnCpu ? std::string("-") : std::to_string(N);
    };
    auto Ms = [](bool Known, double Ms) {
      return Known ? formatv("{0:f3}", Ms).str() : std::string("-");
    };
    // The mean generic and specialized runs, and how much slower the
    // generic code ran.
    double Generic = K.GenericRuns ? K.GenericMs / double(K.GenericRuns) : 0;
    double Special =
        K.SpecializedRuns ? K.SpecializedMs / double(K.SpecializedRuns) : 0;
    bool Ratio = K.GenericRuns && K.SpecializedRuns && Special > 0;
    OS << "mstage: stats: "
       << format(
              "%8llu %8s %7s %7s %7s %7s %12s %12s %11s %11s %6s  %s\n",
              (unsigned long long)K.Launches,
              Count(K.Specializations.size()).c_str(), Count(K.Memory).c_str(),
              Count(K.Disk).c_str(), Count(K.Generic).c_str(),
              Count(K.Miss).c_str(), Ms(!K.OnCpu, K.CompileMs).c_str(),
              Ms(K.Ran, K.KernelMs).c_str(), Ms(K.GenericRuns, Generic).c_str(),
              Ms(K.SpecializedRuns, Special).c_str(),
              Ratio ? formatv("{0:f2}", Generic / Special).str().c_str() : "-",
              K.Name.c_str());
  }
  if (uint64_t Made = GraphsMade.load())
    OS << "mstage: stats: graph replays: " << GraphReplays.load() << " ("
       << ReplayedLaunches.load() << " launches), graphs made: " << Made
       << "\n";
  printTiers(OS, T);
  printResources(OS, T);
}

} // namespace mstage::rt
