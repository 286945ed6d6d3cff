// The property checks of the scans and sorts against std::, shared by the
// lit tests (CPU back end) and the GPU suite's program (test/gpu/scan_sort).
// Each check prints a FAIL line with the call, the type, the size and the
// seed; the run ends with PASS NAME cases=N, or FAIL NAME failures=N.
#ifndef MSTAGE_TEST_ALGORITHM_SCANSORTCHECKS_H
#define MSTAGE_TEST_ALGORITHM_SCANSORTCHECKS_H

// libstdc++ 12's std::stable_sort calls the deprecated get_temporary_buffer.
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

#include <mstage.hpp>
#include <mstage/algorithm/scan.hpp>
#include <mstage/algorithm/sort.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace scan_sort_checks {

constexpr unsigned Seed = 20261124;
inline unsigned Cases = 0, Failures = 0;

// An affine map x -> a * x + b; composing is associative, not commutative.
struct Affine {
  unsigned a, b;
};
struct ComposeAffine {
  Affine operator()(Affine f, Affine g) const {
    return {f.a * g.a, f.b * g.a + g.b};
  }
};
// 12 bytes: not a multiple of 8, shuffled 32 bits at a time.
struct Triple {
  int x, y, z;
};
struct AddTriple {
  Triple operator()(Triple p, Triple q) const {
    return {p.x + q.x, p.y + q.y, p.z + q.z};
  }
};
struct Max {
  template <class T> T operator()(T a, T b) const { return a < b ? b : a; }
};

template <class T> T randomValue(std::mt19937 &R);
template <> inline int randomValue<int>(std::mt19937 &R) {
  return int(R() % 2001) - 1000;
}
template <> inline unsigned randomValue<unsigned>(std::mt19937 &R) {
  return R();
}
template <> inline unsigned char randomValue<unsigned char>(std::mt19937 &R) {
  return (unsigned char)R();
}
template <> inline std::int64_t randomValue<std::int64_t>(std::mt19937 &R) {
  return std::int64_t((std::uint64_t(R()) << 32) | R());
}
template <> inline std::uint64_t randomValue<std::uint64_t>(std::mt19937 &R) {
  return (std::uint64_t(R()) << 32) | R();
}
template <> inline std::uint16_t randomValue<std::uint16_t>(std::mt19937 &R) {
  return std::uint16_t(R());
}
// Floats: small integers, so that sums are exact in any order; and
// negatives, zeros of both signs, infinities.
template <> inline float randomValue<float>(std::mt19937 &R) {
  switch (R() % 16) {
  case 0:
    return -0.0f;
  case 1:
    return 0.0f;
  case 2:
    return R() % 2 ? std::numeric_limits<float>::infinity()
                   : -std::numeric_limits<float>::infinity();
  default:
    return float(int(R() % 4001) - 2000) / 4.0f;
  }
}
template <> inline double randomValue<double>(std::mt19937 &R) {
  return double(int(R() % 200001) - 100000);
}
template <> inline Affine randomValue<Affine>(std::mt19937 &R) {
  return {unsigned(R()) | 1u, unsigned(R())};
}
template <> inline Triple randomValue<Triple>(std::mt19937 &R) {
  return {int(R() % 100), -int(R() % 100), int(R() % 7)};
}

template <class T> std::vector<T> randomVector(std::size_t N, unsigned S) {
  std::mt19937 R(S);
  std::vector<T> V(N);
  for (T &X : V)
    X = randomValue<T>(R);
  return V;
}

template <class T>
void expectSame(const char *Call, const char *Type, std::size_t N, unsigned S,
                const std::vector<T> &Got, const std::vector<T> &Want) {
  ++Cases;
  for (std::size_t I = 0; I < Want.size(); ++I)
    if (I >= Got.size() || std::memcmp(&Got[I], &Want[I], sizeof(T)) != 0) {
      ++Failures;
      std::printf("FAIL %s<%s> n=%zu seed=%u: element %zu differs\n", Call,
                  Type, N, S, I);
      return;
    }
}

// inclusive_scan and exclusive_scan: the scans checked (other tile shapes
// and ways: test/algorithm/scan-sort-candidates.cpp).
template <class T, class Op, class Inclusive = mstage::inclusive_scan_fn<>,
          class Exclusive = mstage::exclusive_scan_fn<>>
void checkScans(const char *Type, std::size_t N, Op Fn, T Init,
                mstage::stream_ref S, Inclusive inclusive_scan = {},
                Exclusive exclusive_scan = {}) {
  unsigned Sd = Seed + unsigned(N);
  std::vector<T> In = randomVector<T>(N, Sd);
  std::vector<T> Want(N);
  std::inclusive_scan(In.begin(), In.end(), Want.begin(), Fn);
  mstage::device_vector<T> DIn(In), DOut(N);
  inclusive_scan.on(S)(DIn, DOut, Fn);
  S.synchronize();
  expectSame("inclusive_scan", Type, N, Sd, DOut.download(), Want);
  inclusive_scan.on(S)(DIn.view(), Fn); // in place
  S.synchronize();
  expectSame("inclusive_scan(inout)", Type, N, Sd, DIn.download(), Want);

  std::exclusive_scan(In.begin(), In.end(), Want.begin(), Init, Fn);
  DIn.upload(In, S); // on S: the scans on S read it
  exclusive_scan.on(S)(DIn, DOut, Init, Fn);
  S.synchronize();
  expectSame("exclusive_scan", Type, N, Sd, DOut.download(), Want);
  exclusive_scan.on(S)(DIn, Init, Fn);
  S.synchronize();
  expectSame("exclusive_scan(inout)", Type, N, Sd, DIn.download(), Want);
}

inline int finish(const char *Name) {
  if (Failures) {
    std::printf("FAIL %s failures=%u cases=%u\n", Name, Failures, Cases);
    return 1;
  }
  std::printf("PASS %s cases=%u\n", Name, Cases);
  return 0;
}

inline const std::vector<std::size_t> &sizes() {
  static const std::vector<std::size_t> S = {0, 1, 31, 32, 33, 1023,
                                             (1u << 20) + 7};
  return S;
}

// The radix sort's order: -NaN, -inf, ..., -0.0, +0.0, ..., +inf, +NaN.
struct RadixLess {
  template <class T> bool operator()(T A, T B) const {
    if constexpr (std::is_floating_point_v<T>) {
      auto Class = [](T X) { return std::isnan(X) ? (std::signbit(X) ? 0 : 2) : 1; };
      if (Class(A) != Class(B))
        return Class(A) < Class(B);
      if (A == B)
        return std::signbit(A) && !std::signbit(B);
      return A < B;
    } else {
      return A < B;
    }
  }
};

template <class K> std::vector<K> sortKeys(std::size_t N, unsigned S) {
  std::vector<K> V = randomVector<K>(N, S);
  if constexpr (std::is_floating_point_v<K>) {
    std::mt19937 R(S);
    for (K &X : V)
      if (R() % 64 == 0)
        X = R() % 2 ? std::numeric_limits<K>::quiet_NaN()
                    : -std::numeric_limits<K>::quiet_NaN();
  }
  return V;
}

// sort and sort_by_key: the radix sorts checked (other tiles and rankings:
// test/algorithm/scan-sort-candidates.cpp).
template <class K, class V, class Sort = mstage::sort_fn<>,
          class SortByKey = mstage::sort_by_key_fn<>>
void checkSortByKey(const char *Type, std::size_t N, mstage::stream_ref S,
                    Sort sort = {}, SortByKey sort_by_key = {}) {
  unsigned Sd = Seed + 3 * unsigned(N);
  std::vector<K> Keys = sortKeys<K>(N, Sd);
  std::vector<V> Values = randomVector<V>(N, Sd + 1);
  std::vector<std::size_t> Order(N);
  std::iota(Order.begin(), Order.end(), std::size_t(0));
  std::stable_sort(Order.begin(), Order.end(), [&](std::size_t A, std::size_t B) {
    return RadixLess{}(Keys[A], Keys[B]);
  });
  std::vector<K> WantKeys(N);
  std::vector<V> WantValues(N);
  for (std::size_t I = 0; I < N; ++I) {
    WantKeys[I] = Keys[Order[I]];
    WantValues[I] = Values[Order[I]];
  }
  mstage::device_vector<K> DK(Keys);
  mstage::device_vector<V> DV(Values);
  sort_by_key.on(S)(DK, DV);
  S.synchronize();
  expectSame("sort_by_key keys", Type, N, Sd, DK.download(), WantKeys);
  expectSame("sort_by_key values", Type, N, Sd, DV.download(), WantValues);
  DK.upload(Keys, S); // on S: a view passed to sort.on(S) is not waited for
  sort.on(S)(DK.view());
  S.synchronize();
  expectSame("sort", Type, N, Sd, DK.download(), WantKeys);
}

// Records sorted by one field: equal keys must keep their order.
struct Record {
  int key;
  unsigned id;
};
template <> inline Record randomValue<Record>(std::mt19937 &R) {
  return {int(R() % 50) - 25, unsigned(R())};
}

template <class T, class Comp>
void checkSortComp(const char *Type, std::size_t N, Comp C,
                   mstage::stream_ref S) {
  unsigned Sd = Seed + 5 * unsigned(N);
  std::vector<T> In = randomVector<T>(N, Sd);
  std::vector<T> Want = In;
  std::stable_sort(Want.begin(), Want.end(), C);
  mstage::device_vector<T> D(In);
  mstage::sort.on(S)(D, C);
  S.synchronize();
  expectSame("sort(comp)", Type, N, Sd, D.download(), Want);
}

} // namespace scan_sort_checks

// Quick: the largest size for a few types only (the CPU back end's time).
// Templates, so that a program instantiates only the kernels it checks.
template <int = 0> int runScanChecks(const char *Name, bool Quick) {
  using namespace scan_sort_checks;
  mstage::stream Own;
  mstage::stream_ref Cur = mstage::current_stream();
  for (std::size_t N : sizes()) {
    bool Big = N > 4096;
    checkScans<int>("int", N, std::plus<>{}, 7, Cur);
    checkScans<Affine>("affine", N, ComposeAffine{}, Affine{1, 0}, Own);
    if (Big && Quick)
      continue;
    checkScans<unsigned char>("uchar", N, Max{}, (unsigned char)0, Cur);
    checkScans<float>("float", N, Max{}, -1.0f, Own);
    checkScans<double>("double", N, std::plus<>{}, 0.5, Cur);
    checkScans<std::uint64_t>("uint64", N, std::multiplies<>{},
                              std::uint64_t(3), Cur);
    checkScans<Triple>("triple", N, AddTriple{}, Triple{1, 2, 3}, Own);
  }
  return finish(Name);
}

template <int = 0> int runSortChecks(const char *Name, bool Quick) {
  using namespace scan_sort_checks;
  mstage::stream Own;
  mstage::stream_ref Cur = mstage::current_stream();
  for (std::size_t N : sizes()) {
    bool Big = N > 4096;
    checkSortByKey<unsigned, int>("uint32", N, Cur);
    checkSortComp<Record>("record", N,
                          [](const Record &A, const Record &B) {
                            return A.key < B.key;
                          },
                          Cur);
    if (Big && Quick)
      continue;
    checkSortByKey<float, Triple>("float", N, Own);
    checkSortByKey<int, unsigned char>("int", N, Cur);
    checkSortByKey<double, std::uint64_t>("double", N, Own);
    checkSortByKey<unsigned char, int>("uchar", N, Cur);
    checkSortByKey<std::uint16_t, int>("uint16", N, Cur);
    checkSortByKey<std::int64_t, float>("int64", N, Own);
    checkSortComp<int>("int greater", N, std::greater<>{}, Cur);
  }
  return finish(Name);
}

#endif
