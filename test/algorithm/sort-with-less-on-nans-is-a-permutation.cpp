// sort(v, comp) with a comparator that is not a strict weak order gives a
// permutation of its input: < on floats with NaNs (every NaN "equal" to
// every number) used to lose elements and duplicate others (116 NaNs became
// 17), as did a comparator that answers at random (neither asymmetric nor
// transitive). Without NaNs the same lambda sorts as std::stable_sort, and
// sort(v) and sort(v, std::less<>()) sort NaNs as documented (-NaN first,
// +NaN last, -0.0 before +0.0), against std::stable_sort with that order.
// Sizes within a tile (1024), across tiles and passes, on the CPU back end
// with 1 and 4 threads.
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=1 %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS sort-with-less-on-nans

#pragma clang diagnostic ignored "-Wdeprecated-declarations"
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

static unsigned Failures = 0, Cases = 0;

template <class T> std::vector<T> byBits(std::vector<T> V) {
  std::sort(V.begin(), V.end(), [](T A, T B) {
    return std::memcmp(&A, &B, sizeof(T)) < 0;
  });
  return V;
}

template <class T>
void expect(const char *What, std::size_t N, unsigned S, const std::vector<T> &Got,
            const std::vector<T> &Want) {
  ++Cases;
  if (Got.size() != Want.size() ||
      std::memcmp(Got.data(), Want.data(), Want.size() * sizeof(T)) != 0) {
    ++Failures;
    std::printf("FAIL %s n=%zu seed=%u\n", What, N, S);
  }
}

// -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
struct Documented {
  bool operator()(float A, float B) const {
    auto Class = [](float X) {
      return std::isnan(X) ? (std::signbit(X) ? 0 : 2) : 1;
    };
    if (Class(A) != Class(B))
      return Class(A) < Class(B);
    if (Class(A) != 1)
      return false;
    if (A == B)
      return std::signbit(A) && !std::signbit(B);
    return A < B;
  }
};

int main() {
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  const float Inf = std::numeric_limits<float>::infinity();
  for (std::size_t N : {2, 33, 1000, 1024, 1500, 4096, 5000, 70001}) {
    unsigned S = 31 + unsigned(N);
    std::mt19937 R(S);
    std::vector<float> In(N);
    for (float &X : In)
      switch (R() % 43) {
      case 0:
        X = NaN;
        break;
      case 1:
        X = -NaN;
        break;
      case 2:
        X = R() % 2 ? Inf : -Inf;
        break;
      case 3:
        X = R() % 2 ? 0.0f : -0.0f;
        break;
      default:
        X = float(int(R() % 2001) - 1000) / 4;
      }
    In[0] = NaN; // the input of issue 31 had 116 NaNs in 5000
    mstage::device_vector<float> D(In);
    mstage::sort(D, [](float A, float B) { return A < B; });
    expect("sort(<) with NaNs is a permutation", N, S, byBits(D.download()),
           byBits(In));

    std::vector<float> Want = In;
    std::stable_sort(Want.begin(), Want.end(), Documented());
    D.upload(In);
    mstage::sort(D);
    expect("sort() in the documented order", N, S, D.download(), Want);
    D.upload(In);
    mstage::sort(D, std::less<>());
    expect("sort(less<>) in the documented order", N, S, D.download(), Want);

    std::vector<float> Numbers;
    for (float X : In)
      if (!std::isnan(X))
        Numbers.push_back(X);
    mstage::device_vector<float> DN(Numbers);
    mstage::sort(DN, [](float A, float B) { return A < B; });
    std::stable_sort(Numbers.begin(), Numbers.end());
    expect("sort(<) without NaNs as std::stable_sort", N, S, DN.download(),
           Numbers);

    std::vector<std::uint32_t> Keys(N);
    for (auto &K : Keys)
      K = R();
    mstage::device_vector<std::uint32_t> DK(Keys);
    mstage::sort(DK, [](std::uint32_t A, std::uint32_t B) {
      return ((A * 2654435761u) ^ (B * 40503u)) >> 31;
    });
    expect("sort(random answers) is a permutation", N, S, byBits(DK.download()),
           byBits(Keys));
  }
  if (Failures)
    std::printf("FAIL sort-with-less-on-nans failures=%u cases=%u\n", Failures,
                Cases);
  else
    std::printf("PASS sort-with-less-on-nans cases=%u\n", Cases);
  return Failures != 0;
}
