// GPU suite (issue 31): the algorithms against std:: on adversarial inputs.
// Sizes 0, 1, 2 and around the tiles; NaN and +-inf mixes; all-equal keys;
// every radix key width; sort_by_key's and sort(comp)'s stability; sort
// with a comparator that is not a strict weak order (< with NaNs, a random
// one: the result must be a permutation); min, max and minmax ignoring NaNs
// (NaN only when all are NaN); scans with a non-commutative operator; two
// host threads reducing on one stream at once; parallel_for's indices near
// and above 2^32 (PTX-only mode, `huge`: the launch configurations of views
// of 2^31 +- 1 and 2^32 +- 1 elements, which nothing allocates). The data
// is random from a seed (MSTAGE_TEST_SEED, else a fixed one), printed by
// every FAIL line.
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

#include "SuiteMain.h"

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

unsigned Seed = 20261126, Cases = 0, Failures = 0;

void fail(const std::string &What, std::size_t N, unsigned S,
          const std::string &Detail) {
  ++Failures;
  if (Failures <= 20)
    std::printf("FAIL %s n=%zu seed=%u: %s\n", What.c_str(), N, S,
                Detail.c_str());
}

template <class T> bool sameBits(const T &A, const T &B) {
  return std::memcmp(&A, &B, sizeof(T)) == 0;
}
template <class T>
void expectBits(const std::string &What, std::size_t N, unsigned S,
                const std::vector<T> &Got, const std::vector<T> &Want) {
  ++Cases;
  if (Got.size() != Want.size())
    return fail(What, N, S, "sizes differ");
  for (std::size_t I = 0; I < Want.size(); ++I)
    if (!sameBits(Got[I], Want[I]))
      return fail(What, N, S, "element " + std::to_string(I) + " differs");
}

// Sizes: nothing, one, two, around a warp and the tiles (merge sort 1024,
// radix 4096, reductions 8192 ints), several tiles; fewer on the CPU back
// end (its time).
const std::vector<std::size_t> &sizes(bool Quick) {
  static const std::vector<std::size_t> Small = {0,    1,    2,    31,
                                                 1023, 1025, 4097, 8193};
  static const std::vector<std::size_t> All = {
      0, 1, 2, 31, 33, 1023, 1024, 1025, 4095, 4097, 8193, 70001, (1u << 20) + 7};
  return Quick ? Small : All;
}

enum class Mix { random, all_equal, nan_inf, all_nan };
const char *name(Mix M) {
  return M == Mix::random      ? "random"
         : M == Mix::all_equal ? "all-equal"
         : M == Mix::nan_inf   ? "nan-inf"
                               : "all-nan";
}

template <class T> std::vector<T> data(std::size_t N, unsigned S, Mix M) {
  std::mt19937_64 R(S);
  std::vector<T> V(N);
  for (T &X : V) {
    std::uint64_t Bits = R();
    if constexpr (std::is_floating_point_v<T>) {
      const T NaN = std::numeric_limits<T>::quiet_NaN();
      const T Inf = std::numeric_limits<T>::infinity();
      if (M == Mix::all_equal)
        X = T(2.5);
      else if (M == Mix::all_nan)
        X = Bits % 2 ? NaN : -NaN;
      else if (M == Mix::nan_inf && Bits % 4 == 0)
        X = Bits % 8 == 0 ? (Bits % 16 ? NaN : -NaN)
                          : (Bits % 16 == 4 ? Inf : -Inf);
      else if (Bits % 32 == 1)
        X = Bits % 64 == 1 ? T(0) : -T(0);
      else
        X = T(std::int64_t(Bits % 20001) - 10000) / 8;
    } else {
      X = M == Mix::all_equal ? T(5) : T(Bits);
    }
  }
  return V;
}

// The documented order of sort(v): -NaN < -inf < ... < -0.0 < +0.0 < ... <
// +inf < +NaN (the NaNs here are the quiet NaN and its negation).
struct DocumentedLess {
  template <class T> bool operator()(T A, T B) const {
    if constexpr (std::is_floating_point_v<T>) {
      auto Class = [](T X) {
        return std::isnan(X) ? (std::signbit(X) ? 0 : 2) : 1;
      };
      if (Class(A) != Class(B))
        return Class(A) < Class(B);
      if (Class(A) != 1)
        return false;
      if (A == B)
        return std::signbit(A) && !std::signbit(B);
      return A < B;
    } else {
      return A < B;
    }
  }
};

template <class T> std::vector<T> bitsSorted(std::vector<T> V) {
  std::sort(V.begin(), V.end(), [](const T &A, const T &B) {
    return std::memcmp(&A, &B, sizeof(T)) < 0;
  });
  return V;
}

// What a vector holds once S has run: an algorithm enqueued on S is not
// ordered with download(), which waits for the vector's home stream only.
template <class T>
std::vector<T> settled(const mstage::device_vector<T> &V,
                       mstage::stream_ref S) {
  S.synchronize();
  return V.download();
}

// sort, sort(std::less<>), sort_by_key (stable: values are the original
// positions) against std::stable_sort in the documented order; sort with <
// written as a lambda: a permutation, and sorted where there are no NaNs.
template <class K>
void checkSort(const char *Type, std::size_t N, Mix M, mstage::stream_ref S) {
  unsigned Sd = Seed + unsigned(N) * 7 + unsigned(M);
  std::string What = std::string("<") + Type + "> " + name(M);
  std::vector<K> In = data<K>(N, Sd, M);
  std::vector<unsigned> Pos(N);
  std::iota(Pos.begin(), Pos.end(), 0u);
  std::vector<unsigned> Order = Pos;
  std::stable_sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    return DocumentedLess{}(In[A], In[B]);
  });
  std::vector<K> Want(N);
  for (std::size_t I = 0; I < N; ++I)
    Want[I] = In[Order[I]];
  mstage::device_vector<K> D(In);
  mstage::sort.on(S)(D);
  expectBits("sort" + What, N, Sd, settled(D, S), Want);
  D.upload(In, S); // on S: MSTAGE_CHECK=streams found the unordered copy
  mstage::sort.on(S)(D, std::less<>());
  expectBits("sort(less<>)" + What, N, Sd, settled(D, S), Want);
  D.upload(In, S);
  mstage::device_vector<unsigned> DP(Pos);
  mstage::sort_by_key.on(S)(D, DP);
  expectBits("sort_by_key keys" + What, N, Sd, settled(D, S), Want);
  expectBits("sort_by_key stability" + What, N, Sd, settled(DP, S), Order);

  // A lambda: not recognized as std::less, the merge sort. With NaNs, <
  // is no strict weak order: a permutation is all that is promised.
  D.upload(In, S);
  mstage::sort.on(S)(D, [](K A, K B) { return A < B; });
  std::vector<K> Got = settled(D, S);
  expectBits("sort(<) is a permutation" + What, N, Sd, bitsSorted(Got),
             bitsSorted(In));
  bool HasNaN = false;
  if constexpr (std::is_floating_point_v<K>)
    for (K X : In)
      HasNaN = HasNaN || std::isnan(X);
  if (!HasNaN) {
    std::vector<K> Stable = In;
    std::stable_sort(Stable.begin(), Stable.end());
    expectBits("sort(<)" + What, N, Sd, Got, Stable);
  }
}

// A comparator that is no order at all (not even asymmetric): still a
// permutation. All-equal records sorted by their key keep their order.
void checkBadComparators(std::size_t N, mstage::stream_ref S) {
  unsigned Sd = Seed + unsigned(N) * 11;
  std::vector<int> In = data<int>(N, Sd, Mix::random);
  mstage::device_vector<int> D(In);
  mstage::sort.on(S)(D, [](int A, int B) {
    return ((unsigned(A) * 2654435761u) ^ (unsigned(B) * 40503u)) >> 31;
  });
  expectBits("sort(random comparator) is a permutation", N, Sd,
             bitsSorted(settled(D, S)), bitsSorted(In));
  struct Rec {
    int Key;
    unsigned Id;
  };
  std::vector<Rec> Recs(N);
  for (std::size_t I = 0; I < N; ++I)
    Recs[I] = {3, unsigned(I)};
  mstage::device_vector<Rec> DR(Recs);
  mstage::sort.on(S)(DR, [](const Rec &A, const Rec &B) { return A.Key < B.Key; });
  std::vector<Rec> GotR = settled(DR, S);
  ++Cases;
  for (std::size_t I = 0; I < N; ++I)
    if (GotR[I].Id != I) {
      fail("sort(comp) of equal keys is stable", N, Sd,
           "element " + std::to_string(I) + " moved");
      break;
    }
}

// min, max, minmax: NaNs ignored, NaN when all are; the result is an
// element. sum, count_if against std::.
template <class T>
void checkReduce(const char *Type, std::size_t N, Mix M, mstage::stream_ref S) {
  unsigned Sd = Seed + unsigned(N) * 13 + unsigned(M);
  std::string What = std::string("<") + Type + "> " + name(M);
  std::vector<T> In = data<T>(N, Sd, M);
  mstage::device_vector<T> D(In);
  ++Cases;
  if (N == 0) {
    bool Threw = false;
    try {
      mstage::min.on(S)(D);
    } catch (const mstage::error &) {
      Threw = true;
    }
    if (!Threw)
      fail("min of an empty view is an error" + What, N, Sd, "it returned");
    if (mstage::sum.on(S)(D) != T{} ||
        mstage::count_if.on(S)(D, [](T) { return true; }) != 0)
      fail("sum and count_if of an empty view" + What, N, Sd, "not 0");
    return;
  }
  std::vector<T> Numbers;
  for (T X : In)
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::isnan(X))
        Numbers.push_back(X);
    } else {
      Numbers.push_back(X);
    }
  T WantMin = std::numeric_limits<T>::quiet_NaN(), WantMax = WantMin;
  if (!Numbers.empty()) {
    WantMin = *std::min_element(Numbers.begin(), Numbers.end());
    WantMax = *std::max_element(Numbers.begin(), Numbers.end());
  }
  auto Same = [](T A, T B) {
    if constexpr (std::is_floating_point_v<T>)
      return (std::isnan(A) && std::isnan(B)) || A == B;
    else
      return A == B;
  };
  auto IsElement = [&](T X) {
    for (T Y : In)
      if (sameBits(X, Y))
        return true;
    return false;
  };
  T Min = mstage::min.on(S)(D), Max = mstage::max.on(S)(D);
  mstage::minmax_result<T> MM = mstage::minmax.on(S)(D);
  if (!Same(Min, WantMin) || !Same(MM.min, WantMin) || !IsElement(Min) ||
      !IsElement(MM.min))
    fail("min" + What, N, Sd,
         std::to_string(double(Min)) + " and " + std::to_string(double(MM.min)) +
             ", want " + std::to_string(double(WantMin)));
  if (!Same(Max, WantMax) || !Same(MM.max, WantMax) || !IsElement(Max) ||
      !IsElement(MM.max))
    fail("max" + What, N, Sd,
         std::to_string(double(Max)) + " and " + std::to_string(double(MM.max)) +
             ", want " + std::to_string(double(WantMax)));
  std::size_t Count = mstage::count_if.on(S)(D, [](T X) { return X < T(1); });
  std::size_t WantCount =
      std::count_if(In.begin(), In.end(), [](T X) { return X < T(1); });
  if (Count != WantCount)
    fail("count_if" + What, N, Sd, std::to_string(Count));
  if constexpr (std::is_integral_v<T>) {
    // Integer sums wrap the same way in any order.
    using U = std::make_unsigned_t<T>;
    U Want = std::accumulate(In.begin(), In.end(), U(0));
    U Got = U(mstage::reduce.on(S)(D, U(0), std::plus<>()));
    if (Got != Want)
      fail("reduce" + What, N, Sd, std::to_string(Got));
  }
}

// A scan with an associative, non-commutative operator: 2x2 matrices of
// integers mod 2^32, multiplied.
struct Mat {
  unsigned a, b, c, d;
};
struct MatMul {
  Mat operator()(Mat X, Mat Y) const {
    return {X.a * Y.a + X.b * Y.c, X.a * Y.b + X.b * Y.d,
            X.c * Y.a + X.d * Y.c, X.c * Y.b + X.d * Y.d};
  }
};
void checkScan(std::size_t N, mstage::stream_ref S) {
  unsigned Sd = Seed + unsigned(N) * 17;
  std::mt19937 R(Sd);
  std::vector<Mat> In(N);
  for (Mat &M : In)
    M = {unsigned(R() % 7), unsigned(R() % 7), unsigned(R() % 7),
         unsigned(R() % 7)};
  std::vector<Mat> Want(N);
  std::inclusive_scan(In.begin(), In.end(), Want.begin(), MatMul());
  mstage::device_vector<Mat> D(In), Out(N);
  mstage::inclusive_scan.on(S)(D, Out, MatMul());
  expectBits("inclusive_scan(non-commutative)", N, Sd, settled(Out, S), Want);
  std::exclusive_scan(In.begin(), In.end(), Want.begin(), Mat{1, 0, 0, 1},
                      MatMul());
  mstage::exclusive_scan.on(S)(D, Out, Mat{1, 0, 0, 1}, MatMul());
  expectBits("exclusive_scan(non-commutative)", N, Sd, settled(Out, S), Want);
}

// Two host threads, 400 reductions each, on one stream.
void checkTwoThreads() {
  mstage::stream Shared;
  std::atomic<int> Wrong{0};
  auto Work = [&](int Who) {
    std::size_t N = 40000 + 1000 * Who;
    std::vector<long long> Host(N);
    std::iota(Host.begin(), Host.end(), 1 + 7LL * Who);
    long long Want = std::accumulate(Host.begin(), Host.end(), 0LL);
    // Uploaded on Shared: the copy on this thread's stream would not be
    // ordered before the sums (MSTAGE_CHECK=streams found it).
    mstage::device_vector<long long> V(N, Shared);
    V.upload(Host, Shared);
    for (int I = 0; I < 400; ++I)
      if (mstage::sum.on(Shared)(V.view()) != Want)
        ++Wrong;
  };
  std::thread A(Work, 0), B(Work, 1);
  A.join();
  B.join();
  ++Cases;
  if (Wrong)
    fail("two threads' sums on one stream", 40000, Seed,
         std::to_string(Wrong.load()) + " of 800 wrong");
}

// PTX-only mode: views of 2^31 +- 1 and 2^32 +- 1 elements (a fake address:
// nothing runs) compile and launch; parallel_for over 2^32 - 255 ... 2^32
// + 65536 indices too. Errors would be exceptions (a FAIL line).
int runHuge() {
  if (std::string(mstage_rt_backend()) != "ptx") {
    std::printf("SKIP algorithm_properties huge: PTX-only mode only\n");
    return 0;
  }
  mstage::device_vector<int> Out(1);
  for (std::size_t N : {(std::size_t(1) << 31) - 1, (std::size_t(1) << 31) + 1,
                        (std::size_t(1) << 32) - 1, (std::size_t(1) << 32) + 1}) {
    mstage::vector_view<int> V(reinterpret_cast<int *>(std::uintptr_t(1) << 40),
                               N);
    mstage::vector_view<const int> C(V.data(), N);
    mstage::sum(C, Out);
    mstage::min(C, Out);
    mstage::transform(C, V, [](int X) { return X + 1; });
    mstage::iota(V, 3);
    try {
      mstage::sort(V); // the radix sort's limit: fewer than 2^30 keys
      std::printf("FAIL huge n=%zu: sort took 2^30 keys or more\n", N);
    } catch (const mstage::error &E) {
      std::printf("%s\n", E.what());
    }
    std::printf("huge n=%zu launched\n", N);
  }
  mstage::device_vector<unsigned> Hits(1);
  unsigned *H = Hits.data();
  for (auto B : {mstage::bounds<2>{401, 10710641}, mstage::bounds<2>{65537, 65535},
                 mstage::bounds<2>{65536, 65537}})
    mstage::parallel_for(B, [=](int J, int I) {
      if (J == 0 && I == 0)
        mstage::atomic_ref<unsigned>(*H).fetch_add(1u);
    });
  std::printf("PASS algorithm_properties huge\n");
  return 0;
}

int run() {
  if (const char *E = std::getenv("MSTAGE_TEST_SEED"))
    Seed = unsigned(std::strtoul(E, nullptr, 10));
  std::printf("algorithm_properties seed=%u\n", Seed);
  if (skipWithoutGpu("algorithm_properties"))
    return 0;
  bool Quick = onCpu() || std::getenv("MSTAGE_SUITE_QUICK") != nullptr;
  mstage::stream Own;
  mstage::stream_ref Cur = mstage::current_stream();
  for (std::size_t N : sizes(Quick)) {
    for (Mix M : {Mix::random, Mix::all_equal, Mix::nan_inf, Mix::all_nan}) {
      checkSort<float>("float", N, M, Cur);
      checkSort<double>("double", N, M, Own);
      checkReduce<float>("float", N, M, Own);
      checkReduce<double>("double", N, M, Cur);
    }
    for (Mix M : {Mix::random, Mix::all_equal}) {
      checkSort<std::int8_t>("int8", N, M, Cur);
      checkSort<std::uint8_t>("uint8", N, M, Own);
      checkSort<std::int16_t>("int16", N, M, Cur);
      checkSort<std::uint16_t>("uint16", N, M, Own);
      checkSort<std::int32_t>("int32", N, M, Cur);
      checkSort<std::uint32_t>("uint32", N, M, Own);
      checkSort<std::int64_t>("int64", N, M, Cur);
      checkSort<std::uint64_t>("uint64", N, M, Own);
      checkReduce<int>("int", N, M, Cur);
      checkReduce<std::uint64_t>("uint64", N, M, Own);
    }
    checkBadComparators(N, Cur);
    checkScan(N, Own);
  }
  checkTwoThreads();
  Cur.synchronize();
  if (Failures) {
    std::printf("FAIL algorithm_properties failures=%u cases=%u seed=%u\n",
                Failures, Cases, Seed);
    return 1;
  }
  std::printf("PASS algorithm_properties cases=%u seed=%u\n", Cases, Seed);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::string(Argv[1]) == "huge")
    return runSuiteProgram("algorithm_properties huge", runHuge);
  return runSuiteProgram("algorithm_properties", run);
}
