// A static local variable in kernel code is one object for all threads, in
// host memory: the error, at its declaration and once however often it is
// used, says so and suggests the per-block shared_array of the same element
// type and extents (an array of one for a scalar), in the kernel lambda and
// in a device function it calls. A const static with a constant initializer
// is folded and stays allowed; a plain local array is per thread, as in CUDA,
// and is not diagnosed; a static local of the host function around a kernel
// lambda keeps the host-memory advice.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

struct Pair {
  float a, b;
};

static float helper(unsigned i);
static void hostStatic(std::vector<float> &v);

int main() {
  std::vector<float> v(256);
  mstage::kernel(
      [](mstage::vector_view<float> a) {
        unsigned i = mstage::Thread::get().index.x;
        // CHECK: static-local.cpp:[[@LINE+1]]:22: error: mstage: static local variable 'tile' in kernel code is one object for all threads, in host memory, which the GPU cannot see; for an array per block in shared memory declare 'mstage::shared_array<float, 16, 16> tile;', for one per thread drop 'static'
        static float tile[16][16];
        // CHECK: static-local.cpp:[[@LINE+1]]:25: error: mstage: static local variable 'count' in kernel code is one object for all threads, in host memory, which the GPU cannot see; for a variable per block in shared memory declare 'mstage::shared_array<unsigned int, 1> count;' and use 'count[0]', for one per thread drop 'static'
        static unsigned count;
        float mine[4] = {1, 2, 3, 4};
        tile[i / 16][i % 16] = a[i] + mine[i % 4];
        mstage::Block::get().synchronize();
        a[i] = tile[i % 16][i / 16] + float(count++) + helper(i);
        count += 2;
      },
      1, 256)(v);
  hostStatic(v);
}

static float helper(unsigned i) {
  // CHECK: static-local.cpp:[[@LINE+1]]:15: error: mstage: static local variable 'pairs' in kernel code is one object for all threads, in host memory, which the GPU cannot see; for an array per block in shared memory declare 'mstage::shared_array<Pair, 8> pairs;', for one per thread drop 'static'
  static Pair pairs[8];
  static const float scale[2] = {0.5f, 2.0f};
  pairs[i % 8].a = float(i);
  return pairs[(i + 1) % 8].a * scale[i % 2];
}
// CHECK: static-local.cpp:{{[0-9]+}}:{{[0-9]+}}: note: called from the kernel lambda here

static void hostStatic(std::vector<float> &v) {
  static float hostSide;
  mstage::kernel(
      [=](mstage::vector_view<float> a) {
        // CHECK: static-local.cpp:[[@LINE+1]]:16: error: mstage: kernel code uses 'hostSide', a variable in host memory that the GPU cannot see; pass it as a kernel argument or capture it by value
        a[0] = hostSide;
      },
      1, 1)(v);
}
