// cuBLAS's side of issue 37's tensor-core GEMM (bench/mstage_wmma_gemm.cpp):
// C = A * B with half inputs and float accumulation and output, A row major
// (M x K), B column major (K x N), C row major, M = N = K = n. In cuBLAS's
// column-major terms that is C^T = B^T A^T: cublasGemmEx(OP_T, OP_N) on B
// (K x N, ld K) and A (as K x M, ld K) into C^T (N x M, ld N), half inputs,
// CUBLAS_COMPUTE_32F, the default algorithm (tensor cores).
//
//   hgemm_baseline [--reps R] [--n N]   (default 4096)
//
// Prints a CSV row, wmma_gemm,cublas,...; the gbps column holds TFLOP/s. The
// result is checked first against the host's GEMM in double on 512 sampled
// elements (the same inputs as mstage's).
#include "../PortsReference.h"
#include "BenchTiming.cuh"

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cmath>
#include <string>

using namespace ports;

int main(int argc, char **argv) {
  Options O = parseOptions(argc, argv, "hgemm_baseline [--reps R] [--n N]");
  const int n = int(O.N ? O.N : 4096);
  const size_t nn = size_t(n) * n;
  std::vector<__half> a(nn), b(nn);
  std::vector<float> fa(nn), fb(nn);
  for (size_t i = 0; i < nn; ++i) {
    fa[i] = float(int(mix(i) % 128) - 64) / 64.0f;
    fb[i] = float(int(mix(i + nn) % 128) - 64) / 64.0f;
    a[i] = __float2half(fa[i]);
    b[i] = __float2half(fb[i]);
  }
  __half *da = deviceCopy(a), *db = deviceCopy(b);
  float *dc;
  CUDA_CHECK(cudaMalloc(&dc, nn * sizeof(float)));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    fail("hgemm: cublasCreate");
  const float alpha = 1.0f, beta = 0.0f;
  auto launch = [&] {
    cublasStatus_t s =
        cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &alpha, db,
                     CUDA_R_16F, n, da, CUDA_R_16F, n, &beta, dc, CUDA_R_32F, n,
                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS)
      fail("hgemm: cublasGemmEx failed with " + std::to_string(int(s)));
  };
  auto check = [&] {
    std::vector<float> c(nn);
    download(c, dc);
    for (size_t s = 0; s < 512; ++s) {
      size_t e = mix(s + 7) % nn, r = e / n, col = e % n;
      double want = 0;
      for (int j = 0; j < n; ++j)
        want += double(fa[r * n + j]) * double(fb[col * n + j]);
      if (std::fabs(c[e] - want) > 1e-3 * (std::fabs(want) + 1.0))
        fail("hgemm: C(" + std::to_string(r) + ", " + std::to_string(col) +
             ") is " + std::to_string(c[e]) + ", the host's " +
             std::to_string(want));
    }
  };
  Timing t = timeLaunches(O.Reps, launch, check);
  printHeader();
  printRow("wmma_gemm", "cublas", size_t(n), 0, 0, t.medianMs, t.minMs,
           2.0 * double(n) * double(nn) / 1e3);
  cublasDestroy(handle);
  return 0;
}
