// min, max and minmax ignore NaNs, as fmin and fmax do, and give NaN only
// when every element is NaN: the result is always an element of the view
// (they gave +-inf for a view of NaNs alone, with min > max). Checked on the
// CPU back end against a std:: reference written that way (std::min_element
// and std::max_element over the elements that are not NaN), for float and
// double, sizes from 1 to several tiles, views of NaNs alone, of NaNs and
// infinities, NaNs first and last, and random mixes; on the host and into
// device memory. An empty view is an error that names the call.
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 MSTAGE_TEST_SEED=7 %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: mstage: min: the view is empty
// CHECK: mstage: max: the view is empty
// CHECK: mstage: minmax: the view is empty
// CHECK: PASS min-max-of-nans

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

static unsigned Seed = 20261126, Cases = 0, Failures = 0;

template <class T> bool same(T A, T B) {
  return (std::isnan(A) && std::isnan(B)) || A == B;
}
template <class T> bool isElement(T X, const std::vector<T> &V) {
  for (T Y : V)
    if (std::memcmp(&X, &Y, sizeof(T)) == 0)
      return true;
  return false;
}

// The documented result: the least (greatest) element that is not NaN; NaN
// when there is none.
template <class T> T refMin(const std::vector<T> &V) {
  std::vector<T> Numbers;
  std::copy_if(V.begin(), V.end(), std::back_inserter(Numbers),
               [](T X) { return !std::isnan(X); });
  if (Numbers.empty())
    return std::numeric_limits<T>::quiet_NaN();
  return *std::min_element(Numbers.begin(), Numbers.end());
}
template <class T> T refMax(const std::vector<T> &V) {
  std::vector<T> Numbers;
  std::copy_if(V.begin(), V.end(), std::back_inserter(Numbers),
               [](T X) { return !std::isnan(X); });
  if (Numbers.empty())
    return std::numeric_limits<T>::quiet_NaN();
  return *std::max_element(Numbers.begin(), Numbers.end());
}

template <class T>
void check(const char *What, const char *Type, const std::vector<T> &V,
           unsigned S) {
  ++Cases;
  mstage::device_vector<T> D(V), Out(1);
  mstage::device_vector<mstage::minmax_result<T>> OutMM(1);
  T Min = mstage::min(D), Max = mstage::max(D);
  auto MM = mstage::minmax(D);
  mstage::min(D, Out);
  T MinOut = Out.download()[0];
  mstage::max(D, Out);
  T MaxOut = Out.download()[0];
  mstage::minmax(D, OutMM);
  auto MMOut = OutMM.download()[0];
  T WantMin = refMin(V), WantMax = refMax(V);
  bool Ok = same(Min, WantMin) && same(MinOut, WantMin) &&
            same(MM.min, WantMin) && same(MMOut.min, WantMin) &&
            same(Max, WantMax) && same(MaxOut, WantMax) &&
            same(MM.max, WantMax) && same(MMOut.max, WantMax);
  for (T X : {Min, Max, MM.min, MM.max, MinOut, MaxOut, MMOut.min, MMOut.max})
    Ok = Ok && isElement(X, V);
  if (!Ok) {
    ++Failures;
    std::printf("FAIL %s<%s> n=%zu seed=%u: min %g %g %g %g max %g %g %g %g, "
                "want %g and %g\n",
                What, Type, V.size(), S, double(Min), double(MinOut),
                double(MM.min), double(MMOut.min), double(Max), double(MaxOut),
                double(MM.max), double(MMOut.max), double(WantMin),
                double(WantMax));
  }
}

template <class T> void checkType(const char *Type) {
  const T NaN = std::numeric_limits<T>::quiet_NaN();
  const T Inf = std::numeric_limits<T>::infinity();
  // Sizes within one block, a few blocks, and many tiles of each.
  for (std::size_t N : {1, 2, 31, 1023, 8193, 100003}) {
    unsigned S = Seed + unsigned(N);
    std::mt19937 R(S);
    check<T>("nans", Type, std::vector<T>(N, NaN), S);
    check<T>("-nans", Type, std::vector<T>(N, -NaN), S);
    std::vector<T> V(N, NaN);
    V[R() % N] = Inf;
    check<T>("nans+inf", Type, V, S);
    V[R() % N] = -Inf;
    check<T>("nans+infs", Type, V, S);
    std::fill(V.begin(), V.end(), NaN);
    V[0] = T(3);
    check<T>("number-first", Type, V, S);
    std::fill(V.begin(), V.end(), NaN);
    V[N - 1] = T(-3);
    check<T>("number-last", Type, V, S);
    for (T &X : V)
      X = T(int(R() % 2001) - 1000) / 8;
    V[0] = NaN;
    V[N - 1] = NaN;
    check<T>("nan-first-and-last", Type, V, S);
    for (T &X : V)
      switch (R() % 8) {
      case 0:
        X = NaN;
        break;
      case 1:
        X = R() % 2 ? Inf : -Inf;
        break;
      case 2:
        X = R() % 2 ? T(0) : -T(0);
        break;
      default:
        X = T(int(R() % 2001) - 1000) / 8;
      }
    check<T>("mix", Type, V, S);
  }
}

int main() {
  if (const char *E = std::getenv("MSTAGE_TEST_SEED"))
    Seed = unsigned(std::strtoul(E, nullptr, 10));
  checkType<float>("float");
  checkType<double>("double");
  mstage::device_vector<float> Empty(0);
  try {
    mstage::min(Empty);
    std::printf("FAIL min of an empty view returned\n");
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  try {
    mstage::max(Empty);
    std::printf("FAIL max of an empty view returned\n");
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  try {
    mstage::minmax(Empty);
    std::printf("FAIL minmax of an empty view returned\n");
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  if (Failures)
    std::printf("FAIL min-max-of-nans failures=%u cases=%u\n", Failures, Cases);
  else
    std::printf("PASS min-max-of-nans cases=%u\n", Cases);
  return Failures != 0;
}
