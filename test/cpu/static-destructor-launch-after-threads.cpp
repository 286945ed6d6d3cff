// A static destructor launches after main has launched from threads: the
// runtime's statics that the first launches made (the back end, the CPU
// back end's per-kernel facts, LLVM's statics of the compiles, the main
// thread's thread-locals) must still be there. Before, most CPU runs
// crashed (10 of 10 of this program), and in PTX-only mode a destructor's
// compile failed with "LLVM crashed". Two statics: one made before anything
// was launched (its destructor runs last), one made in main after the
// threads' launches. Each destructor launches a specialization of its own
// (a new stage() value, so it compiles) and three kernels that main never
// launched, and checks them against a host loop on the CPU back end. 10
// runs each: on the CPU back end, and in PTX-only mode with the background
// JIT (closed at exit: the destructors compile at once), where every run
// dumps all 40 specializations (32 from the threads, which exit lets
// finish, and 8 from the destructors).
//
// RUN: %mstagexx -O2 %s -o %t -pthread
// RUN: bash -c "for i in 1 2 3 4 5 6 7 8 9 10; do MSTAGE_BACKEND=cpu %t || echo FAILED \$?; done" 2>&1 | sort | uniq -c | FileCheck %s --check-prefix=CPU --implicit-check-not=FAILED
// RUN: rm -rf %t.cache* %t.dump* && bash -c "for i in 1 2 3 4 5 6 7 8 9 10; do MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_JIT=async MSTAGE_CACHE_DIR=%t.cache.\$i MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump.\$i %t || echo FAILED \$?; echo ptx files: \$(ls %t.dump.\$i | grep -c 'ptx\$'); done" 2>&1 | sort | uniq -c | FileCheck %s --check-prefix=PTX --implicit-check-not=FAILED
// UNSUPPORTED: gpu

// CPU: {{^ *}}10 early destructor: right
// CPU-NEXT: {{^ *}}10 late destructor: right
// CPU-NEXT: {{^ *}}10 threads: 4 x 8 launches right
// PTX: {{^ *}}10 early destructor: launched
// PTX-NEXT: {{^ *}}10 late destructor: launched
// PTX-NEXT: {{^ *}}10 mstage: MSTAGE_BACKEND=ptx; compiling kernels for sm_90 to PTX only, nothing is executed
// PTX-NEXT: {{^ *}}10 ptx files: 40

#include <mstage.hpp>

#include <cstdio>
#include <thread>
#include <vector>

using namespace mstage;

// Launches the kernel with stage() value Base; on a back end that runs it,
// says whether every element is Base + i (a host loop's answer).
static const char *launchAndCheck(int Base) {
  std::vector<int> V(64, -1);
  kernel(
      [Base](auto &v) {
        auto i = Thread::get().global.x;
        v[i] = stage(Base) + int(i);
      },
      2, 32)(V);
  if (mstage_rt_executes() != 1)
    return "launched";
  for (int I = 0; I < 64; ++I)
    if (V[I] != Base + I)
      return "WRONG";
  return "right";
}

// Kernels that main never launched: each first launch of one reads and
// adds to the runtime's tables of kernels.
template <int K> static const char *launchOther(int Base) {
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
    const char *Results[] = {launchAndCheck(Base), launchOther<2>(Base),
                             launchOther<3>(Base), launchOther<4>(Base)};
    for (const char *R : Results)
      if (std::string(R) != Results[0])
        throw error(std::string("mstage: ") + R + " among " + Results[0]);
    std::printf("%s: %s\n", When, Results[0]);
  } catch (const error &E) {
    std::printf("%s: FAILED: %s\n", When, E.what());
  }
  std::fflush(stdout);
}

struct Early {
  ~Early() { tryLaunch("early destructor", 9000); }
} TheEarly;

struct Late {
  ~Late() { tryLaunch("late destructor", 8000); }
};

int main() {
  std::vector<std::thread> Threads;
  std::vector<const char *> Results(4 * 8);
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([T, &Results] {
      for (int J = 0; J < 8; ++J)
        Results[T * 8 + J] = launchAndCheck(100 * T + J);
    });
  for (std::thread &T : Threads)
    T.join();
  bool Right = true;
  for (const char *R : Results)
    Right = Right && (mstage_rt_executes() != 1 ||
                      std::string(R) == "right");
  if (mstage_rt_executes() == 1)
    std::printf("threads: 4 x 8 launches %s\n", Right ? "right" : "WRONG");
  static Late TheLate; // made after the launches: destroyed before TheEarly
}
