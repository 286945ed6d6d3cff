// What a pageable download of a device buffer into a fresh std::vector
// costs, by way: nvcc's (a value-initialized vector, cudaMemcpy), the same
// copy on a non-blocking stream (cudaMemcpyAsync and a synchronize: the
// driver call mstage's device_vector::download makes), and mstage's buffer
// (reserve, MADV_POPULATE_WRITE as mstage_rt_prepare_host_buffer does,
// resize), each with and without a fresh buffer. Prints one line per way
// and size: median ms of the buffer's making and of the copy, over
// interleaved repetitions.
//
//   nvcc -O2 -o download-probe download-probe.cu
//   ./download-probe [REPS [fresh|resident [CHUNK_KIB RING]]]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <sys/mman.h>
#include <vector>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define CHECK(X)                                                               \
  do {                                                                         \
    cudaError_t E = (X);                                                       \
    if (E != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s: %s\n", #X, cudaGetErrorString(E));             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point T) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T).count();
}

enum Way {
  NvccFresh,
  AsyncFresh,
  MstageFresh,
  StagedFresh,
  SyncReused,
  AsyncReused,
  Ways
};
const char *Names[Ways] = {
    "vector+cudaMemcpy",          "vector+async+sync",
    "populate+resize+async+sync", "populate+pinned-chunks+insert",
    "reused+cudaMemcpy",          "reused+async+sync"};

// Page-locked chunks in a ring: the copies of the next chunks run while the
// host copies chunk k into the vector. ChunkBytes and Ring: argv[3], [4].
size_t ChunkBytes = size_t(4) << 20;
int Ring = 2;
std::vector<char *> Staging;
std::vector<cudaEvent_t> Landed;

void stagedInto(std::vector<float> &H, const float *D, size_t N,
                cudaStream_t S) {
  size_t Bytes = N * sizeof(float),
         Chunks = (Bytes + ChunkBytes - 1) / ChunkBytes;
  auto issue = [&](size_t K) {
    size_t Off = K * ChunkBytes, Len = std::min(ChunkBytes, Bytes - Off);
    CHECK(cudaMemcpyAsync(Staging[K % Ring],
                          reinterpret_cast<const char *>(D) + Off, Len,
                          cudaMemcpyDeviceToHost, S));
    CHECK(cudaEventRecord(Landed[K % Ring], S));
  };
  for (size_t K = 0; K < Chunks && K < size_t(Ring); ++K)
    issue(K);
  for (size_t K = 0; K < Chunks; ++K) {
    CHECK(cudaEventSynchronize(Landed[K % Ring]));
    size_t Len = std::min(ChunkBytes, Bytes - K * ChunkBytes);
    const float *P = reinterpret_cast<const float *>(Staging[K % Ring]);
    H.insert(H.end(), P, P + Len / sizeof(float));
    if (K + Ring < Chunks)
      issue(K + Ring);
  }
}

void populate(float *P, size_t Bytes) {
  uintptr_t Page = 4096, B = (uintptr_t(P) + Page - 1) & ~(Page - 1),
            E = (uintptr_t(P) + Bytes) & ~(Page - 1);
  uintptr_t HB = (B + (2u << 20) - 1) & ~uintptr_t((2u << 20) - 1),
            HE = E & ~uintptr_t((2u << 20) - 1);
  if (HE > HB)
    madvise(reinterpret_cast<void *>(HB), HE - HB, MADV_HUGEPAGE);
  madvise(reinterpret_cast<void *>(B), E - B, MADV_POPULATE_WRITE);
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V.empty() ? 0 : V[V.size() / 2];
}

} // namespace

int main(int Argc, char **Argv) {
  int Reps = Argc > 1 ? std::atoi(Argv[1]) : 24;
  // "fresh": every buffer of 512 KiB or more is mapped anew, so each
  // download meets pages that are not there yet (as after a heap trim).
  bool Fresh = Argc > 2 && !std::strcmp(Argv[2], "fresh");
  if (Fresh)
    mallopt(M_MMAP_THRESHOLD, 512 << 10);
  cudaStream_t S;
  CHECK(cudaFree(nullptr));
  CHECK(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
  if (Argc > 4) {
    ChunkBytes = size_t(std::atoi(Argv[3])) << 10;
    Ring = std::atoi(Argv[4]);
  }
  for (int I = 0; I < Ring; ++I) {
    Staging.push_back(static_cast<char *>(
        mmap(nullptr, ChunkBytes, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0)));
    CHECK(cudaHostRegister(Staging[I], ChunkBytes, cudaHostRegisterPortable));
    Landed.emplace_back();
    CHECK(cudaEventCreateWithFlags(&Landed[I], cudaEventDisableTiming));
  }
  for (size_t N : {size_t(2) << 20, size_t(256) << 10}) { // 8 MiB, 1 MiB
    float *D;
    CHECK(cudaMalloc(&D, N * sizeof(float)));
    CHECK(cudaMemset(D, 1, N * sizeof(float)));
    std::vector<float> Reused(N);
    std::vector<double> Make[Ways], Copy[Ways];
    for (int R = 0; R < Reps; ++R)
      for (int W = 0; W < Ways; ++W) {
        std::vector<float> H;
        auto T0 = Clock::now();
        float *Dst = Reused.data();
        if (W == NvccFresh || W == AsyncFresh) {
          H = std::vector<float>(N);
          Dst = H.data();
        } else if (W == MstageFresh || W == StagedFresh) {
          H.reserve(N);
          populate(H.data(), N * sizeof(float));
          if (W == MstageFresh)
            H.resize(N);
          Dst = H.data();
        }
        Make[W].push_back(msSince(T0));
        auto T1 = Clock::now();
        if (W == StagedFresh) {
          stagedInto(H, D, N, S);
          Dst = H.data();
        } else if (W == NvccFresh || W == SyncReused) {
          CHECK(cudaMemcpy(Dst, D, N * sizeof(float), cudaMemcpyDeviceToHost));
        } else {
          CHECK(cudaMemcpyAsync(Dst, D, N * sizeof(float),
                                cudaMemcpyDeviceToHost, S));
          CHECK(cudaStreamSynchronize(S));
        }
        Copy[W].push_back(msSince(T1));
        if (Dst[N / 2] != Dst[0])
          std::abort();
      }
    for (int W = 0; W < Ways; ++W)
      std::printf("download%s,%zu KiB,%s,chunk %zu KiB x %d,make %.3f,copy "
                  "%.3f,total %.3f\n",
                  Fresh ? "-fresh" : "", N * sizeof(float) / 1024, Names[W],
                  ChunkBytes >> 10, Ring, median(Make[W]), median(Copy[W]),
                  median(Make[W]) + median(Copy[W]));
    CHECK(cudaFree(D));
  }
  return 0;
}
