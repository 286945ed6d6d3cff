// Issue 37's tensor-core GEMM: C = A * B with half inputs and float
// accumulation and output, A row major (M x K), B column major (K x N, each
// column's K elements contiguous), C row major, through mstage::wmma, against
// bench/cuda/hgemm_baseline.cu (cuBLAS's cublasGemmEx on the same layouts,
// half inputs, CUBLAS_COMPUTE_32F).
//
// A block of 8 warps computes a 128 x 128 tile of C, each warp 64 x 32 (4 x 2
// fragments), over K in steps of 32: the block's A and B slices go through
// shared memory (rows padded by 8 halves against bank conflicts), two buffers
// deep, each thread copying its 16-byte chunks with
// mstage::pipeline_memcpy_async (cp.async), so the next slice loads while the
// warps multiply this one.
//
//   mstage_wmma_gemm [--reps R] [--n N]   (M = N = K = N, a multiple of 128;
//                                            default 4096)
//
// Prints a CSV row, wmma_gemm,mstage,...; the result is checked first
// against the host's GEMM (HgemmCheck.h). Runs on the CPU back end too,
// with a small --n, to show it is right.
#include "HgemmCheck.h"
#include "PortsMstage.h"

using namespace mstage;
using namespace ports;

namespace {

constexpr unsigned BM = 128, BN = 128, BK = 32, Pad = 8, Ld = BK + Pad;
constexpr unsigned Warps = 8, Threads = Warps * 32;
constexpr unsigned WM = 64, WN = 32; // a warp's tile: 4 x 2 fragments

auto gemmKernel() {
  return [](vector_view<const half> A, vector_view<const half> B,
            vector_view<float> C, unsigned N) {
    namespace wmma = mstage::wmma;
    // Two buffers of the A slice (BM rows of BK) and the B slice (BN columns
    // of BK), each row padded to Ld halves; int4 for 16-byte alignment.
    shared_array<int4, 2 * (BM + BN) * Ld / 8> Smem;
    half *Tiles = reinterpret_cast<half *>(Smem.data());
    auto Slice = [&](unsigned Buf, bool IsB) {
      return Tiles + (Buf * (BM + BN) + (IsB ? BM : 0)) * Ld;
    };
    unsigned Tid = Thread::get().index.x, Warp = Tid / 32;
    unsigned Row0 = Block::get().index.y * BM, Col0 = Block::get().index.x * BN;
    unsigned WarpRow = (Warp / 4) * WM, WarpCol = (Warp % 4) * WN;

    // Each slice is (BM + BN) rows of BK halves: 4 chunks of 16 bytes a
    // row, 1024 chunks, 4 a thread.
    auto load = [&](unsigned Buf, unsigned K0) {
      for (unsigned Chunk = Tid; Chunk < (BM + BN) * 4; Chunk += Threads) {
        unsigned R = Chunk / 4, Part = Chunk % 4;
        bool IsB = R >= BM;
        unsigned Line = IsB ? R - BM : R;
        const half *Src =
            IsB ? &B[std::size_t(Col0 + Line) * N + K0 + Part * 8]
                : &A[std::size_t(Row0 + Line) * N + K0 + Part * 8];
        pipeline_memcpy_async<16>(Slice(Buf, IsB) + Line * Ld + Part * 8, Src);
      }
      pipeline_commit();
    };

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> Acc[4][2];
    for (auto &Row : Acc)
      for (auto &F : Row)
        wmma::fill_fragment(F, 0.0f);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> FA[4];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> FB[2];

    unsigned Steps = N / BK;
    load(0, 0);
    for (unsigned S = 0; S < Steps; ++S) {
      if (S + 1 < Steps) {
        load((S + 1) % 2, (S + 1) * BK);
        pipeline_wait_prior<1>();
      } else {
        pipeline_wait_prior<0>();
      }
      Block::get().synchronize();
      const half *As = Slice(S % 2, false), *Bs = Slice(S % 2, true);
      for (unsigned KK = 0; KK < BK; KK += 16) {
        for (unsigned I = 0; I < 4; ++I)
          wmma::load_matrix_sync(FA[I], As + (WarpRow + I * 16) * Ld + KK, Ld);
        for (unsigned J = 0; J < 2; ++J)
          wmma::load_matrix_sync(FB[J], Bs + (WarpCol + J * 16) * Ld + KK, Ld);
        for (unsigned I = 0; I < 4; ++I)
          for (unsigned J = 0; J < 2; ++J)
            wmma::mma_sync(Acc[I][J], FA[I], FB[J], Acc[I][J]);
      }
      Block::get().synchronize(); // before the next load overwrites it
    }
    for (unsigned I = 0; I < 4; ++I)
      for (unsigned J = 0; J < 2; ++J)
        wmma::store_matrix_sync(&C[std::size_t(Row0 + WarpRow + I * 16) * N +
                                   Col0 + WarpCol + J * 16],
                                Acc[I][J], N, wmma::mem_row_major);
  };
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_wmma_gemm [--reps R] [--n N]");
  const bool Runs = requireExecution("mstage_wmma_gemm");
  const unsigned N = unsigned(O.N ? O.N : 4096);
  if (N % BM)
    fail("wmma_gemm: n must be a multiple of 128");
  HgemmInputs In(N);
  const device_vector<half> DA(In.A), DB(In.B);
  device_vector<float> DC(In.A.size());
  auto K = kernel(gemmKernel(), dim3(N / BN, N / BM), Threads);
  printHeader();
  if (!Runs)
    return K(DA, DB, DC, N), 0;
  std::vector<double> Ms =
      timeLaunches(O.Reps, [&] { return timedLaunch(K, DA, DB, DC, N); });
  In.check("wmma_gemm", DC.download());
  printRow("wmma_gemm", "mstage", N, Threads, (N / BM) * (N / BN), median(Ms),
           minimum(Ms),
           2.0 * double(N) * N * N / 1e3 /* TFLOP/s in gbps' column */);
  return 0;
}
