// A staged value is computed on the host before the launch, so it cannot
// depend on what only the GPU knows. Each misuse is an error at the stage()
// call that names what it depends on and where that is read. The launch
// configuration is known on the host, so staging the block size is fine.
//
// RUN: not %mstagexx -O2 -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O0 -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:

#include <mstage.hpp>
#include <vector>

using namespace mstage;

template <class V> unsigned twice(const V &v) { return unsigned(v.size()) * 2; }

int main() {
  std::vector<float> in(1024), out(1024);
  auto k = kernel(
      [](const auto &input, auto &output) {
        auto tid = Thread::get().index.x;
        auto t2 = tid * 2;
        // CHECK: misuse.cpp:[[@LINE+1]]:18: error: mstage: the value passed to stage() depends on the thread index (Thread::get()), read at {{.*}}misuse.cpp:[[@LINE-2]]:20; staged values are computed on the host before the launch, from kernel arguments, captures, constants, the launch configuration and other staged values
        auto s = stage(t2 + 1);
        // CHECK: misuse.cpp:[[@LINE+1]]:18: error: mstage: the value passed to stage() depends on a load from device memory, read at
        auto v = stage(input[0]);
        // CHECK: misuse.cpp:[[@LINE+1]]:18: error: mstage: the value passed to stage() depends on the block index (Block::get().index), read at {{.*}}misuse.cpp:[[@LINE+1]]:54
        auto w = stage([](unsigned b) { return b; }, Block::get().index.x);
        shared_memory<float> sm;
        sm[tid] = 1.0f;
        // CHECK: misuse.cpp:[[@LINE+1]]:18: error: mstage: the value passed to stage() depends on shared memory, read at {{.*}}misuse.cpp:[[@LINE-2]]:30
        auto x = stage(sm[0]);
        auto fine = stage(Block::get().range.x * 2) + stage(twice(input));
        output[tid] = s + v + w + x + fine;
      },
      4, 256);
  k(in, out);
}
