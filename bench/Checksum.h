//===- Checksum.h - The checksum line both sides of a benchmark print -----===//
//
// bench/report.py compares, per benchmark and size, the checksum that the
// nvcc baseline and the mstage program print on stderr:
// checksum,BENCHMARK,SIDE,N,VALUE. VALUE is a hex FNV-1a where the result is
// exact, a decimal sum where floating-point contraction may differ. Plain
// C++17: nvcc's host compiler and mstage++ both read it.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_BENCH_CHECKSUM_H
#define MSTAGE_BENCH_CHECKSUM_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace ports {

// FNV-1a over bytes: equal results, equal checksums.
inline std::uint64_t fnv1a(const void *Data, std::size_t Bytes) {
  const unsigned char *P = static_cast<const unsigned char *>(Data);
  std::uint64_t H = 0xcbf29ce484222325ull;
  for (std::size_t I = 0; I < Bytes; ++I)
    H = (H ^ P[I]) * 0x100000001b3ull;
  return H;
}

inline std::string hex(std::uint64_t H) {
  char B[20];
  std::snprintf(B, sizeof B, "%016llx", (unsigned long long)H);
  return B;
}

// V with Digits digits after the point, in exponent form.
inline std::string decimal(double V, int Digits = 9) {
  char B[40];
  std::snprintf(B, sizeof B, "%.*e", Digits, V);
  return B;
}

// The sum of a field in double, in order, as a decimal.
inline std::string sumChecksum(const std::vector<float> &F, int Digits) {
  return decimal(std::accumulate(F.begin(), F.end(), 0.0), Digits);
}

inline void printChecksum(const char *Bench, const char *Side, std::size_t N,
                          const std::string &Value) {
  std::fprintf(stderr, "checksum,%s,%s,%zu,%s\n", Bench, Side, N,
               Value.c_str());
}

} // namespace ports

#endif
