// A steady launch (its specialization in use, its pointers and configuration
// those of a launch before) allocates nothing and takes no reader-writer lock:
// the memory cache's entry, the allocations of its pointers and the checks of
// its configuration are the kernel's last (launch/LaunchMemo.h). Its mutexes
// are two: the stream's list of kernels in flight, and the fake driver's own
// in cuLaunchKernel. Counted by this program's malloc, operator new and
// pthread locks, which take the place of the C library's (-rdynamic), on the
// main thread over 1,000 launches of a kernel of four arguments and two
// staged values whose int argument differs each time, then over a loop that
// swaps two buffers (its launches alternate between two sets of pointers);
// each after one launch of its kernel that is not counted (the first launch
// after a synchronize adds to the stream's emptied list of kernels in flight).
// The counters are checked to count: a launch that allocates (a vector
// resized), and a first launch of a new configuration, are counted.
//
// RUN: %mstagexx -O2 -rdynamic %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_GRAPHS=off %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

// CHECK: distinct: 1000 launches, 0 allocations, 0 rwlocks, 2000 mutexes
// CHECK: swapped: 1000 launches, 0 allocations, 0 rwlocks, 2000 mutexes
// CHECK: new vector: allocations counted
// CHECK: new configuration: rwlocks counted
// CHECK: done

#include <mstage.hpp>

#include <dlfcn.h>
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <new>
#include <utility>

using namespace mstage;

namespace {
thread_local bool Counting = false;
long Allocations = 0, ReaderWriterLocks = 0, Mutexes = 0;

template <class Fn> Fn real(const char *Name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
}
} // namespace

extern "C" void *__libc_malloc(size_t);
extern "C" void *__libc_calloc(size_t, size_t);
extern "C" void *__libc_realloc(void *, size_t);

extern "C" void *malloc(size_t N) {
  Allocations += Counting;
  return __libc_malloc(N);
}
extern "C" void *calloc(size_t N, size_t S) {
  Allocations += Counting;
  return __libc_calloc(N, S);
}
extern "C" void *realloc(void *P, size_t N) {
  Allocations += Counting;
  return __libc_realloc(P, N);
}
void *operator new(size_t N) {
  if (void *P = malloc(N ? N : 1))
    return P;
  throw std::bad_alloc();
}
void operator delete(void *P) noexcept { std::free(P); }
void operator delete(void *P, size_t) noexcept { std::free(P); }

extern "C" int pthread_rwlock_rdlock(pthread_rwlock_t *L) {
  static auto Real = real<int (*)(pthread_rwlock_t *)>("pthread_rwlock_rdlock");
  ReaderWriterLocks += Counting;
  return Real(L);
}
extern "C" int pthread_rwlock_wrlock(pthread_rwlock_t *L) {
  static auto Real = real<int (*)(pthread_rwlock_t *)>("pthread_rwlock_wrlock");
  ReaderWriterLocks += Counting;
  return Real(L);
}
extern "C" int pthread_mutex_lock(pthread_mutex_t *M) {
  static auto Real = real<int (*)(pthread_mutex_t *)>("pthread_mutex_lock");
  Mutexes += Counting;
  return Real(M);
}

// Counts what Body does on this thread.
template <class Fn> void count(const char *What, int Launches, Fn Body) {
  Allocations = ReaderWriterLocks = Mutexes = 0;
  Counting = true;
  Body();
  Counting = false;
  std::printf("%s: %d launches, %ld allocations, %ld rwlocks, %ld mutexes\n",
              What, Launches, Allocations, ReaderWriterLocks, Mutexes);
}

int main() {
  constexpr unsigned N = 256;
  device_vector<float> A(N), B(N);
  auto Four = kernel(
      [](auto &a, const auto &b, float s, int add) {
        unsigned i = Thread::get().global.x;
        unsigned n = stage(a.size());
        unsigned m = stage(b.size());
        if (i < n && i < m)
          a[i] = a[i] + s * b[i] + float(add);
      },
      1, N);
  auto Copy = kernel(
      [](const auto &in, auto &out) {
        unsigned i = Thread::get().global.x;
        if (i < stage(in.size()))
          out[i] = in[i];
      },
      1, N);
  // The first launches compile, load and note each set of pointers.
  Four(A, B, 1.0f, 0);
  Copy(std::as_const(A), B);
  Copy(std::as_const(B), A);
  current_stream().synchronize();
  jit_wait();

  Four(A, B, 0.5f, -1);
  count("distinct", 1000, [&] {
    for (int I = 0; I < 1000; ++I)
      Four(A, B, 0.5f, I);
  });
  device_vector<float> *D[2] = {&A, &B};
  Copy(std::as_const(*D[1]), *D[0]);
  count("swapped", 1000, [&] {
    for (int I = 0; I < 1000; ++I)
      Copy(std::as_const(*D[I % 2]), *D[1 - I % 2]);
  });
  // The counters see the runtime's allocations and locks.
  Allocations = ReaderWriterLocks = 0;
  Counting = true;
  device_vector<float> C(2 * N);
  Four(C, B, 0.5f, 1);
  Counting = false;
  if (Allocations > 0)
    std::printf("new vector: allocations counted\n");
  Allocations = ReaderWriterLocks = 0;
  Counting = true;
  Four.on(current_stream())(A, B, 0.5f, 2); // the same configuration
  kernel(Four.body(), 2, N / 2)(A, B, 0.5f, 3);
  Counting = false;
  if (ReaderWriterLocks > 0)
    std::printf("new configuration: rwlocks counted\n");
  current_stream().synchronize();
  std::printf("done\n");
}
