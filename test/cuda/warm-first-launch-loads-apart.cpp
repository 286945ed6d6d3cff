// A warm first launch reads its entry and loads its module on a thread of its
// own (launch/LoadApart.h): the launching thread allocates less than the
// entry's size meanwhile, so the entry's bytes and what the driver keeps of
// the module stay out of the program's heap, where they fragmented the
// program's own large buffers (docs/performance.md, issue 33's warm stencil).
// Counted by this program's malloc, which takes the place of the C library's
// (-rdynamic), on the main thread only. The counter is checked to count: a
// vector of the entry's size allocated in the same window is counted.
//
// RUN: rm -rf %t.cache && %mstagexx -O2 -rdynamic %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=sync %t cold 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=auto MSTAGE_TRACE=1 %t warm 2>&1 | FileCheck %s --check-prefix=WARM
// UNSUPPORTED: gpu

// COLD: first launch: done
// WARM: cache disk:
// WARM: first launch: less than the entry allocated here
// WARM: a vector of the entry's size: counted

#include <mstage.hpp>

#include "Inputs/InterposeMalloc.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
thread_local bool Counting = false;
size_t Bytes = 0;
} // namespace

void onAllocation(size_t N) { Bytes += Counting ? N : 0; }

// The size of the cache's one entry.
static size_t entrySize() {
  const char *Dir = std::getenv("MSTAGE_CACHE_DIR");
  size_t Size = 0;
  if (DIR *D = Dir ? opendir(Dir) : nullptr) {
    while (dirent *E = readdir(D)) {
      std::string Name = E->d_name;
      struct stat St;
      if (Name.size() > 7 && Name.compare(Name.size() - 7, 7, ".mstage") == 0 &&
          stat((std::string(Dir) + "/" + Name).c_str(), &St) == 0)
        Size = size_t(St.st_size);
    }
    closedir(D);
  }
  return Size;
}

int main(int, char **Argv) {
  bool Warm = std::strcmp(Argv[1], "warm") == 0;
  mstage::device_vector<int> Out(64);
  auto Fill = mstage::kernel(
      [](auto &Out) {
        int Sum = 0;
        for (int I = 0; I < 1000; ++I)
          Sum += I * int(mstage::Thread::get().global.x);
        Out[mstage::Thread::get().global.x] = Sum + mstage::stage(7);
      },
      1, 64);
  size_t Entry = Warm ? entrySize() : 0;
  if (Warm && Entry == 0) {
    std::printf("FAIL: no entry in the cache\n");
    return 1;
  }
  Bytes = 0;
  Counting = true;
  Fill(Out);
  Counting = false;
  if (!Warm) {
    mstage::jit_wait();
    std::printf("first launch: done\n");
    return 0;
  }
  std::printf("first launch: %s (%zu bytes here, the entry %zu)\n",
              Bytes < Entry ? "less than the entry allocated here"
                            : "FAIL: the entry's bytes allocated here",
              Bytes, Entry);
  Bytes = 0;
  Counting = true;
  std::vector<char> Same(Entry, 1);
  Counting = false;
  std::printf("a vector of the entry's size: %s\n",
              Bytes >= Entry ? "counted" : "FAIL: not counted");
  return 0;
}
