//===- memcpy_async.cpp - GPU suite: copies to shared memory, async -------===//
//
// cg::memcpy_async against the host's memcpy, in its four chunk sizes: 16
// bytes (aligned source, destination and size), 8, 4, and bytes (an odd
// offset), by a block of 128 threads and by a tile of 32; each copy is waited
// for with cg::wait and read back by every thread of the group. Then a
// pipeline: each block sums 12 tiles of 1024 ints of its own with two
// buffers, copying tile k + 1 while it sums tile k (cg::wait_prior<1>),
// against the host's sum.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr const char *Name = "memcpy_async";
constexpr unsigned Blocks = 4, BlockSize = 128, SharedBytes = 8192;
struct Case {
  unsigned SrcOffset, DstOffset, Bytes;
};
constexpr Case Cases[] = {{0, 0, 8192}, {8, 24, 4096}, {4, 12, 1000},
                          {1, 3, 333},  {16, 0, 16},   {0, 0, 0}};
constexpr unsigned NumCases = sizeof(Cases) / sizeof(*Cases);
constexpr unsigned Tiles = 12, TileInts = 1024;

int run() {
  std::vector<unsigned char> In(Blocks * SharedBytes + 64);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = (unsigned char)(I * 131 + 7);
  // Per block, per case, per group kind: the shared memory after the copy.
  std::vector<unsigned char> Out(Blocks * NumCases * 2 * SharedBytes, 0xee);
  std::vector<unsigned char> Want(Out.size(), 0xee);
  for (unsigned B = 0; B < Blocks; ++B)
    for (unsigned C = 0; C < NumCases; ++C)
      for (unsigned G = 0; G < 2; ++G) {
        unsigned char *W = &Want[((B * NumCases + C) * 2 + G) * SharedBytes];
        std::memset(W, 0x5a, SharedBytes);
        std::memcpy(W + Cases[C].DstOffset,
                    &In[B * SharedBytes + Cases[C].SrcOffset], Cases[C].Bytes);
      }
  mstage::kernel(
      [](auto &In, auto &Out) {
        using namespace mstage;
        mstage::shared_array<int4, SharedBytes / 16> Tile;
        auto Block = cg::this_thread_block();
        auto Warp = cg::tiled_partition<32>(Block);
        unsigned B = Block.group_index().x, R = Block.thread_rank();
        auto *S = reinterpret_cast<unsigned char *>(Tile.data());
        for (unsigned C = 0; C < NumCases; ++C)
          for (unsigned G = 0; G < 2; ++G) {
            for (unsigned I = R; I < SharedBytes; I += BlockSize)
              S[I] = 0x5a;
            Block.sync();
            const unsigned char *Src = &In[B * SharedBytes + Cases[C].SrcOffset];
            if (G == 0) {
              cg::memcpy_async(Block, S + Cases[C].DstOffset, Src,
                               Cases[C].Bytes);
              cg::wait(Block);
            } else if (Warp.meta_group_rank() == 1) { // one warp copies
              cg::memcpy_async(Warp, S + Cases[C].DstOffset, Src,
                               Cases[C].Bytes);
              cg::wait(Warp);
            }
            Block.sync();
            unsigned char *O = &Out[((B * NumCases + C) * 2 + G) * SharedBytes];
            for (unsigned I = R; I < SharedBytes; I += BlockSize)
              O[I] = S[I];
            Block.sync();
          }
      },
      Blocks, BlockSize)(In, Out);
  for (size_t I = 0; I < Out.size(); ++I)
    if (Out[I] != Want[I]) {
      size_t Slot = I / SharedBytes;
      std::printf("FAIL %s: block %zu, case %zu, %s: byte %zu is %d, "
                  "expected %d\n",
                  Name, Slot / (NumCases * 2), Slot / 2 % NumCases,
                  Slot % 2 ? "a warp" : "the block", I % SharedBytes, Out[I],
                  Want[I]);
      return 1;
    }

  // The pipeline.
  std::vector<int> Data(Blocks * Tiles * TileInts);
  for (size_t I = 0; I < Data.size(); ++I)
    Data[I] = int(I % 1000) - 300;
  std::vector<long long> Sums(Blocks * BlockSize);
  mstage::kernel(
      [](auto &Data, auto &Sums) {
        using namespace mstage;
        // int4: 16-byte aligned, so that the copies are of 16 bytes.
        mstage::shared_array<int4, 2 * TileInts / 4> Buffer;
        int *Buf = reinterpret_cast<int *>(Buffer.data());
        auto Block = cg::this_thread_block();
        unsigned B = Block.group_index().x, R = Block.thread_rank();
        const int *Mine = &Data[B * Tiles * TileInts];
        long long Sum = 0;
        cg::memcpy_async(Block, Buf, Mine, TileInts * sizeof(int));
        for (unsigned K = 0; K < Tiles; ++K) {
          if (K + 1 < Tiles) {
            cg::memcpy_async(Block, Buf + (K + 1) % 2 * TileInts,
                             Mine + (K + 1) * TileInts, TileInts * sizeof(int));
            cg::wait_prior<1>(Block);
          } else {
            cg::wait(Block);
          }
          for (unsigned I = R; I < TileInts; I += BlockSize)
            Sum += Buf[K % 2 * TileInts + I] * (long long)(K + 1);
          Block.sync(); // before the next copy overwrites this buffer
        }
        Sums[B * BlockSize + R] = Sum;
      },
      Blocks, BlockSize)(Data, Sums);
  for (unsigned B = 0; B < Blocks; ++B)
    for (unsigned R = 0; R < BlockSize; ++R) {
      long long Sum = 0;
      for (unsigned K = 0; K < Tiles; ++K)
        for (unsigned I = R; I < TileInts; I += BlockSize)
          Sum += Data[(B * Tiles + K) * TileInts + I] * (long long)(K + 1);
      if (Sums[B * BlockSize + R] != Sum) {
        std::printf("FAIL %s: pipeline, block %u, thread %u: %lld, expected "
                    "%lld\n",
                    Name, B, R, Sums[B * BlockSize + R], Sum);
        return 1;
      }
    }
  std::printf("PASS %s\n", Name);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
