// The process's life around launches (issue 31, items 12 and 13):
//  - static destructors launch after main launched from 4 threads: a static
//    made in main after the launches, and one made before anything was
//    launched; each launches a new specialization and three kernels main
//    never launched, checked against a host loop. Run as a child process,
//    5 times (2 with MSTAGE_SUITE_QUICK). The first must be right in every
//    run. The second runs after the CUDA driver's own clean-up when the
//    driver registered it after the static was made: then it must fail with
//    mstage's CUDA_ERROR_DEINITIALIZED message, never crash or abort. The
//    PASS line says which it was.
//  - fork() while the background JIT is busy (12 new specializations queued
//    0-60 ms before each of 12 forks): a child that exits at once and one
//    that calls jit_wait() end within 30 s (before, they waited for compiles
//    no thread of theirs ran, or for locks the parent's compile threads held
//    at the fork). The children do not touch the GPU. A hung child's stack
//    is printed before it is killed.
#include "SuiteMain.h"

#include <mstage.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <execinfo.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace mstage;

static const char *Name = "lifecycle";

template <int K> static const char *launchAndCheck(int Base) {
  std::vector<int> V(64, -1);
  kernel(
      [Base](auto &v) {
        auto i = Thread::get().global.x;
        v[i] = stage(Base) + int(i) * K;
      },
      2, 32)(V);
  if (mstage_rt_executes() != 1)
    return "launched";
  for (int I = 0; I < 64; ++I)
    if (V[I] != Base + I * K)
      return "WRONG";
  return "right";
}

static void tryLaunch(const char *When, int Base) {
  try {
    const char *Results[] = {launchAndCheck<1>(Base), launchAndCheck<2>(Base),
                             launchAndCheck<3>(Base), launchAndCheck<4>(Base)};
    std::string R = Results[0];
    for (const char *Other : Results)
      if (R != Other)
        R = "WRONG";
    std::printf("%s: %s\n", When, R.c_str());
  } catch (const std::exception &E) {
    std::printf("%s: error: %s\n", When, E.what());
  }
  std::fflush(stdout);
}

// Made (in the child) before anything is launched.
struct Early {
  bool Armed = false;
  ~Early() {
    if (Armed)
      tryLaunch("early destructor", 9000);
  }
} TheEarly;

struct Late {
  ~Late() { tryLaunch("late destructor", 8000); }
};

static int destructorChild() {
  TheEarly.Armed = true;
  std::vector<std::thread> Threads;
  std::vector<std::string> Results(4 * 8);
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([T, &Results] {
      for (int J = 0; J < 8; ++J)
        Results[T * 8 + J] = launchAndCheck<1>(100 * T + J);
    });
  for (std::thread &T : Threads)
    T.join();
  for (const std::string &R : Results)
    if (R != "right") {
      std::printf("threads: %s\n", R.c_str());
      return 1;
    }
  std::printf("threads: right\n");
  static Late TheLate; // made after the launches
  return 0;
}

// In a forked child: SIGUSR1 prints where the child is (its only thread) to
// stderr, so that a hang names the lock it waits on. backtrace() is called
// once first: its first call loads libgcc, which a signal handler must not.
static void printStackOnSignal() {
  void *Frames[64];
  (void)backtrace(Frames, 64);
  std::signal(SIGUSR1, [](int) {
    void *Frames[64];
    int N = backtrace(Frames, 64);
    const char Head[] = "lifecycle: the hung child's stack:\n";
    (void)!write(STDERR_FILENO, Head, sizeof Head - 1);
    backtrace_symbols_fd(Frames, N, STDERR_FILENO);
  });
}

// Waits up to 30 s for Child; after that prints its stack (SIGUSR1) and
// kills it. Its status, or -1 when it hung.
static int waitBounded(pid_t Child) {
  for (int I = 0; I < 3000; ++I) {
    int Status;
    if (waitpid(Child, &Status, WNOHANG) == Child)
      return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(Child, SIGUSR1);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  kill(Child, SIGKILL);
  waitpid(Child, nullptr, 0);
  return -1;
}

// Forks while new specializations compile, at several moments of their
// compiles (queued, in LLVM, in ptxas, loading), as a child that exits at
// once and as one that calls jit_wait() first. The staged values are new in
// each process, so that a disk cache left by an earlier run does not make
// the compiles.
static int forkWhileCompiling() {
  const int Delays[] = {0, 1, 3, 10, 30, 60};
  int Forks = 0;
  int Base = 5000 + 1000 * int(getpid() % 100000);
  for (int Mode = 0; Mode < 2; ++Mode)
    for (int DelayMs : Delays) {
      for (int J = 0; J < 12; ++J)
        if (std::string R = launchAndCheck<5>(Base++); R != "right") {
          std::printf("FAIL %s: a launch before a fork: %s\n", Name,
                      R.c_str());
          return 1;
        }
      std::this_thread::sleep_for(std::chrono::milliseconds(DelayMs));
      std::fflush(stdout);
      pid_t Child = fork();
      if (Child == 0) {
        printStackOnSignal();
        if (Mode == 1)
          mstage::jit_wait();
        std::exit(0);
      }
      ++Forks;
      int Status = waitBounded(Child);
      if (Status != 0) {
        std::printf("FAIL %s: a child forked %d ms after 12 compiles were "
                    "queued%s %s\n",
                    Name, DelayMs, Mode == 1 ? " called jit_wait() and" : "",
                    Status < 0
                        ? "hung for 30 s (its stack is above)"
                        : ("ended with " + std::to_string(Status)).c_str());
        return 1;
      }
    }
  mstage::jit_wait();
  std::printf("PASS %s: %d children forked 0-60 ms after 12 compiles were "
              "queued exited at once, half of them after jit_wait()\n",
              Name, Forks);
  return 0;
}

static int run(int Argc, char **Argv) {
  if (Argc > 1 && std::string(Argv[1]) == "destructors")
    return destructorChild();
  if (skipWithoutGpu(Name))
    return 0;
  int Runs = std::getenv("MSTAGE_SUITE_QUICK") ? 2 : 5;
  int Right = 0, ShutDown = 0;
  for (int I = 0; I < Runs; ++I) {
    ChildResult R = runThisProgram({"destructors"});
    bool Ok = R.Status == 0 &&
              R.Output.find("threads: right") != std::string::npos &&
              R.Output.find("late destructor: right") != std::string::npos;
    bool EarlyRight =
        R.Output.find("early destructor: right") != std::string::npos;
    bool EarlyShutDown =
        R.Output.find("early destructor: error: ") != std::string::npos &&
        R.Output.find("CUDA_ERROR_DEINITIALIZED (the CUDA driver has shut "
                      "down") != std::string::npos;
    if (!Ok || !(EarlyRight || EarlyShutDown)) {
      std::printf("FAIL %s: static destructors, run %d: exit %d\n%s\n", Name,
                  I, R.Status, R.Output.c_str());
      return 1;
    }
    Right += EarlyRight;
    ShutDown += EarlyShutDown;
  }
  std::printf("PASS %s: static destructors launch after threads did, %d "
              "runs: the later static's launches right in each; the earlier "
              "static's right in %d, the driver shut down (said) in %d\n",
              Name, Runs, Right, ShutDown);
  return forkWhileCompiling();
}

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
