// nvcc's side of issue 16's scan: a templated work-efficient (Blelloch)
// exclusive scan of N ints (bench/PortsReference.h). Each block of BLOCK
// threads scans 2*BLOCK elements in shared memory (up-sweep, clear the last,
// down-sweep), padded by one word per 32 so that the tree's strided accesses
// avoid bank conflicts, and writes its total; the totals are scanned the
// same way (recursively), then added back to every element of their block.
//
//   scan_baseline [--reps R] [--n N]
//
// Prints the CSV row scan,nvcc,...: the time is the sum of the kernels' own
// times (each launch between two events), as mstage's per-launch timing
// gives it; on stderr checksum,scan,nvcc,N,FNV-1a of the scanned array.
#include "../PortsReference.h"
#include "BenchTiming.cuh"

using namespace ports;

#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

template <class T, unsigned BLOCK>
__global__ void scanBlocks(const T *__restrict__ in, T *__restrict__ out,
                           T *__restrict__ sums, unsigned n) {
  __shared__ T temp[2 * BLOCK + CONFLICT_FREE_OFFSET(2 * BLOCK)];
  unsigned tid = threadIdx.x;
  unsigned base = blockIdx.x * 2 * BLOCK;
  unsigned ai = tid, bi = tid + BLOCK;
  temp[ai + CONFLICT_FREE_OFFSET(ai)] = base + ai < n ? in[base + ai] : T(0);
  temp[bi + CONFLICT_FREE_OFFSET(bi)] = base + bi < n ? in[base + bi] : T(0);

  unsigned offset = 1;
  for (unsigned d = BLOCK; d > 0; d >>= 1) { // up-sweep
    __syncthreads();
    if (tid < d) {
      unsigned a = offset * (2 * tid + 1) - 1;
      unsigned b = offset * (2 * tid + 2) - 1;
      temp[b + CONFLICT_FREE_OFFSET(b)] += temp[a + CONFLICT_FREE_OFFSET(a)];
    }
    offset *= 2;
  }
  if (tid == 0) {
    unsigned last = 2 * BLOCK - 1 + CONFLICT_FREE_OFFSET(2 * BLOCK - 1);
    sums[blockIdx.x] = temp[last];
    temp[last] = T(0);
  }
  for (unsigned d = 1; d < 2 * BLOCK; d *= 2) { // down-sweep
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      unsigned a = offset * (2 * tid + 1) - 1;
      unsigned b = offset * (2 * tid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      T t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();
  if (base + ai < n)
    out[base + ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
  if (base + bi < n)
    out[base + bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];
}

// Adds each block's scanned total to its 2*BLOCK elements.
template <class T, unsigned BLOCK>
__global__ void addSums(T *__restrict__ out, const T *__restrict__ sums,
                        unsigned n) {
  T s = sums[blockIdx.x];
  unsigned i = blockIdx.x * 2 * BLOCK + threadIdx.x;
  if (i < n)
    out[i] += s;
  if (i + BLOCK < n)
    out[i + BLOCK] += s;
}

// The buffers of every level: level 0 is the input and the output, level k
// the block totals of level k-1 (Sums) and their scan (Scanned).
template <class T, unsigned BLOCK> struct Scan {
  std::vector<size_t> Levels;
  std::vector<T *> Sums, Scanned;

  explicit Scan(size_t N) : Levels(scanLevels(N)) {
    for (size_t L = 0; L < Levels.size(); ++L) {
      size_t Blocks = (Levels[L] + 2 * BLOCK - 1) / (2 * BLOCK);
      T *S, *Sc;
      CUDA_CHECK(cudaMalloc(&S, Blocks * sizeof(T)));
      CUDA_CHECK(cudaMalloc(&Sc, Blocks * sizeof(T)));
      Sums.push_back(S);
      Scanned.push_back(Sc);
    }
  }

  unsigned blocks(size_t L) const {
    return unsigned((Levels[L] + 2 * BLOCK - 1) / (2 * BLOCK));
  }

  // Runs the scan of In into Out; Each(launch) launches one kernel, so that
  // the caller can time it.
  template <class F> void run(const T *In, T *Out, F Each) {
    size_t Top = Levels.size() - 1;
    for (size_t L = 0; L <= Top; ++L) {
      const T *I = L ? Sums[L - 1] : In;
      T *O = L ? Scanned[L - 1] : Out;
      Each([=] {
        scanBlocks<T, BLOCK>
            <<<blocks(L), BLOCK>>>(I, O, Sums[L], unsigned(Levels[L]));
      });
    }
    for (size_t L = Top; L-- > 0;) {
      T *O = L ? Scanned[L - 1] : Out;
      Each([=] {
        addSums<T, BLOCK>
            <<<blocks(L), BLOCK>>>(O, Scanned[L], unsigned(Levels[L]));
      });
    }
  }
};

int main(int argc, char **argv) {
  Options O = parseOptions(argc, argv, "scan_baseline [--reps R] [--n N]");
  const size_t N = O.N ? O.N : kScanN;
  const std::vector<int> In = scanInput(N);
  int *DIn, *DOut;
  CUDA_CHECK(cudaMalloc(&DIn, N * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&DOut, N * sizeof(int)));
  CUDA_CHECK(
      cudaMemcpy(DIn, In.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  Scan<int, kScanBlock> S(N);

  cudaEvent_t Start, Stop;
  CUDA_CHECK(cudaEventCreate(&Start));
  CUDA_CHECK(cudaEventCreate(&Stop));
  double Total = 0;
  auto timed = [&](auto Launch) {
    CUDA_CHECK(cudaEventRecord(Start));
    Launch();
    CUDA_CHECK(cudaEventRecord(Stop));
    CUDA_CHECK(cudaEventSynchronize(Stop));
    float Ms;
    CUDA_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
    Total += Ms;
  };

  S.run(DIn, DOut, [](auto Launch) { Launch(); });
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> Got(N);
  CUDA_CHECK(
      cudaMemcpy(Got.data(), DOut, N * sizeof(int), cudaMemcpyDeviceToHost));
  scanCheck(In, Got, "nvcc");
  printChecksum("scan", "nvcc", N, hex(fnv1a(Got.data(), N * sizeof(int))));

  std::vector<double> Ms;
  for (int R = 0; R < kPortWarmups + O.Reps; ++R) {
    Total = 0;
    S.run(DIn, DOut, timed);
    if (R >= kPortWarmups)
      Ms.push_back(Total);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(
      cudaMemcpy(Got.data(), DOut, N * sizeof(int), cudaMemcpyDeviceToHost));
  scanCheck(In, Got, "nvcc, after the timed runs");
  printHeader();
  // Bytes: the input read and the output written once, at least.
  printRow("scan", "nvcc", N, kScanBlock, S.blocks(0), median(Ms), minimum(Ms),
           2.0 * double(N * sizeof(int)));
  return 0;
}
