// Written by test/property/gen_stage_kernels.py --seed 11 --kernels 1
// --launches 1 (before --avoid-known-bugs restricted nested loop bounds),
// its launch shape then set to grid {1,1,2}, block {16,8,5}, sizes 250 and
// 276: a host evaluator of this kernel loops forever at that launch
// (evaluator-hang.test). Kept as it is, a reproducer.
#include <mstage.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

using namespace mstage;

namespace {

constexpr const char *Name = "property";
constexpr unsigned long long Seed = 11ull;

enum class Color : uint16_t { Red = 3, Green = 7, Blue = 11, Gray = 60000 };

// A struct with padding between b and c.
struct Small {
  int32_t a;
  uint16_t b;
  float c;
};

// A struct without padding.
struct Packed {
  uint32_t a;
  int32_t b;
  float c;
};

// What one thread computes: an integer hash, a floating-point sum, and the
// sum of the magnitudes of that sum's terms (for the tolerance).
struct Result {
  uint64_t i;
  double f;
  double m;
};

// The staged values' integer and floating-point parts.
template <class T> uint64_t u64(T v) { return uint64_t(v); }
inline uint64_t u64(bool v) { return v ? 0x5bd1e995u : 7u; }
inline uint64_t u64(float) { return 1; }
inline uint64_t u64(double) { return 2; }
inline uint64_t u64(Color v) { return uint64_t(uint16_t(v)) * 977u; }
inline uint64_t u64(Small v) { return uint64_t(uint32_t(v.a)) * 3u + v.b; }
inline uint64_t u64(Packed v) { return uint64_t(v.a) * 5u + uint64_t(int64_t(v.b)); }
template <class T> double f64(T) { return 0; }
inline double f64(float v) { return v; }
inline double f64(double v) { return v; }
inline double f64(Small v) { return v.c; }
inline double f64(Packed v) { return v.c; }

inline uint64_t mix(uint64_t h, uint64_t v) {
  return (h ^ v) * 0x100000001b3ull + (h >> 29);
}
inline double mag(double v) { return v < 0 ? -v : v; }

// The host's stand-ins for Thread::get(), Block::get() and Grid::get().
struct HostThread {
  dim3 global, index;
};
struct HostRange {
  dim3 index, range;
};

// Test data: a fixed linear congruential sequence, the same everywhere.
struct Lcg {
  uint64_t s;
  uint64_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 17;
  }
};

template <bool STAGED, class V>
uint8_t helper0(const V &v, uint64_t k, bool flag, double dk) {
  (void)v;
  (void)k;
  (void)flag;
  (void)dk;
  uint8_t r;
  if constexpr (STAGED)
    r = stage(uint8_t(((uint64_t(v.size()) % (uint64_t(v.size()) | 1u)) + (uint64_t(v.size()) >> 5))));
  else
    r = uint8_t(((uint64_t(v.size()) % (uint64_t(v.size()) | 1u)) + (uint64_t(v.size()) >> 5)));
  return r;
}

template <bool STAGED, class V>
int16_t helper1(const V &v, uint64_t k, bool flag, double dk) {
  (void)v;
  (void)k;
  (void)flag;
  (void)dk;
  int16_t r;
  if constexpr (STAGED)
    r = stage(int16_t(((uint64_t(v.size()) ^ u64(k)) - (0x5ull * 0x87efda6b5e68b7caull))));
  else
    r = int16_t(((uint64_t(v.size()) ^ u64(k)) - (0x5ull * 0x87efda6b5e68b7caull)));
  return r;
}

template <bool STAGED, class V>
Color helper2(const V &v, uint64_t k, bool flag, double dk) {
  (void)v;
  (void)k;
  (void)flag;
  (void)dk;
  Color r;
  if constexpr (STAGED)
    r = stage(Color(uint16_t((0x745bull % ((u64(k) - uint64_t(v.size())) | 1u)))));
  else
    r = Color(uint16_t((0x745bull % ((u64(k) - uint64_t(v.size())) | 1u))));
  return r;
}

// Kernel 0.
template <bool STAGED> auto kernel0(uint64_t c0, uint64_t c1, uint16_t c2, bool flag, double dk, int n) {
  return [=](const auto &a, const auto &b, auto &out) {
    (void)c0; (void)c1; (void)c2; (void)flag; (void)dk; (void)n;
    auto thr = Thread::get();
    auto blk = Block::get();
    auto grd = Grid::get();
      uint64_t nx = uint64_t(grd.range.x) * blk.range.x;
      uint64_t ny = uint64_t(grd.range.y) * blk.range.y;
      uint64_t gid = thr.global.x + nx * (thr.global.y + ny * thr.global.z);
      uint64_t acc = gid * 0x9e3779b97f4a7c15ull + 1u;
      double accf = double(thr.global.x % 7u) * 0.25;
      double accm = accf;
      auto brange = blk.range;
      auto grange = grd.range;
      (void)brange;
      (void)grange;
    uint8_t v1 = helper0<STAGED>(a, u64(n), flag, dk);
    acc = mix(acc, u64(v1) + 0u);
    Small v2;
    if constexpr (STAGED)
      v2 = stage([flag0 = bool(0xbd65693b3d0840fbull & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return Small{int32_t(u64(x)), uint16_t((flag0 ? (u64(y) ^ 0x952e1b8b356f8bd1ull) : u64(y))), float(int64_t((((u64(flag0) | 0xeull) / ((0xbd4aeab02891dd3cull - 0x7b862eace1d7300full) | 1u))) % 1001u)) * 0.5f}; }, (u64(v1) / ((u64(c1) / (uint64_t(grange.x) | 1u)) | 1u)), (u64(v1) * (0xfeef16e964ef2ebeull + u64(v1))));
    else
      v2 = ([flag0 = bool(0xbd65693b3d0840fbull & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return Small{int32_t(u64(x)), uint16_t((flag0 ? (u64(y) ^ 0x952e1b8b356f8bd1ull) : u64(y))), float(int64_t((((u64(flag0) | 0xeull) / ((0xbd4aeab02891dd3cull - 0x7b862eace1d7300full) | 1u))) % 1001u)) * 0.5f}; })((u64(v1) / ((u64(c1) / (uint64_t(grange.x) | 1u)) | 1u)), (u64(v1) * (0xfeef16e964ef2ebeull + u64(v1))));
    acc = mix(acc, u64(v2) + 0u);
    {
      double t = f64(v2) * 0.5;
      accf += t;
      accm += mag(t);
    }
    for (int j1 = 0; j1 < int(grange.z % 3u); ++j1) {
      int16_t v3 = helper1<STAGED>(b, uint64_t(grange.z), flag, dk);
      acc = mix(acc, u64(v3) + uint64_t(j1));
      bool v4;
      if constexpr (STAGED)
        v4 = stage([flag0 = bool(((uint64_t(a.size()) - uint64_t(brange.x)) | (u64(v3) & uint64_t(grange.x))) & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return bool(((0x2e69ull >> 6)) & 1u); }, (u64(v3) - 0xcull), ((0x4253ull % (uint64_t(a.size()) | 1u)) / ((flag ? uint64_t(brange.y) : u64(v1)) | 1u)));
      else
        v4 = ([flag0 = bool(((uint64_t(a.size()) - uint64_t(brange.x)) | (u64(v3) & uint64_t(grange.x))) & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return bool(((0x2e69ull >> 6)) & 1u); })((u64(v3) - 0xcull), ((0x4253ull % (uint64_t(a.size()) | 1u)) / ((flag ? uint64_t(brange.y) : u64(v1)) | 1u)));
      acc = mix(acc, u64(v4) + uint64_t(j1));
      for (int j2 = 0; j2 < int(u64(v3) % 4u); ++j2) {
        uint16_t v5;
        if constexpr (STAGED)
          v5 = stage(uint16_t((uint64_t(brange.x) % ((u64(v3) * u64(c1)) | 1u))));
        else
          v5 = uint16_t((uint64_t(brange.x) % ((u64(v3) * u64(c1)) | 1u)));
        acc = mix(acc, u64(v5) + uint64_t(j2));
        int8_t v6;
        if constexpr (STAGED)
          v6 = stage([flag0 = bool(((u64(v1) | u64(c1)) / ((u64(v5) * u64(v5)) | 1u)) & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return int8_t((0x13f5bc90f55dad76ull * u64(y))); }, ((flag ? uint64_t(grange.x) : 0x153dull) | (u64(v5) + 0xbull)), u64(c0));
        else
          v6 = ([flag0 = bool(((u64(v1) | u64(c1)) / ((u64(v5) * u64(v5)) | 1u)) & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return int8_t((0x13f5bc90f55dad76ull * u64(y))); })(((flag ? uint64_t(grange.x) : 0x153dull) | (u64(v5) + 0xbull)), u64(c0));
        acc = mix(acc, u64(v6) + uint64_t(j2));
      }
    }
    if (flag) {
      acc = mix(acc, uint64_t(a[(gid + 92) % a.size()]) * gid);
      acc = mix(acc, uint64_t(int64_t(b[gid % b.size()])) + thr.global.x);
    } else {
      if (u64(v1) % 3u == 1u) {
        acc = mix(acc, uint64_t(a[(gid + 70) % a.size()]) * blk.index.y + 3u);
        acc = mix(acc, uint64_t(int64_t(b[gid % b.size()])) + thr.global.y);
      } else {
        uint8_t v7;
        if constexpr (STAGED)
          v7 = stage(uint8_t(((u64(v1) / (u64(c1) | 1u)) >> 6)));
        else
          v7 = uint8_t(((u64(v1) / (u64(c1) | 1u)) >> 6));
        acc = mix(acc, u64(v7) + 0u);
        uint32_t v8;
        if constexpr (STAGED)
          v8 = stage(uint32_t(((uint64_t(brange.x) * 0x11f9ull) % ((u64(v7) % (u64(v7) | 1u)) | 1u))));
        else
          v8 = uint32_t(((uint64_t(brange.x) * 0x11f9ull) % ((u64(v7) % (u64(v7) | 1u)) | 1u)));
        acc = mix(acc, u64(v8) + 0u);
      }
      if (flag) {
        Packed v9;
        if constexpr (STAGED)
          v9 = stage(Packed{uint32_t(((flag ? u64(v2) : uint64_t(b.size())) >> 18)), int32_t((u64(v1) - (u64(v2) >> 37))), float(int64_t((((0xeaf9ull % (uint64_t(a.size()) | 1u)) / ((uint64_t(b.size()) ^ uint64_t(grange.x)) | 1u))) % 1001u)) * 0.25f});
        else
          v9 = Packed{uint32_t(((flag ? u64(v2) : uint64_t(b.size())) >> 18)), int32_t((u64(v1) - (u64(v2) >> 37))), float(int64_t((((0xeaf9ull % (uint64_t(a.size()) | 1u)) / ((uint64_t(b.size()) ^ uint64_t(grange.x)) | 1u))) % 1001u)) * 0.25f};
        acc = mix(acc, u64(v9) + 0u);
        {
          double t = f64(v9) * double(a[gid % a.size()] % 5u);
          accf += t;
          accm += mag(t);
        }
        Color v10 = helper2<STAGED>(a, ((u64(v1) / (u64(v9) | 1u)) >> 11), flag, dk);
        acc = mix(acc, u64(v10) + 0u);
      } else {
        bool v11;
        if constexpr (STAGED)
          v11 = stage(bool((u64(v1)) & 1u));
        else
          v11 = bool((u64(v1)) & 1u);
        acc = mix(acc, u64(v11) + 0u);
      }
    }
    for (int j3 = 0; j3 < int(brange.y % 3u); ++j3) {
      int16_t v12;
      if constexpr (STAGED)
        v12 = stage([flag0 = bool(0x6d2b653f778aae87ull & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return int16_t(((0xdull - 0xdull) % (0x5ull | 1u))); }, (uint64_t(brange.x) & u64(v2)), u64(v2));
      else
        v12 = ([flag0 = bool(0x6d2b653f778aae87ull & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return int16_t(((0xdull - 0xdull) % (0x5ull | 1u))); })((uint64_t(brange.x) & u64(v2)), u64(v2));
      acc = mix(acc, u64(v12) + uint64_t(j3));
    }
      out[gid] = Result{acc, accf, accm};
  };
}

template <bool STAGED, class A, class B>
Result reference0(uint64_t c0, uint64_t c1, uint16_t c2, bool flag, double dk, int n, const A &a, const B &b, HostThread thr, HostRange blk, HostRange grd) {
  (void)c0; (void)c1; (void)c2; (void)flag; (void)dk; (void)n;
  uint64_t nx = uint64_t(grd.range.x) * blk.range.x;
  uint64_t ny = uint64_t(grd.range.y) * blk.range.y;
  uint64_t gid = thr.global.x + nx * (thr.global.y + ny * thr.global.z);
  uint64_t acc = gid * 0x9e3779b97f4a7c15ull + 1u;
  double accf = double(thr.global.x % 7u) * 0.25;
  double accm = accf;
  auto brange = blk.range;
  auto grange = grd.range;
  (void)brange;
  (void)grange;
uint8_t v1 = helper0<STAGED>(a, u64(n), flag, dk);
acc = mix(acc, u64(v1) + 0u);
Small v2;
if constexpr (STAGED)
  v2 = stage([flag0 = bool(0xbd65693b3d0840fbull & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return Small{int32_t(u64(x)), uint16_t((flag0 ? (u64(y) ^ 0x952e1b8b356f8bd1ull) : u64(y))), float(int64_t((((u64(flag0) | 0xeull) / ((0xbd4aeab02891dd3cull - 0x7b862eace1d7300full) | 1u))) % 1001u)) * 0.5f}; }, (u64(v1) / ((u64(c1) / (uint64_t(grange.x) | 1u)) | 1u)), (u64(v1) * (0xfeef16e964ef2ebeull + u64(v1))));
else
  v2 = ([flag0 = bool(0xbd65693b3d0840fbull & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return Small{int32_t(u64(x)), uint16_t((flag0 ? (u64(y) ^ 0x952e1b8b356f8bd1ull) : u64(y))), float(int64_t((((u64(flag0) | 0xeull) / ((0xbd4aeab02891dd3cull - 0x7b862eace1d7300full) | 1u))) % 1001u)) * 0.5f}; })((u64(v1) / ((u64(c1) / (uint64_t(grange.x) | 1u)) | 1u)), (u64(v1) * (0xfeef16e964ef2ebeull + u64(v1))));
acc = mix(acc, u64(v2) + 0u);
{
  double t = f64(v2) * 0.5;
  accf += t;
  accm += mag(t);
}
for (int j1 = 0; j1 < int(grange.z % 3u); ++j1) {
  int16_t v3 = helper1<STAGED>(b, uint64_t(grange.z), flag, dk);
  acc = mix(acc, u64(v3) + uint64_t(j1));
  bool v4;
  if constexpr (STAGED)
    v4 = stage([flag0 = bool(((uint64_t(a.size()) - uint64_t(brange.x)) | (u64(v3) & uint64_t(grange.x))) & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return bool(((0x2e69ull >> 6)) & 1u); }, (u64(v3) - 0xcull), ((0x4253ull % (uint64_t(a.size()) | 1u)) / ((flag ? uint64_t(brange.y) : u64(v1)) | 1u)));
  else
    v4 = ([flag0 = bool(((uint64_t(a.size()) - uint64_t(brange.x)) | (u64(v3) & uint64_t(grange.x))) & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return bool(((0x2e69ull >> 6)) & 1u); })((u64(v3) - 0xcull), ((0x4253ull % (uint64_t(a.size()) | 1u)) / ((flag ? uint64_t(brange.y) : u64(v1)) | 1u)));
  acc = mix(acc, u64(v4) + uint64_t(j1));
  for (int j2 = 0; j2 < int(u64(v3) % 4u); ++j2) {
    uint16_t v5;
    if constexpr (STAGED)
      v5 = stage(uint16_t((uint64_t(brange.x) % ((u64(v3) * u64(c1)) | 1u))));
    else
      v5 = uint16_t((uint64_t(brange.x) % ((u64(v3) * u64(c1)) | 1u)));
    acc = mix(acc, u64(v5) + uint64_t(j2));
    int8_t v6;
    if constexpr (STAGED)
      v6 = stage([flag0 = bool(((u64(v1) | u64(c1)) / ((u64(v5) * u64(v5)) | 1u)) & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return int8_t((0x13f5bc90f55dad76ull * u64(y))); }, ((flag ? uint64_t(grange.x) : 0x153dull) | (u64(v5) + 0xbull)), u64(c0));
    else
      v6 = ([flag0 = bool(((u64(v1) | u64(c1)) / ((u64(v5) * u64(v5)) | 1u)) & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return int8_t((0x13f5bc90f55dad76ull * u64(y))); })(((flag ? uint64_t(grange.x) : 0x153dull) | (u64(v5) + 0xbull)), u64(c0));
    acc = mix(acc, u64(v6) + uint64_t(j2));
  }
}
if (flag) {
  acc = mix(acc, uint64_t(a[(gid + 92) % a.size()]) * gid);
  acc = mix(acc, uint64_t(int64_t(b[gid % b.size()])) + thr.global.x);
} else {
  if (u64(v1) % 3u == 1u) {
    acc = mix(acc, uint64_t(a[(gid + 70) % a.size()]) * blk.index.y + 3u);
    acc = mix(acc, uint64_t(int64_t(b[gid % b.size()])) + thr.global.y);
  } else {
    uint8_t v7;
    if constexpr (STAGED)
      v7 = stage(uint8_t(((u64(v1) / (u64(c1) | 1u)) >> 6)));
    else
      v7 = uint8_t(((u64(v1) / (u64(c1) | 1u)) >> 6));
    acc = mix(acc, u64(v7) + 0u);
    uint32_t v8;
    if constexpr (STAGED)
      v8 = stage(uint32_t(((uint64_t(brange.x) * 0x11f9ull) % ((u64(v7) % (u64(v7) | 1u)) | 1u))));
    else
      v8 = uint32_t(((uint64_t(brange.x) * 0x11f9ull) % ((u64(v7) % (u64(v7) | 1u)) | 1u)));
    acc = mix(acc, u64(v8) + 0u);
  }
  if (flag) {
    Packed v9;
    if constexpr (STAGED)
      v9 = stage(Packed{uint32_t(((flag ? u64(v2) : uint64_t(b.size())) >> 18)), int32_t((u64(v1) - (u64(v2) >> 37))), float(int64_t((((0xeaf9ull % (uint64_t(a.size()) | 1u)) / ((uint64_t(b.size()) ^ uint64_t(grange.x)) | 1u))) % 1001u)) * 0.25f});
    else
      v9 = Packed{uint32_t(((flag ? u64(v2) : uint64_t(b.size())) >> 18)), int32_t((u64(v1) - (u64(v2) >> 37))), float(int64_t((((0xeaf9ull % (uint64_t(a.size()) | 1u)) / ((uint64_t(b.size()) ^ uint64_t(grange.x)) | 1u))) % 1001u)) * 0.25f};
    acc = mix(acc, u64(v9) + 0u);
    {
      double t = f64(v9) * double(a[gid % a.size()] % 5u);
      accf += t;
      accm += mag(t);
    }
    Color v10 = helper2<STAGED>(a, ((u64(v1) / (u64(v9) | 1u)) >> 11), flag, dk);
    acc = mix(acc, u64(v10) + 0u);
  } else {
    bool v11;
    if constexpr (STAGED)
      v11 = stage(bool((u64(v1)) & 1u));
    else
      v11 = bool((u64(v1)) & 1u);
    acc = mix(acc, u64(v11) + 0u);
  }
}
for (int j3 = 0; j3 < int(brange.y % 3u); ++j3) {
  int16_t v12;
  if constexpr (STAGED)
    v12 = stage([flag0 = bool(0x6d2b653f778aae87ull & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return int16_t(((0xdull - 0xdull) % (0x5ull | 1u))); }, (uint64_t(brange.x) & u64(v2)), u64(v2));
  else
    v12 = ([flag0 = bool(0x6d2b653f778aae87ull & 1u), d0 = dk](uint64_t x, uint64_t y) { (void)x; (void)y; (void)flag0; (void)d0; return int16_t(((0xdull - 0xdull) % (0x5ull | 1u))); })((uint64_t(brange.x) & u64(v2)), u64(v2));
  acc = mix(acc, u64(v12) + uint64_t(j3));
}
  return Result{acc, accf, accm};
}

// Launches kernel K staged and unstaged on one shape, with
// arguments of the sizes na and nb, and compares both with the
// reference. Returns false after printing FAIL.
template <class Staged, class Unstaged, class Reference>
bool check(int K, int L, Staged S, Unstaged U, Reference R, dim3 G, dim3 B,
           size_t na, size_t nb, bool Runs, unsigned &Cases) {
  Lcg Rand{Seed * 1000003u + unsigned(K) * 101u + unsigned(L)};
  std::vector<uint32_t> a(na);
  for (auto &x : a)
    x = uint32_t(Rand.next());
  std::vector<int16_t> b(nb);
  for (auto &x : b)
    x = int16_t(Rand.next());
  size_t NX = size_t(G.x) * B.x, NY = size_t(G.y) * B.y, NZ = size_t(G.z) * B.z;
  Result Poison{0xdeadbeefdeadbeefull, -1e300, 0};
  std::vector<Result> OutS(NX * NY * NZ, Poison), OutU = OutS;
  kernel(S, G, B)(a, b, OutS);
  kernel(U, G, B)(a, b, OutU);
  if (!Runs)
    return true;
  for (unsigned bz = 0; bz < G.z; ++bz)
    for (unsigned by = 0; by < G.y; ++by)
      for (unsigned bx = 0; bx < G.x; ++bx)
        for (unsigned tz = 0; tz < B.z; ++tz)
          for (unsigned ty = 0; ty < B.y; ++ty)
            for (unsigned tx = 0; tx < B.x; ++tx) {
              dim3 Gl{bx * B.x + tx, by * B.y + ty, bz * B.z + tz};
              size_t E = Gl.x + NX * (Gl.y + NY * Gl.z);
              Result Want = R(a, b, HostThread{Gl, dim3{tx, ty, tz}},
                              HostRange{dim3{bx, by, bz}, B}, HostRange{dim3{}, G});
              // PROPERTY_BREAK=1 spoils one reference value: the test
              // that the comparison can fail.
              if (K == 0 && L == 0 && E == 0 && std::getenv("PROPERTY_BREAK"))
                Want.i += 1;
              const Result *Got[] = {&OutS[E], &OutU[E]};
              for (int V = 0; V < 2; ++V) {
                double Diff = Got[V]->f - Want.f;
                if (Got[V]->i == Want.i && mag(Diff) <= 1e-9 * (Want.m + 1))
                  continue;
                std::printf("FAIL %s seed=%llu kernel %d launch %d (grid {%u,%u,%u} "
                            "block {%u,%u,%u}) element %zu (thread {%u,%u,%u}): "
                            "%s {%#llx, %.17g}, reference {%#llx, %.17g}\n",
                            Name, Seed, K, L, G.x, G.y, G.z, B.x, B.y, B.z, E,
                            Gl.x, Gl.y, Gl.z, V == 0 ? "staged" : "unstaged",
                            (unsigned long long)Got[V]->i, Got[V]->f,
                            (unsigned long long)Want.i, Want.f);
                return false;
              }
            }
  ++Cases;
  return true;
}

int run() {
  int Executes = mstage_rt_executes();
  if (Executes < 0) {
    std::printf("FAIL %s seed=%llu: no back end: %s\n", Name, Seed, mstage_rt_last_error());
    return 1;
  }
  bool Runs = Executes == 1;
  unsigned Cases = 0, Launches = 0;
  {
    // Kernel 0's captures.
    uint64_t c0 = uint64_t(0xcdcc69292f45e678ull);
    uint64_t c1 = uint64_t(0x79cb9e86830c71c2ull);
    uint16_t c2 = uint16_t(0x9d2c67eda13ffe79ull);
    bool flag = true;
    double dk = -201.8125;
    int n = 3;
    auto R = [=](const auto &a, const auto &b, HostThread t, HostRange bl, HostRange g) {
      return reference0<false>(c0, c1, c2, flag, dk, n, a, b, t, bl, g);
    };
    if (!check(0, 0, kernel0<true>(c0, c1, c2, flag, dk, n), kernel0<false>(c0, c1, c2, flag, dk, n), R, dim3{1u, 1u, 2u},
               dim3{16u, 8u, 5u}, 250, 276, Runs, Cases))
      return 1;
    Launches += 2;
  }
  if (!Runs) {
    std::printf("SKIP %s seed=%llu: PTX-only mode, %u launches compiled, none run\n",
                Name, Seed, Launches);
    return 0;
  }
  std::printf("PASS %s seed=%llu cases=%u kernels=1 launches=%u\n", Name, Seed, Cases, Launches);
  return 0;
}

} // namespace

int main() {
  try {
    return run();
  } catch (const std::exception &E) {
    std::printf("FAIL %s seed=%llu: %s\n", Name, Seed, E.what());
    return 1;
  }
}
