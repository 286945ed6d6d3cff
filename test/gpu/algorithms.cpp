//===- algorithms.cpp - GPU suite: the algorithms against std:: -----------===//
//
// Every algorithm of mstage/algorithm.hpp (issue 18, items 1, 2, 5, 6)
// against a std:: reference, over the sizes 0, 1, 31, 32, 33, 1023 and
// 2^20 + 7, for int, float, double and a small struct, with random data from
// a fixed seed (MSTAGE_ALGO_SEED overrides it; a failure prints it). The
// float and double data are small integers, so that every sum is exact and
// compared exactly, whatever the order of the additions.
//
// An argument picks one family (reduce, elementwise, tiles, parallel_for,
// array) for the lit tests of test/algorithm; without one, all run. On the
// CPU back end the largest size runs only for the cheap algorithms (sum,
// min, count_if and transform of int), which keeps each lit test within
// seconds.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "algorithms";
unsigned Seed = 18;
int Failures = 0;
int Cases = 0;

struct pt {
  int x;
  float y;
};
bool operator<(const pt &a, const pt &b) { return a.x < b.x; }
bool operator==(const pt &a, const pt &b) { return a.x == b.x && a.y == b.y; }
pt operator+(const pt &a, const pt &b) { return {a.x + b.x, a.y + b.y}; }

// What min and max order by: a pt's x alone (pts with equal x are equally
// small, and the GPU may return any of them).
template <class T> auto key(const T &v) {
  if constexpr (std::is_same_v<T, pt>)
    return v.x;
  else
    return v;
}

template <class T> std::string show(const T &v) {
  if constexpr (std::is_same_v<T, pt>)
    return "{" + std::to_string(v.x) + ", " + std::to_string(v.y) + "}";
  else if constexpr (std::is_same_v<T, bool>)
    return v ? "true" : "false";
  else
    return std::to_string(v);
}

template <class T>
void expect(const char *what, std::size_t n, const T &got, const T &want) {
  ++Cases;
  if (got == want)
    return;
  ++Failures;
  std::printf("FAIL %s: %s of %zu elements: %s, expected %s (seed %u)\n",
              Name, what, n, show(got).c_str(), show(want).c_str(), Seed);
}

void expect_near(const char *what, std::size_t n, double got, double want,
                 double relative) {
  ++Cases;
  if (std::fabs(got - want) <= relative * std::fabs(want))
    return;
  ++Failures;
  std::printf("FAIL %s: %s of %zu elements: %.9g, expected %.9g within %g "
              "relative (seed %u)\n",
              Name, what, n, got, want, relative, Seed);
}

template <class T>
void expect_vec(const char *what, std::size_t n, const std::vector<T> &got,
                const std::vector<T> &want) {
  ++Cases;
  if (got.size() == want.size() && std::equal(got.begin(), got.end(),
                                              want.begin()))
    return;
  ++Failures;
  std::size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i])
    ++i;
  std::printf("FAIL %s: %s of %zu elements: element %zu is %s, expected %s "
              "(seed %u)\n",
              Name, what, n, i, i < got.size() ? show(got[i]).c_str() : "-",
              i < want.size() ? show(want[i]).c_str() : "-", Seed);
}

template <class T> std::vector<T> random_data(std::size_t n, unsigned salt) {
  std::mt19937 gen(Seed * 7919u + salt);
  std::uniform_int_distribution<int> d(-20, 20);
  std::vector<T> v(n);
  for (T &e : v) {
    if constexpr (std::is_same_v<T, pt>)
      e = {d(gen), float(d(gen))};
    else
      e = T(d(gen));
  }
  return v;
}

const std::size_t Sizes[] = {0, 1, 31, 32, 33, 1023, (1u << 20) + 7};

bool big(std::size_t n) { return n > 100000; }

template <class T> void reduce_type(std::size_t n, bool cheap_only) {
  std::vector<T> h = random_data<T>(n, unsigned(n));
  mstage::device_vector<T> d(h);
  T zero{};
  expect("sum", n, mstage::sum(d), std::accumulate(h.begin(), h.end(), zero));
  if (n) {
    expect("min", n, key(mstage::min(d)),
           key(*std::min_element(h.begin(), h.end())));
    expect("max", n, key(mstage::max(d)),
           key(*std::max_element(h.begin(), h.end())));
  }
  if (cheap_only)
    return;
  // reduce with a user lambda (no identity known: the flagged path).
  T init = h.empty() ? T{} : h[0];
  expect("reduce(lambda +)", n,
         mstage::reduce(d, init, [](T a, T b) { return a + b; }),
         std::accumulate(h.begin(), h.end(), init));
  if constexpr (!std::is_same_v<T, pt>) {
    expect("reduce(std::plus)", n, mstage::reduce(d, T(5), std::plus<>()),
           std::accumulate(h.begin(), h.end(), T(5)));
    // The result has init's type.
    expect("reduce(long long)", n, mstage::reduce(d, 0LL, std::plus<>()),
           std::accumulate(h.begin(), h.end(), 0LL,
                           [](long long a, T b) { return a + (long long)b; }));
    T squares = mstage::transform_reduce(d, T(0), std::plus<>(),
                                         [](T x) { return x * x; });
    if constexpr (std::is_same_v<T, float>) {
      // Squares of up to 400 sum past 2^24 at 2^20 elements, where float
      // sums in another order round differently (measured on a GPU: 1.1e-5
      // relative): compared with the exact sum, in double.
      double exact = 0;
      for (T x : h)
        exact += double(x) * double(x);
      expect_near("transform_reduce(square)", n, double(squares), exact, 1e-4);
    } else {
      expect("transform_reduce(square)", n, squares,
             std::transform_reduce(h.begin(), h.end(), T(0), std::plus<>(),
                                   [](T x) { return x * x; }));
    }
    expect("transform_reduce(max |x|)", n,
           mstage::transform_reduce(
               d, T(-1), [](T a, T b) { return a < b ? b : a; },
               [](T x) { return x < 0 ? -x : x; }),
           std::transform_reduce(
               h.begin(), h.end(), T(-1), [](T a, T b) { return a < b ? b : a; },
               [](T x) { return x < 0 ? -x : x; }));
  }
  if (n) {
    auto mm = mstage::minmax(d);
    auto ref = std::minmax_element(h.begin(), h.end());
    expect("minmax.min", n, key(mm.min), key(*ref.first));
    expect("minmax.max", n, key(mm.max), key(*ref.second));
  }
  auto pos = [](const T &x) {
    if constexpr (std::is_same_v<T, pt>)
      return x.x > 3;
    else
      return x > T(3);
  };
  expect("count_if", n, mstage::count_if(d, pos),
         std::size_t(std::count_if(h.begin(), h.end(), pos)));
  expect("any_of", n, mstage::any_of(d, pos),
         std::any_of(h.begin(), h.end(), pos));
  expect("all_of", n, mstage::all_of(d, pos),
         std::all_of(h.begin(), h.end(), pos));
  auto small = [](const T &x) {
    if constexpr (std::is_same_v<T, pt>)
      return x.x < 100;
    else
      return x < T(100);
  };
  expect("all_of(true)", n, mstage::all_of(d, small), true);
  expect("any_of(false)", n, mstage::any_of(d, [](const T &) { return false; }),
         false);

  // Into device memory, asynchronously, on a stream of its own.
  mstage::stream s;
  mstage::device_vector<T> out(1);
  mstage::sum.on(s)(d, out);
  s.synchronize();
  expect("sum into device", n, out.get(0),
         std::accumulate(h.begin(), h.end(), zero));
  mstage::device_vector<std::size_t> count(1);
  mstage::count_if.on(s)(d, pos, count);
  s.synchronize();
  expect("count_if into device", n, count.get(0),
         std::size_t(std::count_if(h.begin(), h.end(), pos)));
}

void run_reduce(bool cpu) {
  for (std::size_t n : Sizes) {
    bool cheap = cpu && big(n);
    reduce_type<int>(n, cheap);
    if (cheap)
      continue;
    reduce_type<float>(n, false);
    reduce_type<double>(n, false);
    reduce_type<pt>(n, false);
  }
  // Unaligned for vector loads: a view one element in.
  std::vector<int> h = random_data<int>(4099, 1);
  mstage::device_vector<int> d(h);
  mstage::vector_view<int> off(d.data() + 1, h.size() - 1);
  expect("sum of an offset view", h.size() - 1, mstage::sum(off),
         std::accumulate(h.begin() + 1, h.end(), 0));
}

template <class T> void elementwise_type(std::size_t n) {
  std::vector<T> a = random_data<T>(n, 3), b = random_data<T>(n, 4);
  mstage::device_vector<T> da(a), db(b), dc(n);
  std::vector<T> want(n);

  mstage::transform(da, dc, [](T x) { return x + x; });
  std::transform(a.begin(), a.end(), want.begin(), [](T x) { return x + x; });
  expect_vec("transform", n, dc.download(), want);

  mstage::transform(da, db, dc, [](T x, T y) { return x + y + y; });
  std::transform(a.begin(), a.end(), b.begin(), want.begin(),
                 [](T x, T y) { return x + y + y; });
  expect_vec("transform(2 inputs)", n, dc.download(), want);

  T v;
  if constexpr (std::is_same_v<T, pt>)
    v = {7, 2.5f};
  else
    v = T(7);
  mstage::fill(dc, v);
  std::fill(want.begin(), want.end(), v);
  expect_vec("fill", n, dc.download(), want);

  mstage::copy(da, dc);
  expect_vec("copy", n, dc.download(), a);

  if constexpr (!std::is_same_v<T, pt>) {
    mstage::iota(dc, T(-3));
    std::iota(want.begin(), want.end(), T(-3));
    expect_vec("iota", n, dc.download(), want);
    // In place, on a stream, over a vector_view.
    mstage::stream s;
    mstage::transform.on(s)(dc.view(), dc.view(), [](T x) { return x + 1; });
    s.synchronize();
    std::transform(want.begin(), want.end(), want.begin(),
                   [](T x) { return x + 1; });
    expect_vec("transform in place", n, dc.download(), want);
  }
}

void run_elementwise(bool cpu) {
  for (std::size_t n : Sizes) {
    if (cpu && big(n)) {
      std::vector<int> a = random_data<int>(n, 5), want(n);
      mstage::device_vector<int> da(a), dc(n);
      mstage::transform(da, dc, [](int x) { return 3 * x; });
      std::transform(a.begin(), a.end(), want.begin(),
                     [](int x) { return 3 * x; });
      expect_vec("transform", n, dc.download(), want);
      continue;
    }
    elementwise_type<int>(n);
    elementwise_type<float>(n);
    elementwise_type<double>(n);
    elementwise_type<pt>(n);
  }
}

// The tiled element-wise kernel and the one-launch reduction at the edges of
// their shapes: sizes around the vector width and the tile, views aligned
// for 16-byte chunks and views one element in (input, output or both),
// element types of different sizes in one call, a tile whose items are not
// a multiple of the vector width, small tiles (many blocks, so that the
// last block's ticket reduces many partials), and several reductions on one
// stream and on two (the stream's ticket is zero again after each).
template <class Fn, class T, class U>
void tiled_transform(const char *what, Fn fn, std::size_t n, int in_off,
                     int out_off) {
  std::vector<T> a = random_data<T>(n + 1, unsigned(n) + 11);
  mstage::device_vector<T> da(a);
  mstage::device_vector<U> dc(n + 1, U(-99));
  mstage::vector_view<const T> in(da.data() + in_off, n);
  mstage::vector_view<U> out(dc.data() + out_off, n);
  fn(in, out, [](T x) { return U(x) * U(3) + U(1); });
  std::vector<U> want(n + 1, U(-99));
  for (std::size_t i = 0; i < n; ++i)
    want[i + out_off] = U(a[i + in_off]) * U(3) + U(1);
  expect_vec(what, n, dc.download(), want);
}

template <unsigned Block, unsigned Items, class T>
void tiled_reduce(const char *what, std::size_t n) {
  std::vector<T> h = random_data<T>(n + 1, unsigned(n) + 13);
  mstage::device_vector<T> d(h);
  mstage::vector_view<const T> all(d.data(), n), off(d.data() + 1, n);
  T want = std::accumulate(h.begin(), h.begin() + n, T{});
  T want_off = std::accumulate(h.begin() + 1, h.end(), T{});
  mstage::sum_fn<Block, Items> sum;
  mstage::reduce_fn<Block, Items> reduce;
  expect(what, n, sum(all), want);
  expect(what, n, sum(off), want_off);
  // A lambda has no identity: the flagged path, partials included.
  auto larger = [](T x, T y) { return x < y ? y : x; };
  if (n)
    expect(what, n, reduce(all, h[0], larger),
           *std::max_element(h.begin(), h.begin() + n));
  // Three on one stream into device memory, then two streams at once.
  mstage::device_vector<T> out(5);
  mstage::vector_view<T> o = out.view();
  mstage::stream s1, s2;
  sum.on(s1)(all, mstage::vector_view<T>(o.data(), 1));
  sum.on(s1)(off, mstage::vector_view<T>(o.data() + 1, 1));
  sum.on(s1)(all, mstage::vector_view<T>(o.data() + 2, 1));
  sum.on(s2)(off, mstage::vector_view<T>(o.data() + 3, 1));
  sum.on(s2)(all, mstage::vector_view<T>(o.data() + 4, 1));
  s1.synchronize();
  s2.synchronize();
  expect_vec(what, n, out.download(),
             std::vector<T>{want, want_off, want, want_off, want});
}

void run_tiles(bool cpu) {
  auto plain = [](auto in, auto out, auto f) { mstage::transform(in, out, f); };
  auto small = [](auto in, auto out, auto f) {
    mstage::transform_fn<32, 8>{}(in, out, f); // 256 a tile, 2 chunks
  };
  auto odd = [](auto in, auto out, auto f) {
    mstage::transform_fn<64, 3>{}(in, out, f); // 3 items: never chunks
  };
  // float: chunks of 4, tiles of 4096; double: 2 and 2048.
  for (std::size_t n : {0, 1, 3, 4, 5, 7, 8, 9, 255, 256, 257, 2047, 2048,
                        2049, 4095, 4096, 4097, 3 * 4096 + 5}) {
    for (int in_off : {0, 1})
      for (int out_off : {0, 1}) {
        tiled_transform<decltype(plain), float, float>("transform float", plain,
                                                       n, in_off, out_off);
        tiled_transform<decltype(plain), double, double>(
            "transform double", plain, n, in_off, out_off);
        tiled_transform<decltype(plain), int, double>(
            "transform int to double", plain, n, in_off, out_off);
        tiled_transform<decltype(small), float, float>(
            "transform<32, 8> float", small, n, in_off, out_off);
        tiled_transform<decltype(odd), int, int>("transform<64, 3> int", odd,
                                                 n, in_off, out_off);
      }
    std::vector<int> want(n);
    std::iota(want.begin(), want.end(), 5);
    mstage::device_vector<int> v(n);
    mstage::iota(v, 5);
    expect_vec("iota", n, v.download(), want);
    mstage::iota_fn<32, 8>{}(v, 5);
    expect_vec("iota<32, 8>", n, v.download(), want);
  }
  // int: tiles of 4096 (256 x 16); <32, 4>: 128, so thousands of partials.
  for (std::size_t n :
       {1, 2, 4095, 4096, 4097, 8 * 4096 + 1, 100 * 4096 + 3, 40000}) {
    tiled_reduce<0, 0, int>("sum/reduce int", n);
    tiled_reduce<32, 4, int>("sum/reduce<32, 4> int", n);
    tiled_reduce<64, 3, double>("sum/reduce<64, 3> double", n);
  }
  // A float sum's rounding depends on the order of the additions, which
  // each block's tiles fix: the same call gives the same bits every time,
  // on one stream and on another (and near the exact sum).
  for (std::size_t n : {std::size_t(100 * 4096 + 3),
                        std::size_t(cpu ? 0 : 3000 * 4096 + 5)}) {
    if (n == 0)
      continue;
    std::mt19937 gen(Seed + unsigned(n));
    std::uniform_real_distribution<float> d(0.0f, 1.0f);
    std::vector<float> h(n);
    double exact = 0;
    for (float &x : h) {
      x = d(gen);
      exact += x;
    }
    mstage::device_vector<float> v(h);
    mstage::stream other;
    float first = mstage::sum(v);
    expect("float sum, again", n, mstage::sum(v), first);
    expect("float sum, on another stream", n, mstage::sum.on(other)(v),
           first);
    expect_near("float sum", n, first, exact, 1e-5);
  }
  // Blocks that walk several tiles (a barrier after each). The CPU back
  // end's grid is its thread count, so the sizes above do it there; a GPU's
  // full grid is 64 blocks a multiprocessor of <32, 4> (128 a tile), 32 of
  // <64, 3> and 4 of the default shape (512 threads, 8192 ints or 4096
  // doubles): at 300 x 4096 + 7 the first two take one or two tiles each,
  // and the default takes four at the last sizes (not with
  // MSTAGE_SUITE_QUICK, as under the sanitizers).
  if (cpu)
    return;
  tiled_reduce<32, 4, int>("sum/reduce<32, 4> int", 300 * 4096 + 7);
  tiled_reduce<64, 3, double>("sum/reduce<64, 3> double", 300 * 4096 + 7);
  if (std::getenv("MSTAGE_SUITE_QUICK"))
    return;
  std::size_t full = std::size_t(mstage::device::current().multiprocessors()) *
                     4 * 4;
  tiled_reduce<0, 0, int>("sum/reduce int", full * 8192 + 333);
  tiled_reduce<0, 0, double>("sum/reduce double", full * 4096 + 333);
}

// Each index tuple writes its own number into the element it maps to; the
// host walks the same bounds in the same order.
void run_parallel_for(bool cpu) {
  for (std::size_t n : Sizes) {
    if (cpu && big(n))
      continue;
    mstage::device_vector<int> d(n + 1, -1);
    auto v = d.view();
    mstage::parallel_for(n, [=](int i) { v[i] = 2 * i; });
    std::vector<int> want(n + 1, -1);
    for (std::size_t i = 0; i < n; ++i)
      want[i] = 2 * int(i);
    expect_vec("parallel_for(n)", n, d.download(), want);
  }
  struct shape {
    int lo[4], hi[4];
  };
  const shape shapes[] = {{{0, 0, 0, 0}, {4, 6, 2, 3}},
                          {{1, 1, 1, 1}, {3, 17, 5, 2}},
                          {{-2, 3, 0, 1}, {2, 5, 31, 1}},
                          {{1, 1, 1, 1}, {0, 4, 4, 4}}}; // empty
  for (int rank = 1; rank <= 4; ++rank) {
    for (const shape &s : shapes) {
      for (bool first : {false, true}) {
        int ext[4];
        std::size_t total = 1;
        for (int d = 0; d < rank; ++d) {
          ext[d] = s.hi[d] - s.lo[d] + 1;
          total *= std::size_t(ext[d]);
        }
        mstage::device_vector<int> out(total + 1, -7);
        auto v = out.view();
        int lo0 = s.lo[0], lo1 = s.lo[1], lo2 = s.lo[2], lo3 = s.lo[3];
        int e1 = ext[1], e2 = ext[2], e3 = ext[3];
        mstage::index_order order =
            first ? mstage::first_fastest : mstage::last_fastest;
        // C-order position of the tuple, and its own value.
        if (rank == 1)
          mstage::parallel_for(mstage::bounds<1>{{s.lo[0], s.hi[0]}},
                               [=](int i) { v[i - lo0] = i; }, order);
        else if (rank == 2)
          mstage::parallel_for(
              mstage::bounds<2>{{s.lo[0], s.hi[0]}, {s.lo[1], s.hi[1]}},
              [=](int j, int i) { v[(j - lo0) * e1 + (i - lo1)] = j * 100 + i; },
              order);
        else if (rank == 3)
          mstage::parallel_for(
              mstage::bounds<3>{{s.lo[0], s.hi[0]},
                                {s.lo[1], s.hi[1]},
                                {s.lo[2], s.hi[2]}},
              [=](int k, int j, int i) {
                v[((k - lo0) * e1 + (j - lo1)) * e2 + (i - lo2)] =
                    k * 10000 + j * 100 + i;
              },
              order);
        else
          mstage::parallel_for(
              mstage::bounds<4>{{s.lo[0], s.hi[0]},
                                {s.lo[1], s.hi[1]},
                                {s.lo[2], s.hi[2]},
                                {s.lo[3], s.hi[3]}},
              [=](int l, int k, int j, int i) {
                v[(((l - lo0) * e1 + (k - lo1)) * e2 + (j - lo2)) * e3 +
                  (i - lo3)] = l * 1000000 + k * 10000 + j * 100 + i;
              },
              order);
        std::vector<int> want(total + 1, -7);
        std::size_t at = 0;
        int idx[4];
        for (idx[0] = s.lo[0]; total && idx[0] <= s.hi[0]; ++idx[0])
          for (idx[1] = s.lo[1]; idx[1] <= (rank > 1 ? s.hi[1] : s.lo[1]);
               ++idx[1])
            for (idx[2] = s.lo[2]; idx[2] <= (rank > 2 ? s.hi[2] : s.lo[2]);
                 ++idx[2])
              for (idx[3] = s.lo[3]; idx[3] <= (rank > 3 ? s.hi[3] : s.lo[3]);
                   ++idx[3]) {
                int value = 0;
                for (int d = 0; d < rank; ++d)
                  value = value * 100 + idx[d];
                if (rank == 4)
                  value = idx[0] * 1000000 + idx[1] * 10000 + idx[2] * 100 +
                          idx[3];
                want[at++] = value;
              }
        std::string what = "parallel_for(bounds<" + std::to_string(rank) +
                           ">" + (first ? ", first_fastest)" : ")");
        expect_vec(what.c_str(), total, out.download(), want);
      }
    }
  }
  // The CTAD spellings of the issue.
  mstage::device_vector<int> out(6, 0);
  auto v = out.view();
  mstage::parallel_for(mstage::bounds{2, 3},
                       [=](int j, int i) { v[j * 3 + i] = j + i; });
  mstage::parallel_for(mstage::bounds{{1, 2}, {1, 3}},
                       [=](int j, int i) { v[(j - 1) * 3 + i - 1] += 10; });
  expect_vec("parallel_for(bounds{...})", 6, out.download(),
             std::vector<int>{10, 11, 12, 11, 12, 13});
}

void run_array(bool) {
  // C order, lower bounds 0.
  mstage::array<int, 2> c("c", 3, 4);
  expect("extent(1)", 12, c.extent(1), 4);
  expect("lbound(0)", 12, c.lbound(0), 0);
  auto cv = c.view();
  mstage::parallel_for(mstage::bounds<2>{3, 4},
                       [=](int j, int i) { cv(j, i) = 10 * j + i; });
  std::vector<int> want;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 4; ++i)
      want.push_back(10 * j + i);
  expect_vec("array<int, 2> C order", 12, c.to_host(), want);
  expect("sum(array)", 12, mstage::sum(c),
         std::accumulate(want.begin(), want.end(), 0));

  // Fortran order with lower bounds: the first index is the fastest.
  mstage::array<double, 3, mstage::fortran> u{"u", {1, 2}, {0, 2}, 4};
  expect("fortran lbound(0)", 24, u.lbound(0), 1);
  expect("fortran lbound(2) (default 1)", 24, u.lbound(2), 1);
  expect("fortran ubound(2)", 24, u.ubound(2), 4);
  auto uv = u.view();
  mstage::parallel_for(
      mstage::bounds<3>{{1, 2}, {0, 2}, {1, 4}},
      [=](int a, int b, int c) { uv(a, b, c) = 100 * a + 10 * b + c; },
      mstage::first_fastest);
  std::vector<double> fwant;
  for (int k = 1; k <= 4; ++k)
    for (int j = 0; j <= 2; ++j)
      for (int i = 1; i <= 2; ++i)
        fwant.push_back(100 * i + 10 * j + k);
  expect_vec("array<double, 3, fortran>", 24, u.to_host(), fwant);
  expect("max(fortran array)", 24, mstage::max(u), 100.0 * 2 + 20 + 4);

  // The host mirror both ways, and the array as a kernel argument.
  std::vector<double> h(24);
  std::iota(h.begin(), h.end(), 1.0);
  u.from_host(h);
  expect_vec("from_host/to_host", 24, u.to_host(), h);
  mstage::device_vector<double> got(1);
  mstage::kernel(
      [](auto a, mstage::vector_view<double> out) { out[0] = a(2, 1, 3); }, 1,
      1)(u, got);
  // (2, 1, 3) from (1, 0, 1) in Fortran order: 1 + 2 * 1 + 6 * 2 = 15.
  expect("array as kernel argument", 24, got.get(0), h[15]);
  // Algorithms take an array's elements flat.
  mstage::fill(u, 0.5);
  expect("fill(array)", 24, mstage::sum(uv), 12.0);
}

int run(int argc, char **argv) {
  if (skipWithoutGpu(Name))
    return 0;
  if (const char *s = std::getenv("MSTAGE_ALGO_SEED"))
    Seed = unsigned(std::strtoul(s, nullptr, 0));
  std::string only = argc > 1 ? argv[1] : "";
  bool cpu = onCpu();
  if (only.empty() || only == "reduce")
    run_reduce(cpu);
  if (only.empty() || only == "elementwise")
    run_elementwise(cpu);
  if (only.empty() || only == "tiles")
    run_tiles(cpu);
  if (only.empty() || only == "parallel_for")
    run_parallel_for(cpu);
  if (only.empty() || only == "array")
    run_array(cpu);
  if (Failures) {
    std::printf("FAIL %s: %d of %d checks (seed %u)\n", Name, Failures, Cases,
                Seed);
    return 1;
  }
  std::printf("PASS %s %s: %d checks (seed %u)\n", Name,
              only.empty() ? "all" : only.c_str(), Cases, Seed);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return runSuiteProgram(Name, run, argc, argv);
}
