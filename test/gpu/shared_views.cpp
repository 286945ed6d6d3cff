//===- shared_views.cpp - GPU suite: typed, sized dynamic shared memory ----===//
//
// Each block carves three arrays out of its dynamic shared memory with a
// shared_arena: doubles, a 32-byte aligned struct and ints, after 3 chars
// that misalign the start. Threads fill them, synchronize, and each stores a
// sum of values that other threads wrote, so a wrong offset, overlap or
// alignment shows up in the result. Thread 0 of each block also reports what
// the kernel sees: dynamic_shared_size(), dynamic_shared<int>().size(),
// shared_memory<double>().size(), the arena's use, and whether the arrays
// are aligned. Launched with shared_bytes_for(...) plus a few spare bytes,
// for blocks of 32, 128 and 256 threads, all checked against the CPU.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

constexpr const char *Name = "shared_views";
constexpr unsigned BlockSizes[] = {32, 128, 256};
constexpr unsigned Blocks = 50;
constexpr std::size_t Spare = 20; // bytes beyond what the arrays need
constexpr int InfoFields = 6;

struct alignas(32) Wide {
  float V[8];
};

std::size_t sharedBytes(unsigned BS) {
  return mstage::shared_bytes_for<char, double, Wide, int>(3, BS, BS / 8, BS) +
         Spare;
}

int run() {
  int Executes = mstage_rt_executes();
  if (Executes < 0) {
    std::printf("FAIL %s: no backend: %s\n", Name, mstage_rt_last_error());
    return 1;
  }
  auto Body = [](const auto &In, auto &Out, auto &Info) {
    unsigned BS = mstage::Block::get().range.x;
    unsigned T = mstage::Thread::get().index.x;
    std::size_t G = mstage::Thread::get().global.x;
    mstage::shared_arena Arena;
    auto Tag = Arena.take<char>(3);
    auto D = Arena.take<double>(BS);
    auto W = Arena.take<Wide>(BS / 8);
    auto I = Arena.take<int>(BS);
    if (T < 3)
      Tag[T] = char('a' + T);
    D[T] = In[G] * 0.5;
    W[T / 8].V[T % 8] = float(In[G]);
    I[T] = In[G] + 1;
    mstage::Block::get().synchronize();
    unsigned N1 = (T + 1) % BS, N2 = (T + 2) % BS;
    Out[G] = D[BS - 1 - T] + double(W[N1 / 8].V[N1 % 8]) + double(I[N2]) +
             double(Tag[T % 3]);
    if (T == 0) {
      std::size_t B = mstage::Block::get().index.x * InfoFields;
      Info[B + 0] = mstage::dynamic_shared_size();
      Info[B + 1] = mstage::dynamic_shared<int>().size();
      Info[B + 2] = mstage::shared_memory<double>().size();
      Info[B + 3] = Arena.used();
      Info[B + 4] = reinterpret_cast<std::uintptr_t>(W.data()) % alignof(Wide);
      Info[B + 5] = reinterpret_cast<std::uintptr_t>(D.data()) % alignof(double);
    }
  };

  std::mt19937 Gen(1234);
  std::uniform_int_distribution<int> Dist(-1000000, 1000000);
  std::size_t Checked = 0;
  for (unsigned BS : BlockSizes) {
    std::size_t N = std::size_t(BS) * Blocks, Bytes = sharedBytes(BS);
    std::vector<int> In(N);
    for (int &V : In)
      V = Dist(Gen);
    std::vector<double> Out(N, -1.0);
    std::vector<unsigned long long> Info(Blocks * InfoFields, ~0ull);
    mstage::kernel(Body, Blocks, BS, Bytes)(In, Out, Info);
    if (Executes == 0)
      continue;

    for (std::size_t G = 0; G < N; ++G) {
      std::size_t Base = G / BS * BS;
      unsigned T = unsigned(G % BS), N1 = (T + 1) % BS, N2 = (T + 2) % BS;
      double Want = In[Base + BS - 1 - T] * 0.5 + double(float(In[Base + N1])) +
                    double(In[Base + N2] + 1) + double('a' + T % 3);
      if (Out[G] != Want) {
        std::printf("FAIL %s: block size %u: out[%zu] = %.17g, expected "
                    "%.17g\n",
                    Name, BS, G, Out[G], Want);
        return 1;
      }
    }
    // The arena's use: 3 chars padded to 8, the doubles, the Wide array
    // after at most 24 bytes of padding, and the ints.
    std::size_t UsedMin = 8 + 8 * BS + 32 * (BS / 8) + 4 * BS;
    for (unsigned B = 0; B < Blocks; ++B) {
      const unsigned long long *F = &Info[B * InfoFields];
      bool OK = F[0] == Bytes && F[1] == Bytes / sizeof(int) &&
                F[2] == Bytes / sizeof(double) && F[3] >= UsedMin &&
                F[3] <= UsedMin + 24 && F[3] <= Bytes && F[4] == 0 &&
                F[5] == 0;
      if (!OK) {
        std::printf("FAIL %s: block size %u, block %u saw shared size %llu, "
                    "%llu ints, %llu doubles, arena use %llu, Wide "
                    "misaligned by %llu, doubles by %llu (launch gave %zu "
                    "bytes)\n",
                    Name, BS, B, F[0], F[1], F[2], F[3], F[4], F[5], Bytes);
        return 1;
      }
    }
    Checked += N;
  }
  if (Executes == 0) {
    std::printf("SKIP %s: PTX-only mode, result not checked\n", Name);
    return 0;
  }
  std::printf("PASS %s: blocks of 32, 128 and 256 threads, %zu elements and "
              "the shared sizes and alignments the kernels saw\n",
              Name, Checked);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
