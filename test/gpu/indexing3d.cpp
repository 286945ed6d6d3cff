//===- indexing3d.cpp - GPU suite: every index of a 3-D launch ------------===//
//
// Each thread records what it sees (global index, block index, thread index,
// grid range, block range) in the element of a 3-D array that its global
// index names. The CPU computes the same records, and every element is
// compared. The kernel is launched with 3-D extents, with plain integers, and
// with a mix of the two.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <random>
#include <vector>

namespace {

constexpr const char *Name = "indexing3d";

// What one thread saw. Fields are x, y, z triples.
struct Code {
  unsigned Global[3];
  unsigned BlockIndex[3];
  unsigned ThreadIndex[3];
  unsigned GridRange[3];
  unsigned BlockRange[3];
};

constexpr const char *FieldNames[] = {"global", "block index", "thread index",
                                      "grid range", "block range"};
constexpr unsigned NumFields = sizeof(Code) / sizeof(unsigned);
static_assert(NumFields == 15, "Code must be 15 unsigned values");

unsigned field(const Code &C, unsigned F) {
  const unsigned *Fields[] = {C.Global, C.BlockIndex, C.ThreadIndex,
                              C.GridRange, C.BlockRange};
  return Fields[F / 3][F % 3];
}

// A poison record: random but non-zero, so that an element no thread wrote is
// caught and cannot match by luck.
Code poison(std::mt19937 &Gen) {
  std::uniform_int_distribution<unsigned> Dist(0x10000000u, 0xFFFFFFFFu);
  Code C;
  for (unsigned &V : C.Global)
    V = Dist(Gen);
  for (unsigned &V : C.BlockIndex)
    V = Dist(Gen);
  for (unsigned &V : C.ThreadIndex)
    V = Dist(Gen);
  for (unsigned &V : C.GridRange)
    V = Dist(Gen);
  for (unsigned &V : C.BlockRange)
    V = Dist(Gen);
  return C;
}

// The records a launch of Grid blocks of Block threads must produce, indexed
// as the kernel indexes them: x fastest, then y, then z.
std::vector<Code> expected(mstage::dim3 Grid, mstage::dim3 Block) {
  std::size_t NX = std::size_t(Grid.x) * Block.x;
  std::size_t NY = std::size_t(Grid.y) * Block.y;
  std::size_t NZ = std::size_t(Grid.z) * Block.z;
  std::vector<Code> Ref(NX * NY * NZ);
  for (unsigned BZ = 0; BZ < Grid.z; ++BZ)
    for (unsigned BY = 0; BY < Grid.y; ++BY)
      for (unsigned BX = 0; BX < Grid.x; ++BX)
        for (unsigned TZ = 0; TZ < Block.z; ++TZ)
          for (unsigned TY = 0; TY < Block.y; ++TY)
            for (unsigned TX = 0; TX < Block.x; ++TX) {
              unsigned GX = BX * Block.x + TX;
              unsigned GY = BY * Block.y + TY;
              unsigned GZ = BZ * Block.z + TZ;
              Ref[GX + NX * (GY + NY * GZ)] = Code{{GX, GY, GZ},
                                                   {BX, BY, BZ},
                                                   {TX, TY, TZ},
                                                   {Grid.x, Grid.y, Grid.z},
                                                   {Block.x, Block.y, Block.z}};
            }
  return Ref;
}

// Launches Body on Grid x Block and checks every record. Returns 0 (passed or
// not checked) or 1 (failed, after printing FAIL).
template <class Body>
int launchAndCheck(const char *How, Body B, mstage::dim3 Grid,
                   mstage::dim3 Block, bool Executes, std::mt19937 &Gen,
                   std::size_t &Checked) {
  std::vector<Code> Ref = expected(Grid, Block);
  std::vector<Code> Out(Ref.size(), poison(Gen));
  mstage::kernel(B, Grid, Block)(Out);
  if (!Executes)
    return 0;

  std::size_t NX = std::size_t(Grid.x) * Block.x;
  std::size_t NY = std::size_t(Grid.y) * Block.y;
  for (std::size_t I = 0; I < Ref.size(); ++I)
    for (unsigned F = 0; F < NumFields; ++F) {
      unsigned Got = field(Out[I], F), Want = field(Ref[I], F);
      if (Got == Want)
        continue;
      std::printf("FAIL %s: %s launch, grid {%u,%u,%u} block {%u,%u,%u}: "
                  "out[%zu] (x=%zu y=%zu z=%zu) %s.%c = %u, expected %u\n",
                  Name, How, Grid.x, Grid.y, Grid.z, Block.x, Block.y, Block.z,
                  I, I % NX, I / NX % NY, I / NX / NY, FieldNames[F / 3],
                  "xyz"[F % 3], Got, Want);
      return 1;
    }
  Checked += Ref.size();
  return 0;
}

int run() {
  int Executes = mstage_rt_executes();
  if (Executes < 0) {
    std::printf("FAIL %s: no backend: %s\n", Name, mstage_rt_last_error());
    return 1;
  }

  auto Body = [](auto &Out) {
    auto T = mstage::Thread::get();
    auto B = mstage::Block::get();
    auto G = mstage::Grid::get();
    std::size_t NX = std::size_t(G.range.x) * B.range.x;
    std::size_t NY = std::size_t(G.range.y) * B.range.y;
    std::size_t I = T.global.x + NX * (T.global.y + NY * T.global.z);
    if (I >= Out.size())
      return;
    Code &C = Out[I];
    C.Global[0] = T.global.x;
    C.Global[1] = T.global.y;
    C.Global[2] = T.global.z;
    C.BlockIndex[0] = B.index.x;
    C.BlockIndex[1] = B.index.y;
    C.BlockIndex[2] = B.index.z;
    C.ThreadIndex[0] = T.index.x;
    C.ThreadIndex[1] = T.index.y;
    C.ThreadIndex[2] = T.index.z;
    C.GridRange[0] = G.range.x;
    C.GridRange[1] = G.range.y;
    C.GridRange[2] = G.range.z;
    C.BlockRange[0] = B.range.x;
    C.BlockRange[1] = B.range.y;
    C.BlockRange[2] = B.range.z;
  };

  std::mt19937 Gen(3141592);
  std::size_t Checked = 0;
  bool Runs = Executes == 1;
  // A 3-D grid of 3-D blocks; plain integers (a 1-D launch); a 3-D grid with
  // a y extent of one and an integer block.
  if (launchAndCheck("3-D", Body, {5, 7, 3}, {8, 4, 2}, Runs, Gen, Checked) ||
      launchAndCheck("integer", Body, 37, 96, Runs, Gen, Checked) ||
      launchAndCheck("mixed", Body, {6, 1, 4}, 64, Runs, Gen, Checked))
    return 1;

  if (Executes == 0) {
    std::printf("SKIP %s: PTX-only mode, result not checked\n", Name);
    return 0;
  }
  std::printf("PASS %s: 3 launches, %zu records of %u fields checked\n", Name,
              Checked, NumFields);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
