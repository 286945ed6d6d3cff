//===- jit_cache.cpp - GPU suite: the JIT cache with a device ---------------===//
//
// In a fresh cache directory:
//  1. the first launch compiles (and writes a cubin to the disk cache), the
//     second is a memory hit; both compute out[i] = i * k + staged;
//  2. 8 threads launch a new specialization at once: it is compiled once and
//     every thread's result is right;
//  3. a second process finds the entries on disk (no compile), loads the
//     cubin when the toolkit's ptxas is installed, and is right;
//  4. after the entry is truncated, a third process recompiles (loading the
//     PTX) and is right, and the entry it leaves at exit has the cubin again;
//  5. with MSTAGE_PTXAS=off, in a new directory, the driver JIT-compiles the
//     PTX, and a later process loads that PTX from disk; both are right;
//  6. with a ptxas that rejects the PTX (a ptxas diagnostic, exit 255), in a
//     new directory, the driver's JIT runs the kernel right, and no entry is
//     left to serve that PTX: a later process compiles again.
// The child processes are this program with --child. Launches wait for the
// JIT (MSTAGE_JIT=sync; test/gpu/zero_wait.cpp is the async path).
// On the CPU back end nothing is compiled or cached: it checks that launches
// are right and report the memory source, that 8 threads launching at once
// are right, and that the cache directory stays empty.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

constexpr const char *Name = "jit_cache";
constexpr unsigned N = 1 << 16, Block = 128;

// Launches with staged value S; returns where the code came from (see
// mstage_rt_last_launch_source), or -1 after printing FAIL.
int launchAndCheck(int S, int K) {
  std::vector<int> Out(N, -1);
  mstage::kernel(
      [K](auto &Out) {
        int Add = mstage::stage(K * 3);
        unsigned I = mstage::Thread::get().global.x;
        Out[I] = int(I) * K + Add;
      },
      N / Block, Block)(Out);
  int Source = mstage_rt_last_launch_source(nullptr);
  for (unsigned I = 0; I < N; ++I)
    if (Out[I] != int(I) * K + K * 3) {
      std::printf("FAIL %s: stage %d: out[%u] = %d, expected %d\n", Name, S,
                  I, Out[I], int(I) * K + K * 3);
      return -1;
    }
  return Source;
}

const char *sourceName(int S) {
  static const char *Names[] = {"memory", "disk", "compiled", "uncached"};
  return S >= 0 && S < 4 ? Names[S] : "failed";
}

bool expect(const char *What, int Got, int Want) {
  if (Got == Want)
    return true;
  std::printf("FAIL %s: %s came from %s, expected %s\n", Name, What,
              sourceName(Got), sourceName(Want));
  return false;
}

// A child process: launches specialization 5 once; exits 0 when its code
// came from Want (see mstage_rt_last_launch_source), is a cubin when
// WantCubin says so, and the result is right.
int child(int Want, bool WantCubin) {
  int Got = launchAndCheck(5, 5);
  if (!expect("the child's launch", Got, Want))
    return 1;
  if (mstage_rt_last_launch_from_cubin() != WantCubin) {
    std::printf("FAIL %s: the child's code is %s, expected %s\n", Name,
                WantCubin ? "PTX" : "a cubin", WantCubin ? "a cubin" : "PTX");
    return 1;
  }
  return 0;
}

// Runs this program as a child that expects Want as its launch's source;
// what it printed is printed here.
int runChild(int Want, bool WantCubin,
             const std::vector<std::string> &Env = {}) {
  ChildResult C = runThisProgram(
      {"--child", std::to_string(Want), std::to_string(WantCubin)}, Env,
      /*WithStderr=*/false);
  std::fputs(C.Output.c_str(), stdout);
  return C.Status;
}

int runOnCpu(const char *Dir) {
  if (!expect("the first launch", launchAndCheck(5, 5), 0) ||
      !expect("the second launch", launchAndCheck(5, 5), 0))
    return 1;
  std::vector<int> Sources(8);
  std::vector<std::thread> Threads;
  for (int T = 0; T < 8; ++T)
    Threads.emplace_back([&, T] { Sources[T] = launchAndCheck(7 + T, 7 + T); });
  for (std::thread &T : Threads)
    T.join();
  for (int S : Sources)
    if (!expect("a concurrent launch", S, 0))
      return 1;
  std::string Empty = std::string("test -z \"$(ls -A '") + Dir + "')\"";
  if (std::system(Empty.c_str()) != 0)
    return std::printf("FAIL %s: the CPU back end wrote to the cache\n", Name),
           1;
  std::system((std::string("rm -rf ") + Dir).c_str());
  std::printf("PASS %s: CPU back end: nothing compiled or cached, 8 threads "
              "launching 8 kernels at once are right\n",
              Name);
  return 0;
}

int run(int Argc, char **Argv) {
  // A child inherits its parent's settings (useFreshDiskCache).
  if (Argc == 4 && std::string(Argv[1]) == "--child")
    return child(std::atoi(Argv[2]), std::atoi(Argv[3]) != 0);
  std::string Dir = useFreshDiskCache(Name, "mstage-cache-test");
  if (Dir.empty())
    return 1;
  if (skipWithoutGpu(Name))
    return 0;
  if (onCpu())
    return runOnCpu(Dir.c_str());
  if (selfPath().empty())
    return std::printf("FAIL %s: readlink\n", Name), 1;

  if (!expect("the first launch", launchAndCheck(5, 5), 2) ||
      !expect("the second launch", launchAndCheck(5, 5), 0))
    return 1;

  std::vector<int> Sources(8);
  std::vector<std::thread> Threads;
  for (int T = 0; T < 8; ++T)
    Threads.emplace_back([&, T] { Sources[T] = launchAndCheck(7, 7); });
  for (std::thread &T : Threads)
    T.join();
  int Compiled = 0;
  for (int S : Sources) {
    if (S < 0)
      return 1;
    Compiled += S == 2;
  }
  if (Compiled != 1)
    return std::printf("FAIL %s: 8 threads compiled %d times\n", Name,
                       Compiled),
           1;

  // The runtime finds ptxas as this shell does (PATH, then the toolkit).
  bool HavePtxas = std::system("command -v ptxas >/dev/null || test -x "
                               "\"${CUDA_HOME:-/usr/local/cuda}/bin/ptxas\"") ==
                   0;
  mstage_rt_flush_cache(); // the entries are written in the background
  if (runChild(1, HavePtxas) != 0)
    return 1;
  std::string Truncate = std::string("for f in ") + Dir +
                         "/*.mstage; do truncate -s 100 \"$f\"; done";
  // A launch that compiles runs the driver's JIT of the PTX; the cubin is for
  // the next process.
  if (std::system(Truncate.c_str()) != 0 || runChild(2, false) != 0 ||
      runChild(1, HavePtxas) != 0)
    return 1;
  std::string PtxDir = std::string(Dir) + "/ptx-only";
  std::vector<std::string> PtxEnv = {"MSTAGE_CACHE_DIR=" + PtxDir,
                                     "MSTAGE_PTXAS=off"};
  if (runChild(2, false, PtxEnv) != 0 || runChild(1, false, PtxEnv) != 0)
    return 1;
  std::string Rejecting = std::string(Dir) + "/rejecting-ptxas";
  if (FILE *F = std::fopen(Rejecting.c_str(), "w")) {
    std::fputs("#!/bin/sh\necho 'ptxas x.ptx, line 1; error   : rejected by "
               "jit_cache' >&2\nexit 255\n",
               F);
    std::fclose(F);
  }
  std::string RejectedDir = std::string(Dir) + "/rejected";
  std::vector<std::string> RejectEnv = {"MSTAGE_CACHE_DIR=" + RejectedDir,
                                        "MSTAGE_PTXAS=" + Rejecting};
  if (chmod(Rejecting.c_str(), 0755) != 0 ||
      runChild(2, false, RejectEnv) != 0 || runChild(2, false, RejectEnv) != 0)
    return 1;
  std::string NoEntry = "test -z \"$(ls '" + RejectedDir + "')\"";
  if (std::system(NoEntry.c_str()) != 0)
    return std::printf("FAIL %s: an entry whose PTX ptxas rejected is left\n",
                       Name),
           1;
  std::system((std::string("rm -rf ") + Dir).c_str());
  std::printf("PASS %s: compiled once, memory hit, 8 threads compiled once, "
              "disk hit in a new process (%s), damaged entry recompiled, "
              "PTX without ptxas, nothing cached that ptxas rejects\n",
              Name, HavePtxas ? "cubin" : "PTX: no ptxas here");
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
