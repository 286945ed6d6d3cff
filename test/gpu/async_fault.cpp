//===- async_fault.cpp - GPU suite: a kernel fault among async launches ----===//
//
// Launches return before their kernels run, so a fault surfaces later. The
// program runs itself as a child (the fault makes the GPU context unusable),
// with MSTAGE_CHECK unset, since its check would wait after each launch:
//  - "among": 50 launches of goodKernel, one of badKernel (it writes through
//    a pointer that is not device memory), 49 of goodKernel, then
//    current_stream().synchronize(). The first call to throw comes after the
//    bad launch (a later launch, or the synchronize), and its message names
//    badKernel among the kernels in flight and gives the CUDA_ERROR_ name;
//  - "last": 99 goodKernel launches, then badKernel: the synchronize throws,
//    naming both kernels with their launch counts;
//  - "blocking", with MSTAGE_LAUNCH_BLOCKING=1: the bad launch itself throws,
//    and its message says that badKernel failed, with no kernels in flight.
//  - "download": badKernel, then a download of 1 MiB into a smaller
//    std::vector (through the runtime's page-locked chunks,
//    runtime/HostStaging.h) throws, naming badKernel, and leaves it empty.
// On the CPU back end a bad pointer would crash the process: the fault part
// is skipped. There a launch that fails (a deadlocking kernel) among 100
// async() launches is reported by its own future, the others complete, and
// the same holds with MSTAGE_LAUNCH_BLOCKING=1 (a child).
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

constexpr const char *Name = "async_fault";
constexpr unsigned N = 4096, Block = 128;

auto goodKernel() {
  return mstage::kernel(
      [](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] += 1;
      },
      N / Block, Block);
}

auto badKernel() {
  int *Bad = reinterpret_cast<int *>(std::uintptr_t(0x10)); // not device memory
  return mstage::kernel(
      [Bad](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        Bad[I * 1024] = 1;
        V[0] = 1;
      },
      N / Block, Block);
}

// Lane 0 waits at a shuffle, the others at a barrier: the CPU back end
// reports the deadlock as a launch error.
auto stuckKernel() {
  return mstage::kernel(
      [](auto &V) {
        unsigned T = mstage::Thread::get().index.x;
        if (T == 0)
          V[0] = mstage::warp::shfl(7, 1);
        else
          mstage::Block::get().synchronize();
      },
      2, 32);
}

namespace {

bool has(const std::string &S, const std::string &Part) {
  return S.find(Part) != std::string::npos;
}

// The GPU child: launches 100 kernels, the one at BadAt faulting, and
// prints where the first error was thrown and its message.
int faultChild(unsigned BadAt) {
  mstage::device_vector<int> V(N, 0);
  auto Good = goodKernel();
  auto Bad = badKernel();
  unsigned I = 0;
  try {
    for (; I < 100; ++I) {
      if (I == BadAt)
        Bad(V);
      else
        Good(V);
    }
    mstage::current_stream().synchronize();
    std::printf("NOTHROW\n");
  } catch (const mstage::error &E) {
    if (I < 100)
      std::printf("THROWN at launch %u: %s\n", I, E.what());
    else
      std::printf("THROWN at synchronize: %s\n", E.what());
  }
  return 0;
}

// The GPU child of "download": the fault found by a staged download.
int downloadChild() {
  mstage::device_vector<int> Large(std::size_t(1) << 18, 0), V(N, 0);
  badKernel()(V);
  std::vector<int> Host(3, 7); // too small: a new buffer, through the chunks
  try {
    Large.download(Host);
    std::printf("NOTHROW (%zu elements)\n", Host.size());
  } catch (const mstage::error &E) {
    std::printf("THROWN at download: %s; host has %zu elements\n", E.what(),
                Host.size());
  }
  return 0;
}

bool report(bool OK, const std::string &What, const std::string &Child) {
  std::printf("%s %s: %s%s%s\n", OK ? "PASS" : "FAIL", Name, What.c_str(),
              OK ? "" : "; the child printed:\n", OK ? "" : Child.c_str());
  return OK;
}

int onGpu() {
  const std::string NoCheck = "MSTAGE_CHECK";
  bool OK = true;

  ChildResult C = runThisProgram({"--child", "among"}, {NoCheck},
                                 /*WithStderr=*/false);
  std::string T = C.Output;
  bool After = has(T, "THROWN at synchronize: ") ||
               (has(T, "THROWN at launch ") && !has(T, "at launch 50:") &&
                !has(T, "at launch 0:"));
  for (unsigned I = 1; I < 50; ++I)
    After = After && !has(T, "at launch " + std::to_string(I) + ":");
  OK &= report(C.Status == 0 && After && has(T, "badKernel") &&
                   has(T, "CUDA_ERROR_") &&
                   has(T, "kernels in flight since the last synchronization") &&
                   has(T, "MSTAGE_LAUNCH_BLOCKING=1 names the kernel"),
               "a fault among 100 launches surfaces after it, naming the "
               "faulting kernel among those in flight",
               T);

  C = runThisProgram({"--child", "last"}, {NoCheck}, /*WithStderr=*/false);
  T = C.Output;
  OK &= report(C.Status == 0 && has(T, "THROWN at synchronize: ") &&
                   has(T, "CUDA_ERROR_") && has(T, "badKernel") &&
                   has(T, "goodKernel") && has(T, "99 launches") &&
                   has(T, "1 launch"),
               "a fault in the last of 100 launches: "
               "current_stream().synchronize() throws, naming the kernels "
               "in flight",
               T);

  C = runThisProgram({"--child", "among"},
                     {NoCheck, "MSTAGE_LAUNCH_BLOCKING=1"},
                     /*WithStderr=*/false);
  T = C.Output;
  OK &= report(C.Status == 0 && has(T, "THROWN at launch 50: ") &&
                   has(T, "badKernel") && has(T, "failed") &&
                   has(T, "CUDA_ERROR_") && !has(T, "in flight") &&
                   !has(T, "goodKernel"),
               "with MSTAGE_LAUNCH_BLOCKING=1 the faulting launch itself "
               "throws, naming only that kernel",
               T);

  C = runThisProgram({"--child", "download"}, {NoCheck}, /*WithStderr=*/false);
  T = C.Output;
  OK &= report(C.Status == 0 && has(T, "THROWN at download: ") &&
                   has(T, "CUDA_ERROR_") && has(T, "badKernel") &&
                   has(T, "host has 0 elements"),
               "a fault found by a 1 MiB download (page-locked chunks) "
               "throws there, naming the kernel, and leaves the "
               "std::vector empty",
               T);
  return OK ? 0 : 1;
}

// The CPU back end: one failing launch among 100 async() launches.
int cpuLaunches(bool Print) {
  mstage::device_vector<int> V(N, 0);
  auto Good = goodKernel();
  auto Stuck = stuckKernel();
  std::vector<mstage::kernel_future> Futures;
  for (unsigned I = 0; I < 100; ++I)
    Futures.push_back(I == 50
                          ? mstage::async(mstage::launch::kernel, Stuck, V)
                          : mstage::async(mstage::launch::kernel, Good, V));
  std::string Message;
  bool OthersFine = true;
  for (unsigned I = 0; I < 100; ++I) {
    try {
      Futures[I].wait();
    } catch (const mstage::error &E) {
      if (I == 50)
        Message = E.what();
      else
        OthersFine = false;
    }
  }
  mstage::current_stream().synchronize();
  std::vector<int> Got = V.download();
  // The stuck kernel may have written V[0] before it was stopped.
  bool Right = true;
  for (unsigned I = 1; I < N; ++I)
    Right = Right && Got[I] == 99;
  bool OK = OthersFine && Right && has(Message, "stuckKernel") &&
            has(Message, "deadlocked");
  if (Print)
    std::printf("%s %s: CPU back end%s: the failing launch among 100 "
                "async() launches is reported by its future ('%s'), the "
                "others complete%s\n",
                OK ? "PASS" : "FAIL", Name,
                std::getenv("MSTAGE_LAUNCH_BLOCKING") ? " (blocking)" : "",
                Message.c_str(),
                Right && OthersFine ? "" : ", but their results are wrong");
  return OK ? 0 : 1;
}

int onCpuBackEnd() {
  int Failed = cpuLaunches(/*Print=*/true);
  ChildResult C = runThisProgram({"--child", "cpu"},
                                 {"MSTAGE_LAUNCH_BLOCKING=1"},
                                 /*WithStderr=*/false);
  const std::string &T = C.Output;
  bool OK =
      C.Status == 0 && has(T, "PASS async_fault: CPU back end (blocking)");
  if (!OK)
    std::printf("FAIL %s: with MSTAGE_LAUNCH_BLOCKING=1 the child printed:\n%s",
                Name, T.c_str());
  std::printf("SKIP %s: a kernel fault needs a GPU (on the CPU back end it "
              "would be the process's)\n",
              Name);
  return Failed || !OK ? 1 : 0;
}

int run(int Argc, char **Argv) {
  if (Argc == 3 && std::string(Argv[1]) == "--child") {
    std::string Mode = Argv[2];
    if (Mode == "cpu")
      return cpuLaunches(/*Print=*/true);
    if (Mode == "download")
      return downloadChild();
    return faultChild(Mode == "last" ? 99 : 50);
  }
  if (skipWithoutGpu(Name))
    return 0;
  return onCpu() ? onCpuBackEnd() : onGpu();
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
