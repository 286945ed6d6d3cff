// Indices and shared memory on the CPU back end:
//  - a 3D grid of 3D blocks: every thread records its thread, block, block
//    extent and grid extent indices and its lane; each is checked (x fastest,
//    then y, then z, as CUDA numbers threads);
//  - dynamic shared memory is per block, even with blocks running at once
//    on 4 OS threads: each block fills its shared memory with its own id,
//    synchronizes, and checks that nothing else wrote there; the base is 16
//    byte aligned and dynamic_shared_size() is the launch's shared_bytes.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t | FileCheck %s

#include <mstage.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

using namespace mstage;

constexpr unsigned Fields = 14;

int main() {
  dim3 G(3, 2, 4), B(5, 3, 2);
  unsigned BS = B.x * B.y * B.z, NB = G.x * G.y * G.z;
  std::vector<unsigned> Out(BS * NB * Fields);
  kernel(
      [](auto &Out) {
        auto T = Thread::get();
        auto Bl = Block::get();
        auto Gr = Grid::get();
        unsigned BlockId =
            (Bl.index.z * Gr.range.y + Bl.index.y) * Gr.range.x + Bl.index.x;
        unsigned L =
            (T.index.z * Bl.range.y + T.index.y) * Bl.range.x + T.index.x;
        unsigned *R = &Out[(BlockId * 30 + L) * Fields];
        unsigned V[Fields] = {T.index.x,   T.index.y,   T.index.z,
                              Bl.index.x,  Bl.index.y,  Bl.index.z,
                              Bl.range.x,  Bl.range.y,  Bl.range.z,
                              Gr.range.x,  Gr.range.y,  Gr.range.z,
                              warp::lane_id(), T.global.y};
        for (unsigned F = 0; F < Fields; ++F)
          R[F] = V[F];
      },
      G, B)(Out);
  unsigned Bad = 0, I = 0;
  for (unsigned BZ = 0; BZ < G.z; ++BZ)
    for (unsigned BY = 0; BY < G.y; ++BY)
      for (unsigned BX = 0; BX < G.x; ++BX)
        for (unsigned TZ = 0; TZ < B.z; ++TZ)
          for (unsigned TY = 0; TY < B.y; ++TY)
            for (unsigned TX = 0; TX < B.x; ++TX, ++I) {
              unsigned Want[Fields] = {TX,  TY,  TZ,  BX,  BY,  BZ,
                                       B.x, B.y, B.z, G.x, G.y, G.z,
                                       (I % BS) % 32, BY * B.y + TY};
              for (unsigned F = 0; F < Fields; ++F)
                if (Out[I * Fields + F] != Want[F] && Bad++ < 10)
                  std::printf("FAIL thread %u field %u: %u, expected %u\n", I,
                              F, Out[I * Fields + F], Want[F]);
            }
  std::printf("indices: %u threads, %u wrong\n", I, Bad);

  // Shared memory isolation: 400 blocks of 64 threads, 1000 bytes each.
  constexpr unsigned Blocks = 400, Threads = 64, Bytes = 1000;
  std::vector<unsigned> Seen(Blocks * Threads, 0);
  kernel(
      [](auto &Seen) {
        unsigned B = Block::get().index.x, T = Thread::get().index.x;
        auto Sm = dynamic_shared<unsigned>();
        for (unsigned I = T; I < Sm.size(); I += Block::get().range.x)
          Sm[I] = B;
        Block::get().synchronize();
        unsigned Foreign = 0;
        for (unsigned I = 0; I < Sm.size(); ++I)
          Foreign += Sm[I] != B;
        bool Aligned = reinterpret_cast<std::uintptr_t>(Sm.data()) % 16 == 0;
        Seen[Thread::get().global.x] =
            Foreign == 0 && Aligned && dynamic_shared_size() == Bytes ? 1 : 2;
      },
      Blocks, Threads, Bytes)(Seen);
  unsigned Wrong = 0;
  for (unsigned S : Seen)
    Wrong += S != 1;
  std::printf("shared: %u blocks, %u threads saw foreign, misaligned or "
              "missized shared memory\n",
              Blocks, Wrong);
  std::printf("%s\n", Bad || Wrong ? "FAIL" : "PASS");
  return Bad || Wrong;
}

// CHECK: indices: 720 threads, 0 wrong
// CHECK: shared: 400 blocks, 0 threads saw foreign, misaligned or missized shared memory
// CHECK: PASS
