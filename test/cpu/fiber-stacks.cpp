// Fiber stacks belong to the process, not to each OS thread. Each stack is two
// memory mappings (the stack and its guard page), so 64 OS threads that each
// kept the stacks of a 1024-thread block would need 131072, twice the usual
// vm.max_map_count: here 64 OS threads (more than this machine's cores) run
// many 1024-thread blocks with barriers, and the sums are right.
//
// When the mappings do run out (the program takes nearly all of them itself),
// the launch fails with mstage::error that names the kernel, vm.max_map_count
// and the number of mappings, and once they are given back the next launch
// runs. A stack size that no memory holds is blamed on memory and
// MSTAGE_CPU_STACK_KB instead.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=64 %t many 2>&1 | FileCheck --check-prefix=MANY %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=1 %t exhaust 2>&1 | FileCheck --check-prefix=EXHAUST %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=1 MSTAGE_CPU_STACK_KB=137438953472 %t huge 2>&1 | FileCheck --check-prefix=HUGE %s

#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using namespace mstage;

// Sums each block's thread indices through shared memory, a barrier after
// each step; "" when every block's sum is right, else what went wrong.
static std::string sumBlocks(unsigned Blocks, unsigned Threads) {
  std::vector<unsigned> Out(Blocks, 0);
  try {
    kernel(
        [](auto &Out) {
          shared_memory<unsigned> Sm;
          auto B = Block::get();
          unsigned T = Thread::get().index.x;
          Sm[T] = T;
          B.synchronize();
          for (unsigned N = B.range.x / 2; N > 0; N /= 2) {
            if (T < N)
              Sm[T] += Sm[T + N];
            B.synchronize();
          }
          if (T == 0)
            Out[B.index.x] = Sm[0];
        },
        Blocks, Threads, Threads * sizeof(unsigned))(Out);
  } catch (const error &E) {
    return E.what();
  }
  for (unsigned B = 0; B < Blocks; ++B)
    if (Out[B] != Threads * (Threads - 1) / 2)
      return "block " + std::to_string(B) + ": sum " + std::to_string(Out[B]);
  return "";
}

static long readLong(const char *Path) {
  long N = 0;
  std::ifstream(Path) >> N;
  return N;
}

static long mappings() {
  std::ifstream Maps("/proc/self/maps");
  long N = 0;
  for (std::string Line; std::getline(Maps, Line);)
    ++N;
  return N;
}

static void report(const char *What, const std::string &Why) {
  std::printf("%s: %s\n", What, Why.empty() ? "ok" : Why.c_str());
}

int main(int Argc, char **Argv) {
  std::string Mode = Argc > 1 ? Argv[1] : "";
  if (Mode == "many") {
    report("512 blocks of 1024", sumBlocks(512, 1024));
    report("again", sumBlocks(512, 1024));
  } else if (Mode == "exhaust") {
    report("warm-up", sumBlocks(2, 32)); // 32 stacks mapped
    // Take all but 64 of the mappings: pages that alternate between two
    // protections do not merge.
    long Page = sysconf(_SC_PAGESIZE);
    long Pages = readLong("/proc/sys/vm/max_map_count") - mappings() - 64;
    char *Region = static_cast<char *>(
        mmap(nullptr, Pages * Page, PROT_READ,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (Region == MAP_FAILED)
      return std::printf("cannot map %ld pages\n", Pages), 1;
    for (long I = 1; I < Pages; I += 2)
      if (mprotect(Region + I * Page, Page, PROT_NONE) != 0)
        break;
    report("out of mappings", sumBlocks(1, 1024));
    munmap(Region, Pages * Page);
    report("mappings back", sumBlocks(4, 1024));
  } else if (Mode == "huge") {
    report("128 TiB stacks", sumBlocks(1, 64));
  }
}

// MANY: 512 blocks of 1024: ok
// MANY-NEXT: again: ok

// EXHAUST: warm-up: ok
// EXHAUST-NEXT: out of mappings: mstage: kernel 'sumBlocks::kernel_L{{[0-9]+}}@{{.*}}fiber-stacks.cpp:{{[0-9]+}}:{{[0-9]+}}' on the CPU: cannot map the stack of fiber {{[0-9]+}} of a block of 1024: cannot allocate memory: the process has {{[0-9]+}} memory mappings and vm.max_map_count allows {{[0-9]+}}, and a fiber stack takes 2 (the stack and its guard page); raise vm.max_map_count (sysctl)
// EXHAUST-NEXT: mappings back: ok

// HUGE: 128 TiB stacks: mstage: kernel '{{.*}}' on the CPU: cannot map the stack of fiber 0 of a block of 64: cannot allocate memory: the process has {{[0-9]+}} memory mappings and vm.max_map_count allows {{[0-9]+}}, so memory ran out: each fiber stack is 137438953472 KiB (MSTAGE_CPU_STACK_KB); lower it, or raise the memory limit (ulimit -v)
