// The scans and sorts take every view the other algorithms take, through
// the same traits: a managed_vector, an mstage::array (flat, in memory
// order), a vector_view and a device_vector, and run on another stream with
// algo.on(s)(...), as reduce and transform do. Each result is compared with
// std:: on the host.
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS scan-sort-take-every-view
// libstdc++ 12's std::stable_sort calls the deprecated get_temporary_buffer.
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

static int Failures = 0;

template <class T>
static void expectSame(const char *What, const std::vector<T> &Got,
                       const std::vector<T> &Want) {
  if (Got != Want) {
    ++Failures;
    std::printf("FAIL %s\n", What);
  }
}

int main() {
  const std::size_t N = 5000; // two scan tiles, two radix tiles
  std::mt19937 R(18);
  std::vector<int> In(N);
  for (int &X : In)
    X = int(R() % 1000) - 500;
  mstage::stream S;

  // managed_vector: in-place inclusive scan with a lambda, on S.
  mstage::managed_vector<int> M(N);
  std::copy(In.begin(), In.end(), M.data());
  mstage::inclusive_scan.on(S)(M, [](int A, int B) { return A > B ? A : B; });
  S.synchronize();
  std::vector<int> Want(N);
  std::inclusive_scan(In.begin(), In.end(), Want.begin(),
                      [](int A, int B) { return A > B ? A : B; });
  expectSame("inclusive_scan(managed_vector)",
             std::vector<int>(M.data(), M.data() + N), Want);

  // mstage::array, Fortran order: exclusive scan into another array.
  mstage::array<int, 2, mstage::fortran> A("a", {1, 50}, {1, 100});
  mstage::array<int, 2, mstage::fortran> B("b", {1, 50}, {1, 100});
  A.from_host(In);
  mstage::synchronize();
  mstage::exclusive_scan.on(S)(A, B, 3);
  S.synchronize();
  std::exclusive_scan(In.begin(), In.end(), Want.begin(), 3);
  expectSame("exclusive_scan(array, array)", B.to_host(), Want);

  // sort of an array and of a managed_vector, sort_by_key of a vector_view
  // and a managed_vector.
  mstage::sort.on(S)(A);
  S.synchronize();
  Want = In;
  std::sort(Want.begin(), Want.end());
  expectSame("sort(array)", A.to_host(), Want);

  std::copy(In.begin(), In.end(), M.data());
  mstage::sort.on(S)(M, std::greater<>());
  S.synchronize();
  std::sort(Want.begin(), Want.end(), std::greater<>());
  expectSame("sort(managed_vector, greater)",
             std::vector<int>(M.data(), M.data() + N), Want);

  mstage::device_vector<int> Keys(In);
  mstage::synchronize();
  mstage::managed_vector<int> Values(N);
  std::iota(Values.data(), Values.data() + N, 0);
  mstage::sort_by_key.on(S)(Keys.view(), Values);
  S.synchronize();
  std::vector<int> Order(N);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](int X, int Y) { return In[X] < In[Y]; });
  expectSame("sort_by_key(vector_view, managed_vector)",
             std::vector<int>(Values.data(), Values.data() + N), Order);

  if (Failures)
    return 1;
  std::printf("PASS scan-sort-take-every-view\n");
}
