// Issue 37's pipelined copy to shared memory: each block streams its tiles
// of 4096 unsigneds (16 KiB) through shared memory and adds a polynomial of
// each element (12 multiply-adds, exact in unsigned arithmetic), in two
// versions with the same shared memory (two tiles' worth) and grid:
//   sync_copy     each tile is loaded with 16-byte loads and stores, then
//                 the block waits at a barrier, then computes;
//   memcpy_async  tile k + 1 is copied with cg::memcpy_async (cp.async on
//                 sm_80 and later) while tile k is computed, and
//                 cg::wait_prior<1> waits only for tile k.
// The grid is two blocks of 256 threads per multiprocessor, so that few warps
// hide the loads' latency, which the pipeline overlaps with the arithmetic.
//
//   mstage_async_copy [--reps R] [--n N]   (N elements, rounded down to
//                                            whole tiles of every block)
//
// Prints a CSV row per version, async_copy,mstage-VERSION,...; both are
// checked against the host's sums first. Runs on the CPU back end too, with
// a small --n, to show it is right.
#include "PortsMstage.h"

#include <string>

using namespace mstage;
using namespace ports;

namespace {

constexpr unsigned TileElems = 4096, BlockSize = 256, Terms = 12;
constexpr std::size_t TileBytes = TileElems * sizeof(unsigned);

inline unsigned poly(unsigned X) {
  unsigned Y = X;
  for (unsigned J = 0; J < Terms; ++J)
    Y = Y * X + 0x9e3779b9u + J;
  return Y;
}

auto asyncCopyKernel() {
  return [](vector_view<const unsigned> In, vector_view<unsigned> Out,
            unsigned TilesPerBlock) {
    shared_array<uint4, 2 * TileElems / 4> Buffer;
    unsigned *Buf = reinterpret_cast<unsigned *>(Buffer.data());
    auto Block = cg::this_thread_block();
    unsigned R = Block.thread_rank();
    std::size_t First =
        std::size_t(Block.group_index().x) * TilesPerBlock * TileElems;
    unsigned Acc = 0;
    cg::memcpy_async(Block, Buf, &In[First], TileBytes);
    for (unsigned K = 0; K < TilesPerBlock; ++K) {
      if (K + 1 < TilesPerBlock) {
        cg::memcpy_async(Block, Buf + (K + 1) % 2 * TileElems,
                         &In[First + std::size_t(K + 1) * TileElems],
                         TileBytes);
        cg::wait_prior<1>(Block);
      } else {
        cg::wait(Block);
      }
      const unsigned *Tile = Buf + K % 2 * TileElems;
      for (unsigned I = R; I < TileElems; I += BlockSize)
        Acc += poly(Tile[I]);
      Block.sync(); // before the next copy overwrites this tile
    }
    Out[Block.group_index().x * BlockSize + R] = Acc;
  };
}

auto syncCopyKernel() {
  return [](vector_view<const unsigned> In, vector_view<unsigned> Out,
            unsigned TilesPerBlock) {
    shared_array<uint4, 2 * TileElems / 4> Buffer;
    auto Block = cg::this_thread_block();
    unsigned R = Block.thread_rank();
    std::size_t First =
        std::size_t(Block.group_index().x) * TilesPerBlock * TileElems;
    unsigned Acc = 0;
    for (unsigned K = 0; K < TilesPerBlock; ++K) {
      const uint4 *Src = reinterpret_cast<const uint4 *>(
          &In[First + std::size_t(K) * TileElems]);
      for (unsigned I = R; I < TileElems / 4; I += BlockSize)
        Buffer[I] = Src[I];
      Block.sync();
      const unsigned *Tile = reinterpret_cast<unsigned *>(Buffer.data());
      for (unsigned I = R; I < TileElems; I += BlockSize)
        Acc += poly(Tile[I]);
      Block.sync(); // before the next tile overwrites this one
    }
    Out[Block.group_index().x * BlockSize + R] = Acc;
  };
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_async_copy [--reps R] [--n N]");
  const bool Runs = requireExecution("mstage_async_copy");
  const unsigned Grid =
      2 * std::max(1u, unsigned(device::current().multiprocessors()));
  const std::size_t Wanted = O.N ? O.N : (std::size_t(1) << 26);
  const unsigned TilesPerBlock = unsigned(
      std::max<std::size_t>(1, Wanted / (std::size_t(Grid) * TileElems)));
  const std::size_t N = std::size_t(Grid) * TilesPerBlock * TileElems;

  std::vector<unsigned> In(N);
  for (std::size_t I = 0; I < N; ++I)
    In[I] = mix(I);
  std::vector<unsigned> Want(std::size_t(Grid) * BlockSize, 0);
  for (unsigned B = 0; B < Grid; ++B)
    for (unsigned K = 0; K < TilesPerBlock; ++K)
      for (unsigned I = 0; I < TileElems; ++I)
        Want[B * BlockSize + I % BlockSize] +=
            poly(In[(std::size_t(B) * TilesPerBlock + K) * TileElems + I]);

  const device_vector<unsigned> DIn(In);
  device_vector<unsigned> DOut(Want.size());
  printHeader();
  auto bench = [&](const char *Version, auto Lambda) {
    auto K = kernel(Lambda, Grid, BlockSize);
    DOut.fill(0u);
    if (!Runs)
      return K(DIn, DOut, TilesPerBlock);
    std::vector<double> Ms = timeLaunches(
        O.Reps, [&] { return timedLaunch(K, DIn, DOut, TilesPerBlock); });
    if (DOut.download() != Want)
      fail(std::string("async_copy: ") + Version +
           " differs from the host's sums");
    printRow("async_copy", std::string("mstage-") + Version, N, BlockSize, Grid,
             median(Ms), minimum(Ms), double(N * sizeof(unsigned)));
  };
  bench("sync_copy", syncCopyKernel());
  bench("memcpy_async", asyncCopyKernel());
  return 0;
}
