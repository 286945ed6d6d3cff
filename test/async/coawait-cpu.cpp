// co_await on the CPU back end: launches are done when they return, so a
// co_await never suspends: the coroutine goes on inline, on the same thread,
// and no await thread is started. mstage::task and sync_wait: nested tasks,
// a value, an exception through co_await and sync_wait, a failed launch
// rethrown at its co_await naming the kernel, and each careless use
// throwing mstage::error at the co_await. Results against std::transform.
//
// RUN: %mstagexx -std=c++20 -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

constexpr unsigned N = 1000;

mstage::task<std::vector<int>> add(const std::vector<int> &A,
                                   const std::vector<int> &B) {
  mstage::device_vector<int> DA(A), DB(B), DC(N);
  auto Add = mstage::kernel(
      [](auto &C, const auto &A, const auto &B) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < C.size())
          C[I] = A[I] + B[I];
      },
      (N + 127) / 128, 128);
  std::thread::id Before = std::this_thread::get_id();
  co_await mstage::async(mstage::launch::kernel, Add, DC, DA, DB);
  std::printf("same thread %d, await thread %d\n",
              Before == std::this_thread::get_id(),
              mstage_rt_on_await_thread());
  co_return DC.download();
}

mstage::task<long> sum(const std::vector<int> &A, const std::vector<int> &B) {
  std::vector<int> C = co_await add(A, B); // a task awaiting a task
  co_return std::accumulate(C.begin(), C.end(), 0L);
}

mstage::task<int> throws() {
  throw std::runtime_error("thrown in a task");
  co_return 0;
}

mstage::task<void> catches() {
  try {
    co_await throws();
  } catch (const std::runtime_error &E) {
    std::printf("caught at co_await: %s\n", E.what());
  }
}

// A launch that cannot start (more threads per block than any device has)
// is reported by its future, and so at its co_await.
mstage::task<void> tooLarge() {
  mstage::device_vector<int> V(32, 0);
  auto Huge = mstage::kernel(
      "hugeBlock", [](auto &V) { V[0] = 1; }, 1, 4096);
  try {
    co_await mstage::async(mstage::launch::kernel, Huge, V);
    std::printf("no error\n");
  } catch (const mstage::error &E) {
    std::printf("launch failure at co_await: %s\n", E.what());
  }
}

mstage::task<void> careless() {
  mstage::device_vector<int> V(N, 0);
  auto K = mstage::kernel([](auto &V) { V[0] += 1; }, 1, 1);
  auto F = mstage::async(mstage::launch::kernel, K, V);
  co_await F;
  std::printf("valid after co_await %d\n", F.valid());
  try {
    co_await F;
  } catch (const mstage::error &E) {
    std::printf("twice: %s\n", E.what());
  }
  auto G = mstage::async(mstage::launch::kernel, K, V);
  auto H = std::move(G);
  std::printf("moved-from valid %d\n", G.valid());
  try {
    co_await G;
  } catch (const mstage::error &E) {
    std::printf("moved future: %s\n", E.what());
  }
  co_await H;
  mstage::event E1 = mstage::current_stream().record();
  mstage::event E2 = std::move(E1);
  co_await E2;
  co_await E2;
  try {
    co_await E1;
  } catch (const mstage::error &E) {
    std::printf("moved event: %s\n", E.what());
  }
  mstage::event Never;
  co_await Never; // never recorded: complete
  mstage::task<void> T = catches();
  co_await T;
  try {
    co_await T;
  } catch (const mstage::error &E) {
    std::printf("task twice: %s\n", E.what());
  }
  mstage::task<void> U = std::move(T);
  try {
    co_await T;
  } catch (const mstage::error &E) {
    std::printf("moved task: %s\n", E.what());
  }
  std::printf("v0 %d\n", V.get(0));
}

int main() {
  std::vector<int> A(N), B(N), Want(N);
  std::iota(A.begin(), A.end(), 0);
  std::iota(B.begin(), B.end(), 5);
  std::transform(A.begin(), A.end(), B.begin(), Want.begin(),
                 [](int X, int Y) { return X + Y; });
  std::vector<int> Got = mstage::sync_wait(add(A, B));
  // CHECK: same thread 1, await thread 0
  std::printf("add equals std::transform: %d\n", Got == Want);
  // CHECK-NEXT: add equals std::transform: 1
  long S = mstage::sync_wait(sum(A, B));
  // CHECK-NEXT: same thread 1, await thread 0
  std::printf("sum equals: %d\n",
              S == std::accumulate(Want.begin(), Want.end(), 0L));
  // CHECK-NEXT: sum equals: 1
  mstage::sync_wait(catches());
  // CHECK-NEXT: caught at co_await: thrown in a task
  try {
    mstage::sync_wait(throws());
  } catch (const std::runtime_error &E) {
    std::printf("sync_wait rethrows: %s\n", E.what());
  }
  // CHECK-NEXT: sync_wait rethrows: thrown in a task
  mstage::sync_wait(tooLarge());
  // CHECK-NEXT: launch failure at co_await: mstage: {{.*}}hugeBlock{{.*}}4096
  mstage::sync_wait(careless());
  // CHECK-NEXT: valid after co_await 0
  // CHECK-NEXT: twice: mstage: co_await on a kernel_future that is not valid(): it was awaited or get() already, or moved from
  // CHECK-NEXT: moved-from valid 0
  // CHECK-NEXT: moved future: mstage: co_await on a kernel_future that is not valid()
  // CHECK-NEXT: moved event: mstage: co_await on an event that was moved from
  // CHECK-NEXT: caught at co_await: thrown in a task
  // CHECK-NEXT: task twice: mstage: a task is awaited once; this one was awaited (or given to sync_wait()) already
  // CHECK-NEXT: moved task: mstage: co_await on a task that was moved from
  // CHECK-NEXT: v0 2
  mstage::task<int> Moved = throws();
  mstage::task<int> Other = std::move(Moved);
  try {
    mstage::sync_wait(std::move(Moved));
  } catch (const mstage::error &E) {
    std::printf("sync_wait of a moved task: %s\n", E.what());
  }
  // CHECK-NEXT: sync_wait of a moved task: mstage: co_await on a task that was moved from
  std::printf("done\n");
  // CHECK-NEXT: done
  // CHECK-NOT: at exit
}
