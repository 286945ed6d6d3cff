// Issue 37's tensor-core GEMM on sm_90's warpgroup MMA: C = A * B with half
// inputs and float accumulation and output, A row major (M x K), B column
// major (K x N, each column's K elements contiguous), C row major, through
// mstage::wgmma (wgmma.mma_async from shared memory), against
// bench/cuda/hgemm_baseline.cu (cuBLAS's cublasGemmEx on the same layouts).
//
// A block of two warpgroups (256 threads) computes a 128 x 256 tile of C,
// each warpgroup 64 x 256 (one m64n256k16 accumulator, 128 floats a
// thread), over K in steps of 64: the block's A slice (128 x 64) and B
// slice (256 x 64) go to shared memory in wgmma's 128-byte swizzled layout,
// four stages deep, each thread copying 16-byte chunks with cp.async
// (mstage::pipeline_memcpy_async); a step's products stay in flight while
// the next step waits for its slices, which load two steps ahead.
//
//   mstage_wgmma_gemm [--reps R] [--n N]   (M = N = K = N, a multiple of
//                                            256; default 4096)
//
// Prints CSV rows wgmma_gemm,mstage,... (the tiling above) and two others
// for comparison (mstage-wait0, mstage-n128); each result is checked first
// against the host's GEMM (HgemmCheck.h). Needs an sm_90 GPU (H100, H200);
// runs on the CPU back end too, with a small --n, to show it is right.
#include "HgemmCheck.h"
#include "PortsMstage.h"

#include <cstdint>

using namespace mstage;
using namespace ports;

namespace {

constexpr unsigned BM = 128, BK = wgmma::tile_k;
constexpr unsigned Threads = 256; // two warpgroups, 64 rows of C each

// A block's tile is BM x BN, its slices go through Stages buffers; with
// Overlap a step's products run on while the next step waits for its
// slices (one wgmma group in flight, loads Stages - 2 steps ahead), else
// every step waits for its own (loads Stages - 1 steps ahead).
template <unsigned BN, unsigned Stages, bool Overlap> struct Tiling {
  static constexpr unsigned ATile = BM * BK, BTile = BN * BK; // halves
  static constexpr unsigned StageHalves = ATile + BTile;
  static constexpr unsigned Chunks = (BM + BN) * BK / 8; // of 16 bytes
  static_assert(Chunks % Threads == 0, "each thread copies as many chunks");
  static constexpr unsigned Ahead = Overlap ? Stages - 2 : Stages - 1;
  static_assert(Ahead >= 1, "a step loads ahead");
  // The stages, and room to start them 1024-byte aligned: over the 48 KiB
  // of static shared memory, so dynamic.
  static constexpr unsigned SharedBytes =
      Stages * StageHalves * 2 + wgmma::tile_alignment;
};

template <unsigned BN, unsigned Stages, bool Overlap> auto gemmKernel() {
  using T = Tiling<BN, Stages, Overlap>;
  return [](vector_view<const half> A, vector_view<const half> B,
            vector_view<float> C, unsigned N) {
    // The stages, in the launch's dynamic shared memory (SharedBytes).
    char *Raw = dynamic_shared<char>().data();
    half *Tiles =
        reinterpret_cast<half *>(Raw + (-reinterpret_cast<std::uintptr_t>(Raw) &
                                        (wgmma::tile_alignment - 1)));
    unsigned Tid = Thread::get().index.x, Group = Tid / 128;
    unsigned Row0 = Block::get().index.y * BM, Col0 = Block::get().index.x * BN;

    // Stage S gets the slices at K0: row R of A's (R < BM) or B's, chunk
    // Part of the row's eight, each to its swizzled place.
    auto load = [&](unsigned S, unsigned K0) {
      half *Stage = Tiles + S * T::StageHalves;
#pragma unroll
      for (unsigned I = 0; I < T::Chunks / Threads; ++I) {
        unsigned Chunk = Tid + I * Threads, R = Chunk / 8, Part = Chunk % 8;
        bool IsB = R >= BM;
        unsigned Line = IsB ? R - BM : R;
        const half *Src =
            IsB ? &B[std::size_t(Col0 + Line) * N + K0 + Part * 8]
                : &A[std::size_t(Row0 + Line) * N + K0 + Part * 8];
        pipeline_memcpy_async<16>(Stage + (IsB ? T::ATile : 0) +
                                      wgmma::swizzled_offset(Line, Part * 8),
                                  Src);
      }
      pipeline_commit();
    };

    wgmma::accumulator<BN> Acc;
    unsigned Steps = N / BK;
    for (unsigned S = 0; S < T::Ahead; ++S)
      if (S < Steps)
        load(S, S * BK);
      else
        pipeline_commit(); // an empty batch keeps the count
    for (unsigned Step = 0; Step < Steps; ++Step) {
      pipeline_wait_prior<T::Ahead - 1>();
      wgmma::fence_shared_writes();
      Block::get().synchronize();
      const half *Stage = Tiles + (Step % Stages) * T::StageHalves;
      const half *As = Stage + Group * 64 * BK, *Bs = Stage + T::ATile;
      wgmma::fence(Acc);
#pragma unroll
      for (unsigned K = 0; K < BK; K += wgmma::mma_k)
        wgmma::mma_async(Acc, As + K, Bs + K);
      wgmma::commit_group();
      // Into the stage that step Step + Ahead - Stages used: every
      // warpgroup waited for its products before the barrier above.
      unsigned Next = Step + T::Ahead;
      if (Next < Steps)
        load(Next % Stages, Next * BK);
      else
        pipeline_commit();
      if constexpr (Overlap)
        wgmma::wait<1>(Acc);
      else
        wgmma::wait<0>(Acc);
    }
    wgmma::wait<0>(Acc);

    unsigned Thread = Tid % 128;
    float *Out = &C[std::size_t(Row0 + Group * 64) * N + Col0];
#pragma unroll
    for (unsigned I = 0; I < Acc.num_elements; I += 2)
      *reinterpret_cast<float2 *>(
          &Out[Acc.row(Thread, I) * N + Acc.col(Thread, I)]) =
          float2{Acc.x[I], Acc.x[I + 1]};
  };
}

// Times and checks one tiling; its row is wgmma_gemm,Variant.
template <unsigned BN, unsigned Stages, bool Overlap>
void run(const char *Variant, const Options &O, bool Runs, unsigned N,
         const HgemmInputs &In, const device_vector<half> &DA,
         const device_vector<half> &DB, device_vector<float> &DC) {
  using T = Tiling<BN, Stages, Overlap>;
  auto K = kernel(gemmKernel<BN, Stages, Overlap>(), dim3(N / BN, N / BM),
                  Threads, T::SharedBytes);
  if (!Runs)
    return K(DA, DB, DC, N);
  DC.fill(0.0f);
  std::vector<double> Ms =
      timeLaunches(O.Reps, [&] { return timedLaunch(K, DA, DB, DC, N); });
  In.check("wgmma_gemm", DC.download());
  printRow("wgmma_gemm", Variant, N, Threads, (N / BM) * (N / BN), median(Ms),
           minimum(Ms), 2.0 * double(N) * N * N / 1e3 /* TFLOP/s */);
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_wgmma_gemm [--reps R] [--n N]");
  const bool Runs = requireExecution("mstage_wgmma_gemm");
  const unsigned N = unsigned(O.N ? O.N : 4096);
  if (N == 0 || N % 256)
    fail("wgmma_gemm: n must be a multiple of 256");
  HgemmInputs In(N);
  const device_vector<half> DA(In.A), DB(In.B);
  device_vector<float> DC(In.A.size());
  printHeader();
  // The tiling of the target first; then, for comparison, the same tile
  // with every step waiting for its own products, and 128 x 128 tiles (two
  // blocks a multiprocessor). An H100 (docs/performance.md): 631, 616 and
  // 558 TFLOP/s, cuBLAS 754.
  run<256, 4, true>("mstage", O, Runs, N, In, DA, DB, DC);
  run<256, 4, false>("mstage-wait0", O, Runs, N, In, DA, DB, DC);
  run<128, 3, false>("mstage-n128", O, Runs, N, In, DA, DB, DC);
  return 0;
}
