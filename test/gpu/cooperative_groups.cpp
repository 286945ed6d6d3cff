//===- cooperative_groups.cpp - GPU suite: tiles against a CPU model -------===//
//
// 6 blocks of 16 x 8 threads (a two-dimensional block, so that thread_rank()
// must linearize x fastest, as the GPU forms warps). For tiles of 1, 2, 4, 8,
// 16 and 32 threads, each thread records what each tile operation gave it,
// and the CPU checks it against a model of CUDA's semantics:
// - a shfl_down reduction (rank 0 holds the tile's sum; the model follows
//   every lane, including those whose source lies past the tile and who add
//   their own value);
// - shfl_up by 1 (rank 0 keeps its own), shfl from rank 5 * rank + 3 (taken
//   modulo the tile size), shfl_xor with size - 1 (the tile reversed);
// - ballot (bit i for rank i), any and all;
// - sync(): each thread stores to shared memory, the tile synchronizes, and
//   each thread reads its right-hand neighbour's store (cyclically);
// - thread_rank, meta_group_rank and meta_group_size; and for the block,
//   thread_rank against the thread index, and size.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <vector>

namespace {

constexpr const char *Name = "cooperative_groups";
constexpr unsigned Blocks = 6, BX = 16, BY = 8, BlockSize = BX * BY;
constexpr unsigned TileSizes[] = {1, 2, 4, 8, 16, 32};
constexpr unsigned NumSizes = 6;
enum {
  FReduce,
  FUp,
  FIdx,
  FXor,
  FBallot,
  FVote,
  FNeighbour,
  FRank,
  FMetaRank,
  FMetaSize,
  TileFields
};
// Per thread: TileFields for each tile size, then the block's fields.
enum { BRank = NumSizes * TileFields, BThreadX, BThreadY, BSize, Fields };
constexpr int Poison = -12345678;

// The value each thread shuffles: distinct, and known to the CPU.
int valueOf(unsigned Block, unsigned Rank) {
  return int((Block * BlockSize + Rank) * 7 + 3);
}

// Records the tile operations of tiles of N threads, in slot K's fields.
template <unsigned N, class View>
void tileOps(const mstage::cg::thread_block &Block, unsigned K, View &Out,
             int *Shared) {
  namespace cg = mstage::cg;
  unsigned Rank = Block.thread_rank();
  unsigned B = Block.group_index().x;
  auto Tile = cg::tiled_partition<N>(Block);
  int X = valueOf(B, Rank);
  int *R = &Out[(B * BlockSize + Rank) * Fields + K * TileFields];
  int Sum = X;
  for (unsigned D = N / 2; D > 0; D /= 2)
    Sum += Tile.shfl_down(Sum, D);
  R[FReduce] = Sum;
  R[FUp] = Tile.shfl_up(X, 1);
  R[FIdx] = Tile.shfl(X, int(Tile.thread_rank() * 5 + 3));
  R[FXor] = Tile.shfl_xor(X, int(N - 1));
  R[FBallot] = int(Tile.ballot(X % 3 == 0));
  R[FVote] = int(Tile.any(X % 7 == 0)) + 2 * int(Tile.all(X % 5 != 0));
  Shared[Rank] = X;
  Tile.sync();
  unsigned First = Rank - Tile.thread_rank();
  R[FNeighbour] = Shared[First + (Tile.thread_rank() + 1) % N];
  R[FRank] = int(Tile.thread_rank());
  R[FMetaRank] = int(Tile.meta_group_rank());
  R[FMetaSize] = int(Tile.meta_group_size());
  Block.sync(); // before the next tile size reuses Shared
}

// The CPU model of one block's tile operations for tiles of N threads.
void modelTiles(unsigned B, unsigned N, unsigned K, std::vector<int> &Want) {
  std::vector<int> X(BlockSize), Sum(BlockSize);
  for (unsigned R = 0; R < BlockSize; ++R)
    X[R] = Sum[R] = valueOf(B, R);
  for (unsigned D = N / 2; D > 0; D /= 2) {
    std::vector<int> Next(BlockSize);
    for (unsigned R = 0; R < BlockSize; ++R) // past the tile: its own value
      Next[R] = Sum[R] + (R % N + D < N ? Sum[R + D] : Sum[R]);
    Sum = Next;
  }
  for (unsigned R = 0; R < BlockSize; ++R) {
    unsigned T = R % N, First = R - T;
    int *W = &Want[(B * BlockSize + R) * Fields + K * TileFields];
    W[FReduce] = Sum[R];
    W[FUp] = T >= 1 ? X[R - 1] : X[R];
    W[FIdx] = X[First + (T * 5 + 3) % N];
    W[FXor] = X[First + (T ^ (N - 1))];
    unsigned Ballot = 0;
    bool Any = false, All = true;
    for (unsigned I = 0; I < N; ++I) {
      Ballot |= unsigned(X[First + I] % 3 == 0) << I;
      Any = Any || X[First + I] % 7 == 0;
      All = All && X[First + I] % 5 != 0;
    }
    W[FBallot] = int(Ballot);
    W[FVote] = int(Any) + 2 * int(All);
    W[FNeighbour] = X[First + (T + 1) % N];
    W[FRank] = int(T);
    W[FMetaRank] = int(R / N);
    W[FMetaSize] = int(BlockSize / N);
  }
}

const char *fieldName(unsigned F) {
  static const char *Names[] = {
      "shfl_down reduction", "shfl_up", "shfl", "shfl_xor", "ballot",
      "any/all", "sync (neighbour's store)", "thread_rank", "meta_group_rank",
      "meta_group_size"};
  if (F < BRank)
    return Names[F % TileFields];
  static const char *BlockNames[] = {"block thread_rank", "thread_index.x",
                                     "thread_index.y", "block size"};
  return BlockNames[F - BRank];
}

int run() {
  std::vector<int> Out(Blocks * BlockSize * Fields, Poison);
  mstage::kernel(
      [](auto &Out) {
        namespace cg = mstage::cg;
        auto Block = cg::this_thread_block();
        mstage::shared_memory<int> Shared;
        tileOps<1>(Block, 0, Out, Shared.data());
        tileOps<2>(Block, 1, Out, Shared.data());
        tileOps<4>(Block, 2, Out, Shared.data());
        tileOps<8>(Block, 3, Out, Shared.data());
        tileOps<16>(Block, 4, Out, Shared.data());
        tileOps<32>(Block, 5, Out, Shared.data());
        unsigned Rank = Block.thread_rank();
        int *R = &Out[(Block.group_index().x * BlockSize + Rank) * Fields];
        R[BRank] = int(Rank);
        R[BThreadX] = int(Block.thread_index().x);
        R[BThreadY] = int(Block.thread_index().y);
        R[BSize] = int(Block.size());
      },
      Blocks, mstage::dim3(BX, BY), BlockSize * sizeof(int))(Out);
  if (skipWithoutGpu(Name))
    return 0;

  std::vector<int> Want(Out.size());
  for (unsigned B = 0; B < Blocks; ++B) {
    for (unsigned K = 0; K < NumSizes; ++K)
      modelTiles(B, TileSizes[K], K, Want);
    for (unsigned R = 0; R < BlockSize; ++R) {
      int *W = &Want[(B * BlockSize + R) * Fields];
      W[BRank] = int(R);
      W[BThreadX] = int(R % BX); // x fastest
      W[BThreadY] = int(R / BX);
      W[BSize] = int(BlockSize);
    }
  }
  for (size_t I = 0; I < Out.size(); ++I)
    if (Out[I] != Want[I]) {
      unsigned F = unsigned(I % Fields), T = unsigned(I / Fields);
      if (F < BRank)
        std::printf("FAIL %s: block %u, thread rank %u, %s of tiles of %u: "
                    "got %d, expected %d\n",
                    Name, T / BlockSize, T % BlockSize, fieldName(F),
                    TileSizes[F / TileFields], Out[I], Want[I]);
      else
        std::printf("FAIL %s: block %u, thread rank %u, %s: got %d, "
                    "expected %d\n",
                    Name, T / BlockSize, T % BlockSize, fieldName(F), Out[I],
                    Want[I]);
      return 1;
    }
  std::printf("PASS %s: tiles of 1 to 32 threads in %u blocks of %ux%u: "
              "shuffles, votes, sync and ranks as CUDA defines them\n",
              Name, Blocks, BX, BY);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
