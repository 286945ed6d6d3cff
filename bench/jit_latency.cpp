// JIT latency: what a launch costs when its code is compiled (cold), read
// from the disk cache, or found in memory, against a raw cuLaunchKernel of
// the same module in the same run.
//
//   jit_latency [--launches N]
//
// Run it with CUDA_CACHE_DISABLE=1 and an empty MSTAGE_CACHE_DIR. The first
// process measures the cold JIT of the paper's Listing-4 reduction and of a
// small kernel (LLVM, then the driver's JIT of the PTX, while ptxas makes
// the cubin for the disk cache in the background), then runs itself again
// (--first VARIANT SOURCE) for:
//   disk-hit                 the cubin from mstage's disk cache;
//   cold-no-ptxas            MSTAGE_PTXAS=off: no cubin is made;
//   disk-hit-ptx             that PTX from the disk cache, driver JIT again;
//   disk-hit-ptx-driver-cache  the same with the driver's compute cache on,
//                            in the run after the one that filled it.
//
// Prints CSV: benchmark,variant,kernel,ms,evaluate_ms,optimize_ms,codegen_ms,
// load_ms,code. "first-launch" rows are the wall time of a process's first
// launch of the kernel (the kernel itself runs for microseconds), code is
// cubin or ptx; "launch" rows are the mean wall time of one launch and its
// synchronization, the median of 5 batches of N.
#include "Listing4.h"

#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace mstage;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T0).count();
}

[[noreturn]] void die(const std::string &What) {
  std::fprintf(stderr, "jit_latency: %s\n", What.c_str());
  std::exit(1);
}

void row(const char *Variant, const char *Kernel, double Ms,
         const double *Split, const char *Code) {
  std::printf("jit,%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%s\n", Variant, Kernel, Ms,
              Split[0], Split[1], Split[2], Split[3], Code);
}

// Times Launch, the process's first launch of Kernel, and checks that its
// code came from WantSource (see mstage_rt_last_launch_source).
template <class F>
void timeFirstLaunch(const char *Variant, const char *Kernel, int WantSource,
                     F Launch) {
  auto T0 = Clock::now();
  Launch();
  double Ms = msSince(T0);
  double Split[4];
  int Source = mstage_rt_last_launch_source(Split);
  if (Source != WantSource)
    die(std::string(Variant) + ": the code of " + Kernel +
        " came from source " + std::to_string(Source));
  row(Variant, Kernel, Ms, Split,
      mstage_rt_last_launch_from_cubin() ? "cubin" : "ptx");
}

// The first launch of the Listing-4 kernel on 2^20 ints in this process.
void firstReduce(const char *Variant, int WantSource) {
  const unsigned Block = 256, Grid = 264;
  device_vector<int> In(std::vector<int>(1 << 20, 1)), Out(Grid);
  auto K =
      kernel(listing4Kernel(Block, Staged{}), Grid, Block, Block * sizeof(int));
  timeFirstLaunch(Variant, "listing4", WantSource, [&] { K(In, Out); });
  std::vector<int> Partial = Out.download();
  long long Sum = 0;
  for (int P : Partial)
    Sum += P;
  if (Sum != (1 << 20))
    die("the reduction computed " + std::to_string(Sum));
}

// The small kernel used for the launch overhead.
auto tinyKernel() {
  return kernel(
      [](int *P) {
        if (P)
          P[Thread::get().global.x] = 1;
      },
      1, 32);
}

void firstTiny(const char *Variant, int WantSource) {
  auto K = tinyKernel();
  int *Null = nullptr;
  timeFirstLaunch(Variant, "tiny", WantSource, [&] { K(Null); });
}

// The driver, for the raw launches (dlopen: the program needs no -lcuda).
struct Driver {
  decltype(&cuModuleLoadData) ModuleLoadData;
  decltype(&cuModuleGetFunction) ModuleGetFunction;
  decltype(&cuLaunchKernel) LaunchKernel;
  decltype(&cuCtxSynchronize) CtxSynchronize;
  Driver() {
    void *H = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!H)
      die("cannot load libcuda.so.1");
    auto Get = [&](const char *Name) {
      void *F = dlsym(H, Name);
      if (!F)
        die(std::string("libcuda has no ") + Name);
      return F;
    };
    ModuleLoadData = (decltype(ModuleLoadData))Get("cuModuleLoadData");
    ModuleGetFunction = (decltype(ModuleGetFunction))Get("cuModuleGetFunction");
    LaunchKernel = (decltype(LaunchKernel))Get("cuLaunchKernel");
    CtxSynchronize = (decltype(CtxSynchronize))Get("cuCtxSynchronize");
  }
};

void check(CUresult R, const char *What) {
  if (R != CUDA_SUCCESS)
    die(std::string(What) + " failed with CUresult " + std::to_string(R));
}

template <class F> double medianBatchUs(int Launches, F Launch) {
  std::vector<double> Us;
  for (int B = 0; B < 5; ++B) {
    auto T0 = Clock::now();
    for (int I = 0; I < Launches; ++I)
      Launch();
    Us.push_back(msSince(T0) * 1000 / Launches);
  }
  std::sort(Us.begin(), Us.end());
  return Us[2];
}

// The PTX that MSTAGE_DUMP wrote for the small kernel.
std::string dumpedPtx(const std::string &Dir) {
  DIR *D = opendir(Dir.c_str());
  if (!D)
    die("no dump directory " + Dir);
  std::string Found;
  while (dirent *E = readdir(D)) {
    std::string Name = E->d_name;
    if (Name.size() > 4 && Name.compare(Name.size() - 4, 4, ".ptx") == 0 &&
        Name.find("tinyKernel") != std::string::npos)
      Found = Dir + "/" + Name;
  }
  closedir(D);
  if (Found.empty())
    die("no dumped PTX for the small kernel in " + Dir);
  std::ifstream In(Found);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

void memoryHits(int Launches, const std::string &DumpDir) {
  auto K = tinyKernel();
  int *Null = nullptr;
  K(Null); // in memory from here on
  // Launches return at once; each is waited for, as the raw one below is.
  double Mstage = medianBatchUs(Launches, [&] {
    K(Null);
    mstage::current_stream().synchronize();
  });
  double Split[4];
  if (mstage_rt_last_launch_source(Split) != 0)
    die("the small kernel's launches were not memory hits");

  Driver Drv;
  std::string Ptx = dumpedPtx(DumpDir);
  CUmodule Module;
  CUfunction Function;
  check(Drv.ModuleLoadData(&Module, Ptx.c_str()), "cuModuleLoadData");
  // The device entry's name is the PTX's .entry.
  size_t At = Ptx.find(".entry ");
  if (At == std::string::npos)
    die("no .entry in the dumped PTX");
  size_t End = Ptx.find('(', At);
  std::string Name = Ptx.substr(At + 7, End - At - 7);
  check(Drv.ModuleGetFunction(&Function, Module, Name.c_str()),
        "cuModuleGetFunction");
  // The same parameters as mstage passes: the (empty) lambda, the pointer.
  char Lambda = 0;
  void *Params[] = {&Lambda, &Null};
  double Raw = medianBatchUs(Launches, [&] {
    check(Drv.LaunchKernel(Function, 1, 1, 1, 32, 1, 1, 0, nullptr, Params,
                           nullptr),
          "cuLaunchKernel");
    check(Drv.CtxSynchronize(), "cuCtxSynchronize");
  });
  const double None[4] = {0, 0, 0, 0};
  row("launch-raw", "tiny", Raw / 1000, None, "");
  row("launch-memory-hit", "tiny", Mstage / 1000, None, "");
  std::fprintf(stderr,
               "# memory hit: %.2f us per launch, raw %.2f us: %.2f us "
               "over raw\n",
               Mstage, Raw, Mstage - Raw);
}

} // namespace

int main(int Argc, char **Argv) {
  const char *Variant = nullptr;
  int WantSource = 0;
  int Launches = 20000;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--first") && I + 2 < Argc) {
      Variant = Argv[++I];
      WantSource = std::atoi(Argv[++I]);
    } else if (!std::strcmp(Argv[I], "--launches") && I + 1 < Argc)
      Launches = std::atoi(Argv[++I]);
    else
      die(std::string("unknown argument ") + Argv[I]);
  }
  const char *CacheDir = std::getenv("MSTAGE_CACHE_DIR");
  if (!CacheDir)
    die("set MSTAGE_CACHE_DIR to an empty directory");
  std::string DumpDir = std::string(CacheDir) + "-ptx";
  setenv("MSTAGE_DUMP", "ptx", 1);
  setenv("MSTAGE_DUMP_DIR", DumpDir.c_str(), 1);
  // The latency of the JIT itself: launches wait for it.
  setenv("MSTAGE_JIT", "sync", 0);
  mstage_rt_time_launches(0);
  // The CPU back end compiles nothing: only a GPU has latencies to measure.
  if (std::strcmp(mstage_rt_backend(), "cuda") != 0)
    die(std::string("needs a GPU: ") + (mstage_rt_executes() < 0
                                            ? mstage_rt_last_error()
                                            : "launches would run on the CPU"));

  if (Variant) {
    firstReduce(Variant, WantSource);
    firstTiny(Variant, WantSource);
    return 0;
  }
  std::printf("benchmark,variant,kernel,ms,evaluate_ms,optimize_ms,codegen_ms,"
              "load_ms,code\n");
  firstReduce("first-launch-cold", 2);
  firstTiny("first-launch-cold", 2);
  mstage_rt_flush_cache();
  std::fflush(stdout);
  char Self[4096];
  ssize_t Len = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  if (Len <= 0)
    die("readlink /proc/self/exe");
  Self[Len] = 0;
  std::string Exe = std::string("'") + Self + "' --first ";
  std::string Off = "CUDA_CACHE_DISABLE=1 ";
  std::string PtxOnly =
      "MSTAGE_PTXAS=off MSTAGE_CACHE_DIR='" + std::string(CacheDir) + "/ptx' ";
  std::string DriverCache = "CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH='" +
                            std::string(CacheDir) + "-nv' ";
  for (const std::string &Run :
       {Off + Exe + "first-launch-disk-hit 1",
        Off + PtxOnly + Exe + "first-launch-cold-no-ptxas 2",
        Off + PtxOnly + Exe + "first-launch-disk-hit-ptx 1",
        DriverCache + PtxOnly + Exe + "first-launch-fills-driver-cache 1",
        DriverCache + PtxOnly + Exe +
            "first-launch-disk-hit-ptx-driver-cache 1"})
    if (std::system(Run.c_str()) != 0)
      die("a run failed: " + Run);
  memoryHits(Launches, DumpDir);
  return 0;
}
