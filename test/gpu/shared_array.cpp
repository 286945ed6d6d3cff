//===- shared_array.cpp - GPU suite: fixed-size shared arrays --------------===//
//
// Three kernels, each checked against a CPU reference:
//  - a hotspot-style 5-point stencil over a 2-D grid, each 16x16 block
//    loading its tile and halo into a shared_array<float, 18, 18>;
//  - two arrays of different types (float and short) in one kernel, each
//    thread reading what its neighbours wrote in both, so overlapping arrays
//    show up;
//  - 32 KiB of shared_array beside 32 KiB of dynamic shared memory: 64 KiB
//    in all, past the 48 KiB default, which needs the opt-in on the GPU;
//  - two arrays that one macro expansion declares (one place in the
//    source), which are two arrays all the same.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr const char *Name = "shared_array";
constexpr unsigned T = 16;

using namespace mstage;

int stencil(unsigned W, unsigned H) {
  std::vector<float> In(W * H), Out(W * H), Ref(W * H);
  for (unsigned I = 0; I < W * H; ++I)
    In[I] = float((I * 37) % 101) * 0.25f;
  auto At = [&](int X, int Y) {
    X = X < 0 ? 0 : X >= int(W) ? int(W) - 1 : X;
    Y = Y < 0 ? 0 : Y >= int(H) ? int(H) - 1 : Y;
    return In[unsigned(Y) * W + unsigned(X)];
  };
  for (unsigned Y = 0; Y < H; ++Y)
    for (unsigned X = 0; X < W; ++X)
      Ref[Y * W + X] = 0.5f * At(X, Y) + 0.125f * (At(X - 1, Y) + At(X + 1, Y) +
                                                   At(X, Y - 1) + At(X, Y + 1));
  kernel(
      [](vector_view<float> In, vector_view<float> Out, unsigned W,
         unsigned H) {
        shared_array<float, T + 2, T + 2> Tile;
        auto Th = Thread::get().index;
        auto B = Block::get().index;
        auto Load = [&](int X, int Y) {
          X = X < 0 ? 0 : X >= int(W) ? int(W) - 1 : X;
          Y = Y < 0 ? 0 : Y >= int(H) ? int(H) - 1 : Y;
          return In[unsigned(Y) * W + unsigned(X)];
        };
        int X = int(B.x * T + Th.x), Y = int(B.y * T + Th.y);
        // Each thread loads its element and, at the edges, the halo.
        Tile[Th.y + 1][Th.x + 1] = Load(X, Y);
        if (Th.x == 0)
          Tile[Th.y + 1][0] = Load(X - 1, Y);
        if (Th.x == T - 1)
          Tile[Th.y + 1][T + 1] = Load(X + 1, Y);
        if (Th.y == 0)
          Tile[0][Th.x + 1] = Load(X, Y - 1);
        if (Th.y == T - 1)
          Tile[T + 1][Th.x + 1] = Load(X, Y + 1);
        Block::get().synchronize();
        if (unsigned(X) < W && unsigned(Y) < H)
          Out[unsigned(Y) * W + unsigned(X)] =
              0.5f * Tile(Th.y + 1, Th.x + 1) +
              0.125f * (Tile(Th.y + 1, Th.x) + Tile(Th.y + 1, Th.x + 2) +
                        Tile(Th.y, Th.x + 1) + Tile(Th.y + 2, Th.x + 1));
      },
      dim3((W + T - 1) / T, (H + T - 1) / T), dim3(T, T))(In, Out, W, H);
  unsigned Wrong = 0;
  for (unsigned I = 0; I < W * H; ++I)
    Wrong += std::fabs(Out[I] - Ref[I]) > 1e-5f;
  if (Wrong)
    std::printf("FAIL %s: stencil %ux%u: %u of %u wrong\n", Name, W, H, Wrong,
                W * H);
  return Wrong != 0;
}

int twoArrays() {
  constexpr unsigned BS = 128, Blocks = 40;
  std::vector<int> Out(BS * Blocks);
  kernel(
      [](vector_view<int> Out) {
        shared_array<float, BS> F;
        shared_array<short, BS> S;
        unsigned Th = Thread::get().index.x, B = Block::get().index.x;
        F[Th] = float(B * 1000 + Th);
        S[Th] = short(-int(Th) - 1);
        Block::get().synchronize();
        unsigned N = (Th + 1) % BS;
        Out[B * BS + Th] = int(F[N]) + S[N];
      },
      Blocks, BS)(Out);
  unsigned Wrong = 0;
  for (unsigned B = 0; B < Blocks; ++B)
    for (unsigned Th = 0; Th < BS; ++Th) {
      unsigned N = (Th + 1) % BS;
      Wrong += Out[B * BS + Th] != int(B * 1000 + N) - int(N) - 1;
    }
  if (Wrong)
    std::printf("FAIL %s: two arrays: %u of %u wrong\n", Name, Wrong,
                BS * Blocks);
  return Wrong != 0;
}

int withDynamic() {
  constexpr unsigned BS = 256, Blocks = 16, Floats = 8192;
  constexpr std::size_t Dynamic = 32 * 1024;
  std::vector<float> Out(BS * Blocks);
  kernel(
      [](vector_view<float> Out) {
        shared_array<float, Floats> A;
        auto D = dynamic_shared<float>();
        unsigned Th = Thread::get().index.x, B = Block::get().index.x;
        for (unsigned I = Th; I < Floats; I += BS) {
          A[I] = float(I + B);
          D[I % D.size()] = float(2 * I);
        }
        Block::get().synchronize();
        unsigned N = Floats - 1 - Th;
        Out[B * BS + Th] = A[N] + D[N % D.size()];
      },
      Blocks, BS, Dynamic)(Out);
  unsigned Wrong = 0;
  for (unsigned B = 0; B < Blocks; ++B)
    for (unsigned Th = 0; Th < BS; ++Th) {
      unsigned N = Floats - 1 - Th;
      Wrong += Out[B * BS + Th] != float(N + B) + float(2 * N);
    }
  if (Wrong)
    std::printf("FAIL %s: 32 KiB static + 32 KiB dynamic: %u of %u wrong\n",
                Name, Wrong, BS * Blocks);
  return Wrong != 0;
}

#define SUITE_TWO_TILES(T, N, A, B)                                            \
  shared_array<T, N> A;                                                        \
  shared_array<T, N> B

int oneMacro() {
  constexpr unsigned BS = 128, Blocks = 8;
  std::vector<int> Out(BS * Blocks);
  kernel(
      [](vector_view<int> Out) {
        SUITE_TWO_TILES(int, BS, A, B);
        unsigned Th = Thread::get().index.x, Bl = Block::get().index.x;
        A[Th] = int(Bl * 1000 + Th) * 10;
        B[Th] = 1;
        Block::get().synchronize();
        unsigned N = (Th + 1) % BS;
        Out[Bl * BS + Th] = A[N] + B[N];
      },
      Blocks, BS)(Out);
  unsigned Wrong = 0;
  for (unsigned Bl = 0; Bl < Blocks; ++Bl)
    for (unsigned Th = 0; Th < BS; ++Th) {
      unsigned N = (Th + 1) % BS;
      Wrong += Out[Bl * BS + Th] != int(Bl * 1000 + N) * 10 + 1;
    }
  if (Wrong)
    std::printf("FAIL %s: two arrays of one macro: %u of %u wrong\n", Name,
                Wrong, BS * Blocks);
  return Wrong != 0;
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  int Failed = stencil(100, 77) + stencil(256, 256) + twoArrays() +
               withDynamic() + oneMacro();
  if (!Failed)
    std::printf("PASS %s\n", Name);
  return Failed ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
