// A managed_vector's or pinned_vector's operator[] on the host costs a plain
// load when the checks are off (-O1 and above, no -fmstage-checks): no test
// of MSTAGE_CHECK=streams's flag and no call in a loop over the elements,
// which therefore vectorizes as a loop over data() does. With the checks on,
// each element access tests the flag and may call the check; data() and
// begin() test it in every build.
//
// RUN: %mstagexx -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// RUN: %mstagexx -O2 -fmstage-checks -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ON
// RUN: %mstagexx -O2 %s -o %t && env MSTAGE_BACKEND=cpu %t | FileCheck %s --check-prefix=OUT

#include <mstage.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

// OFF-LABEL: define {{.*}}@_Z10sumManagedRKN6mstage14managed_vectorIiEE(
// OFF-NOT: checked_host_use
// OFF-NOT: mstage_rt_streams_checked
// OFF: load <{{[0-9]+}} x i32>
// OFF-NOT: checked_host_use
// ON-LABEL: define {{.*}}@_Z10sumManagedRKN6mstage14managed_vectorIiEE(
// ON: mstage_rt_streams_checked
// ON: checked_host_use
[[gnu::noinline]] long long sumManaged(const mstage::managed_vector<int> &V) {
  long long S = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    S += V[I];
  return S;
}

// OFF-LABEL: define {{.*}}@_Z9sumPinnedRKN6mstage13pinned_vectorIiEE(
// OFF-NOT: checked_host_use
// OFF-NOT: mstage_rt_streams_checked
// OFF: load <{{[0-9]+}} x i32>
// OFF-NOT: checked_host_use
// ON-LABEL: define {{.*}}@_Z9sumPinnedRKN6mstage13pinned_vectorIiEE(
// ON: mstage_rt_streams_checked
// ON: checked_host_use
[[gnu::noinline]] long long sumPinned(const mstage::pinned_vector<int> &V) {
  long long S = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    S += V[I];
  return S;
}

// data() still tells the check, once, with the checks off too.
// OFF-LABEL: define {{.*}}@_Z7firstOfRN6mstage14managed_vectorIiEE(
// OFF: mstage_rt_streams_checked
[[gnu::noinline]] int firstOf(mstage::managed_vector<int> &V) {
  return V.data()[0];
}

// The sums agree with std::accumulate's, and a write through operator[]
// lands where a read finds it (an empty vector and a one-element one too).
int main() {
  for (std::size_t N : {std::size_t(0), std::size_t(1), std::size_t(1001)}) {
    mstage::managed_vector<int> M(N);
    mstage::pinned_vector<int> P(N);
    std::vector<int> Ref(N);
    for (std::size_t I = 0; I < N; ++I) {
      M[I] = int(I * 7 % 13) - 6;
      P[I] = M[I] * 3;
      Ref[I] = int(I * 7 % 13) - 6;
    }
    long long Want = std::accumulate(Ref.begin(), Ref.end(), 0ll);
    std::printf("n=%zu managed %s pinned %s\n", N,
                sumManaged(M) == Want ? "agrees" : "DIFFERS",
                sumPinned(P) == 3 * Want ? "agrees" : "DIFFERS");
    if (N)
      std::printf("first %s\n", firstOf(M) == Ref[0] ? "agrees" : "DIFFERS");
  }
  return 0;
}
// OUT: n=0 managed agrees pinned agrees
// OUT-NEXT: n=1 managed agrees pinned agrees
// OUT-NEXT: first agrees
// OUT-NEXT: n=1001 managed agrees pinned agrees
// OUT-NEXT: first agrees
// OUT-NOT: DIFFERS
