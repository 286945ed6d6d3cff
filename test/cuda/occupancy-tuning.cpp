// MSTAGE_OCCUPANCY (launch/OccupancyTuning.h): the first launches of a long
// specialization try fewer blocks a multiprocessor, made the limit by a
// preferred carveout (attribute 9) and padding of dynamic shared memory,
// and keep the fastest. On the fake driver (Inputs/FakeCudaDriver.cpp):
// FAKECUDA_OCCUPANCY=8 fits 8 blocks where shared memory allows, as an
// H100 does (1 KiB static, 1 KiB reserved a block: 16 KiB hold 8, and 293
// bytes of padding make it 6); FAKECUDA_EVENT_MS gives the timed launches
// their times in turn (the natural occupancy's first, then the limits at 6
// and 4 and the natural one in turn); FAKECUDA_LAUNCHES=shared prints each
// launch's dynamic shared memory.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 FAKECUDA_EVENT_MS=1,0.9,0.95 %t 9 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=FASTER
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 FAKECUDA_EVENT_MS=1,0.99,0.995 %t 9 2>&1 | grep -v 'trace: kernel' | grep -B1 -A4 keeps | FileCheck %s --check-prefix=NOISE
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 FAKECUDA_EVENT_MS=0.05 %t 4 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=SHORT
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 MSTAGE_OCCUPANCY=6 %t 3 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=FIXED
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 MSTAGE_OCCUPANCY=9 %t 2 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=MORE
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 MSTAGE_OCCUPANCY=off FAKECUDA_EVENT_MS=1,0.5 %t 6 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=OFF
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync FAKECUDA_LAUNCHES=shared FAKECUDA_OCCUPANCY=8 MSTAGE_OCCUPANCY=lots %t 1 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 FAKECUDA_EVENT_MS=1,0.9,0.95 %t 20 threads > %t.threads 2>&1
// RUN: FileCheck %s --check-prefix=THREADS < %t.threads
// RUN: grep 'fakecuda: launch' %t.threads | sed -e 's/.* shared //' -e 's/ (programmatic)$//' | sort -u | FileCheck %s --check-prefix=PADS
// A launch inside mstage::capture while a timed launch's sample is pending
// (FAKECUDA_QUERY_PENDING): its read of the sample must not invalidate the
// capture (the driver refuses a query from a capturing thread unless its
// capture mode is relaxed).
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 FAKECUDA_QUERY_PENDING=1 %t 1 capture 2>&1 | FileCheck %s --check-prefix=CAPTURE --implicit-check-not=invalidat --implicit-check-not=error
// What auto kept is noted beside the disk cache entry: the next process
// runs at it from its first launch, untried. A note for another device, a
// damaged one, or one whose limit no longer gives its blocks is not used
// (the kernel is tried again, and the note rewritten); a read-only cache
// gets no note.
// RUN: rm -rf %t.cache
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 FAKECUDA_EVENT_MS=1,0.9,0.95 %t 9 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=FASTER
// RUN: cat %t.cache/*.note | FileCheck %s --check-prefix=NOTE6
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 %t 3 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=NOTED --implicit-check-not=tries
// RUN: sed -i 's/Fake H200/Fake H100/' %t.cache/*.note
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 FAKECUDA_EVENT_MS=1,0.99,0.995 %t 9 2>&1 | grep -v 'trace: kernel' | grep -B1 -A4 keeps | FileCheck %s --check-prefix=NOISE
// RUN: cat %t.cache/*.note | FileCheck %s --check-prefix=NOTE8
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 %t 2 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=NOTED8 --implicit-check-not=tries --implicit-check-not=attribute
// RUN: sh -c 'for f in %t.cache/*.note; do printf "mstage occupancy 1\nwhatever" > $f; done'
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 FAKECUDA_EVENT_MS=1,0.9,0.95 %t 9 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=FASTER
// RUN: sed -i 's/carveout 4 /carveout 100 /' %t.cache/*.note
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 FAKECUDA_EVENT_MS=1,0.9,0.95 %t 9 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=FASTER
// RUN: cat %t.cache/*.note | FileCheck %s --check-prefix=NOTE6
// RUN: rm %t.cache/*.note
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=sync MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=shared FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_OCCUPANCY=8 MSTAGE_CACHE_READONLY=1 FAKECUDA_EVENT_MS=1,0.9,0.95 %t 9 2>&1 | grep -v 'trace: kernel' | FileCheck %s --check-prefix=FASTER
// RUN: not ls %t.cache/*.note
// UNSUPPORTED: gpu

// The first launch is timed at 8 blocks; then 6, 4, 8, 6, 4; 6 wins by 10%
// and the launches after run at it.
// FASTER: fakecuda: launch [[K:_ZN[A-Za-z0-9_]+]] shared 0
// FASTER: trace: occupancy: kernel '{{.*}}' fits 8 blocks of 256 a multiprocessor; tries 6 blocks (carveout 4%, 293 bytes of padding), 4 blocks (carveout 1%, 0 bytes of padding)
// FASTER: fakecuda: attribute 9 = 4 of [[K]]
// FASTER-NEXT: fakecuda: launch [[K]] shared 293
// FASTER-NEXT: fakecuda: attribute 9 = 1 of [[K]]
// FASTER-NEXT: fakecuda: launch [[K]] shared 0
// FASTER-NEXT: fakecuda: attribute 9 = -1 of [[K]]
// FASTER-NEXT: fakecuda: launch [[K]] shared 0
// FASTER-NEXT: fakecuda: attribute 9 = 4 of [[K]]
// FASTER-NEXT: fakecuda: launch [[K]] shared 293
// FASTER-NEXT: fakecuda: attribute 9 = 1 of [[K]]
// FASTER-NEXT: fakecuda: launch [[K]] shared 0
// FASTER-NEXT: fakecuda: attribute 9 = 4 of [[K]]
// FASTER-NEXT: trace: occupancy: kernel '{{.*}}' keeps 6 blocks (carveout 4%, 293 bytes of padding): 1.000 ms at 8, 0.900 ms at 6, 0.950 ms at 4
// FASTER-NEXT: fakecuda: launch [[K]] shared 293
// FASTER-NEXT: fakecuda: launch [[K]] shared 293
// FASTER-NEXT: fakecuda: launch [[K]] shared 293
// FASTER-NEXT: launched 9

// Within 2% of the natural time: the natural occupancy stays, with the
// driver's carveout (the line before the choice and four after).
// NOISE: fakecuda: attribute 9 = -1 of [[K:_ZN[A-Za-z0-9_]+]]
// NOISE-NEXT: trace: occupancy: kernel '{{.*}}' keeps 8 blocks: 1.000 ms at 8, 0.990 ms at 6, 0.995 ms at 4
// NOISE-NEXT: fakecuda: launch [[K]] shared 0
// NOISE-NEXT: fakecuda: launch [[K]] shared 0
// NOISE-NEXT: fakecuda: launch [[K]] shared 0
// NOISE-NEXT: launched 9

// NOTE6: mstage occupancy 1
// NOTE6-NEXT: device Fake H200
// NOTE6-NEXT: threads 256 blocks 6 carveout 4 pad 293
// NOTE8: mstage occupancy 1
// NOTE8-NEXT: device Fake H200
// NOTE8-NEXT: threads 256 blocks 8 carveout -1 pad 0

// NOTED: fakecuda: attribute 9 = 4 of [[K:_ZN[A-Za-z0-9_]+]]
// NOTED-NEXT: trace: occupancy: kernel '{{.*}}' runs at 6 blocks (carveout 4%, 293 bytes of padding), as an earlier run measured (disk cache)
// NOTED-NEXT: fakecuda: launch [[K]] shared 293
// NOTED-NEXT: fakecuda: launch [[K]] shared 293
// NOTED-NEXT: fakecuda: launch [[K]] shared 293
// NOTED-NEXT: launched 3
// NOTED8: trace: occupancy: kernel '{{.*}}' runs at 8 blocks, as an earlier run measured (disk cache)
// NOTED8-NEXT: fakecuda: launch {{.*}} shared 0
// NOTED8-NEXT: fakecuda: launch {{.*}} shared 0
// NOTED8-NEXT: launched 2

// A first run under 0.1 ms: nothing is tried.
// SHORT-NOT: occupancy
// SHORT-NOT: attribute
// SHORT-COUNT-4: fakecuda: launch {{.*}} shared 0
// SHORT-NOT: attribute
// SHORT: launched 4

// MSTAGE_OCCUPANCY=6: every launch at 6, untimed.
// FIXED: trace: occupancy: kernel '{{.*}}' fits 8 blocks of 256 a multiprocessor; MSTAGE_OCCUPANCY=6: runs at 6 blocks (carveout 4%, 293 bytes of padding)
// FIXED-NEXT: fakecuda: attribute 9 = 4 of [[K:_ZN[A-Za-z0-9_]+]]
// FIXED-NEXT: fakecuda: launch [[K]] shared 293
// FIXED-NEXT: fakecuda: launch [[K]] shared 293
// FIXED-NEXT: fakecuda: launch [[K]] shared 293
// FIXED-NEXT: launched 3

// More than fit: as it comes.
// MORE: MSTAGE_OCCUPANCY=9: not more than that
// MORE-NOT: attribute
// MORE-COUNT-2: fakecuda: launch {{.*}} shared 0
// MORE-NEXT: launched 2

// OFF-NOT: occupancy
// OFF-NOT: attribute
// OFF-COUNT-6: fakecuda: launch {{.*}} shared 0
// OFF-NEXT: launched 6

// BAD-NOT: fakecuda: launch
// BAD: error: {{.*}}MSTAGE_OCCUPANCY='lots' is not auto, off or a number of blocks from 1 to 64

// Two threads launching the same kernel at once: each launch is at one of
// the choices, and all end at the one kept.
// THREADS: launched 20
// THREADS-NEXT: launched 20
// CAPTURE: fakecuda: launch {{.*}} shared 0
// CAPTURE: captured and replayed
// PADS: {{^0$}}
// PADS-NEXT: {{^293$}}
// PADS-NOT: {{.}}

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

// 64 blocks of 256 threads, each writing its index.
static auto indexKernel() {
  return mstage::kernel(
      [](mstage::vector_view<unsigned> Out) {
        unsigned X = mstage::Thread::get().global.x;
        Out[X] = X;
      },
      64, 256);
}

static void captured() {
  mstage::device_vector<unsigned> Out(256 * 64);
  auto K = indexKernel();
  mstage::stream S;
  K.on(S)(Out); // timed: its sample is still pending
  mstage::graph G = mstage::capture(S, [&] { K.on(S)(Out); });
  G.launch(S);
  S.synchronize();
  std::fprintf(stderr, "captured and replayed\n");
}

static void launches(int N) {
  mstage::device_vector<unsigned> Out(256 * 64);
  auto K = indexKernel();
  for (int I = 0; I < N; ++I)
    K(Out);
  Out.download();
}

int main(int Argc, char **Argv) {
  const int N = Argc > 1 ? std::atoi(Argv[1]) : 1;
  try {
    if (Argc > 2 && std::strcmp(Argv[2], "capture") == 0) {
      captured();
    } else if (Argc > 2 && std::strcmp(Argv[2], "threads") == 0) {
      std::thread Other(launches, N);
      launches(N);
      Other.join();
      std::fprintf(stderr, "launched %d\n", N);
    } else {
      launches(N);
    }
  } catch (const mstage::error &E) {
    std::fprintf(stderr, "error: %s\n", E.what());
    return 0;
  }
  std::fprintf(stderr, "launched %d\n", N);
  return 0;
}
