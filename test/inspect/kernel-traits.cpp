// mstage++ finds each kernel's traits in the bitcode it embeds and the blob
// carries them (version 5), so that no launch reads bitcode: threads that
// wait for each other (the CPU back end's fibers), a grid barrier (a
// cooperative launch), device state (left out of MSTAGE_CHECK=cpu: only a
// kernel that uses its unit's device global). The CPU back end then runs
// each kernel as its traits say.
//
// RUN: %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: %mstage_ptx %t | FileCheck %s --check-prefix=LIST
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t | FileCheck %s

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

device_global<unsigned> counter;

// LIST-DAG: main::kernel_L[[#@LINE+7]]@{{.*}}  (3 parameters, 0 stage sites){{$}}
// LIST-DAG: main::kernel_L[[#@LINE+12]]@{{.*}}  (3 parameters, 0 stage sites)  [barriers]{{$}}
// LIST-DAG: main::kernel_L[[#@LINE+23]]@{{.*}}  (3 parameters, 0 stage sites)  [barriers, grid barrier]{{$}}
// LIST-DAG: main::kernel_L[[#@LINE+32]]@{{.*}}  (3 parameters, 0 stage sites)  [device state]{{$}}
int main() {
  std::vector<int> In(256, 1), Out(256, 0);
  auto plain = kernel(
      [](const auto &in, auto &out) {
        size_t i = Thread::get().global.x;
        out[i] = in[i] + 1;
      },
      4, 64);
  auto sum = kernel(
      [](const auto &in, auto &out) {
        shared_memory<int> s;
        Thread t = Thread::get();
        if (t.index.x == 0)
          s[0] = 0;
        Block::get().synchronize();
        atomic_ref<int>(s[0]).fetch_add(in[t.global.x]);
        Block::get().synchronize();
        out[t.global.x] = s[0];
      },
      4, 64, sizeof(int));
  auto grid = kernel(
      [](const auto &in, auto &out) {
        size_t i = Thread::get().global.x;
        out[i] = in[i];
        cg::this_grid().sync();
        int next = out[(i + 1) % 256];
        cg::this_grid().sync();
        out[i] += next;
      },
      4, 64);
  auto count = kernel(
      [](const auto &in, auto &) {
        atomic_add(&counter.get(), unsigned(in[Thread::get().global.x]));
      },
      4, 64);

  device_vector<int> D(In), E(Out);
  plain(D, E);
  std::printf("plain %d\n", E.download()[255]);
  sum(D, E);
  std::printf("sum %d\n", E.download()[0]);
  grid(D, E);
  std::printf("grid %d\n", E.download()[7]);
  count(D, E);
  std::printf("count %u\n", counter.download());
}

// CHECK: plain 2
// CHECK: sum 64
// CHECK: grid 2
// CHECK: count 256
