// CUB's side of issue 18's scan and sort benchmarks
// (bench/mstage_scan_sort.cpp): DeviceScan::InclusiveSum of 2^27 ints,
// DeviceRadixSort::SortKeys of 2^26 uint32 and float keys, SortPairs of 2^26
// uint32 keys with uint32 values, on the same inputs (PortsReference.h's
// mix(i)).
//
//   scan_sort_baseline [--reps R] [--n N]     (--n scales every size)
//
// Prints the CSV rows i18-scan,cub,...: the time of one call (CUB's own
// kernels, the temporary storage allocated once beforehand) between two
// events; on stderr checksum,BENCHMARK,cub,N,FNV-1a of the result. The sort
// inputs are copied in before each timed call, outside the events.
#include "../PortsReference.h"
#include "BenchTiming.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <numeric>
#include <type_traits>

using namespace ports;

namespace {

template <class T> T *toDevice(const std::vector<T> &H) {
  T *D;
  CUDA_CHECK(cudaMalloc(&D, H.size() * sizeof(T)));
  CUDA_CHECK(
      cudaMemcpy(D, H.data(), H.size() * sizeof(T), cudaMemcpyHostToDevice));
  return D;
}
template <class T> std::vector<T> toHost(const T *D, std::size_t N) {
  std::vector<T> H(N);
  CUDA_CHECK(cudaMemcpy(H.data(), D, N * sizeof(T), cudaMemcpyDeviceToHost));
  return H;
}

// Times Reps calls of Call(), each after Prepare() (not timed).
template <class P, class C>
std::vector<double> timeCalls(int Reps, P Prepare, C Call) {
  cudaEvent_t A, B;
  CUDA_CHECK(cudaEventCreate(&A));
  CUDA_CHECK(cudaEventCreate(&B));
  std::vector<double> Ms;
  for (int R = 0; R < Reps + kWarmups; ++R) {
    Prepare();
    CUDA_CHECK(cudaEventRecord(A));
    Call();
    CUDA_CHECK(cudaEventRecord(B));
    CUDA_CHECK(cudaEventSynchronize(B));
    float T = 0;
    CUDA_CHECK(cudaEventElapsedTime(&T, A, B));
    if (R >= kWarmups)
      Ms.push_back(T);
  }
  CUDA_CHECK(cudaEventDestroy(A));
  CUDA_CHECK(cudaEventDestroy(B));
  return Ms;
}

template <class T>
void report(const char *Bench, std::size_t N, const std::vector<T> &Got,
            const std::vector<double> &Ms, double Bytes) {
  printChecksum(Bench, "cub", N,
                hex(fnv1a(Got.data(), Got.size() * sizeof(T))));
  printRow(Bench, "cub", N, 0, 0, median(Ms), minimum(Ms), Bytes);
}

void benchScan(const Options &O, std::size_t N) {
  std::vector<int> In = scanSortInput<int>(N, 0);
  int *DIn = toDevice(In), *DOut;
  CUDA_CHECK(cudaMalloc(&DOut, N * sizeof(int)));
  void *Tmp = nullptr;
  std::size_t TmpBytes = 0;
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(Tmp, TmpBytes, DIn, DOut, int(N)));
  CUDA_CHECK(cudaMalloc(&Tmp, TmpBytes));
  auto Ms = timeCalls(
      O.Reps, [] {},
      [&] {
        CUDA_CHECK(
            cub::DeviceScan::InclusiveSum(Tmp, TmpBytes, DIn, DOut, int(N)));
      });
  std::vector<int> Want(N);
  std::inclusive_scan(In.begin(), In.end(), Want.begin());
  std::vector<int> Got = toHost(DOut, N);
  if (Got != Want)
    fail("i18-scan: CUB's InclusiveSum differs from std::inclusive_scan");
  report("i18-scan", N, Got, Ms, 2.0 * N * sizeof(int));
  cudaFree(Tmp);
  cudaFree(DIn);
  cudaFree(DOut);
}

template <class K>
void benchSort(const Options &O, const char *Bench, std::size_t N) {
  std::vector<K> In = scanSortInput<K>(N, 1);
  K *DIn = toDevice(In), *DOut;
  CUDA_CHECK(cudaMalloc(&DOut, N * sizeof(K)));
  void *Tmp = nullptr;
  std::size_t TmpBytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortKeys(Tmp, TmpBytes, DIn, DOut, int(N)));
  CUDA_CHECK(cudaMalloc(&Tmp, TmpBytes));
  auto Ms = timeCalls(
      O.Reps,
      [&] {
        CUDA_CHECK(
            cudaMemcpy(DIn, In.data(), N * sizeof(K), cudaMemcpyHostToDevice));
      },
      [&] {
        CUDA_CHECK(
            cub::DeviceRadixSort::SortKeys(Tmp, TmpBytes, DIn, DOut, int(N)));
      });
  std::vector<K> Want = In;
  std::sort(Want.begin(), Want.end());
  std::vector<K> Got = toHost(DOut, N);
  if (Got != Want)
    fail(std::string(Bench) + ": CUB's SortKeys differs from std::sort");
  report(Bench, N, Got, Ms, 2.0 * N * sizeof(K));
  cudaFree(Tmp);
  cudaFree(DIn);
  cudaFree(DOut);
}

void benchSortPairs(const Options &O, std::size_t N) {
  std::vector<unsigned> Keys = scanSortInput<unsigned>(N, 2), Values(N);
  std::iota(Values.begin(), Values.end(), 0u);
  unsigned *DK = toDevice(Keys), *DV = toDevice(Values), *DKOut, *DVOut;
  CUDA_CHECK(cudaMalloc(&DKOut, N * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&DVOut, N * sizeof(unsigned)));
  void *Tmp = nullptr;
  std::size_t TmpBytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(Tmp, TmpBytes, DK, DKOut, DV,
                                             DVOut, int(N)));
  CUDA_CHECK(cudaMalloc(&Tmp, TmpBytes));
  auto Ms = timeCalls(
      O.Reps, [] {},
      [&] {
        CUDA_CHECK(cub::DeviceRadixSort::SortPairs(Tmp, TmpBytes, DK, DKOut, DV,
                                                   DVOut, int(N)));
      });
  std::vector<unsigned> Order(N);
  std::iota(Order.begin(), Order.end(), 0u);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](unsigned A, unsigned B) { return Keys[A] < Keys[B]; });
  std::vector<unsigned> Got = toHost(DVOut, N);
  if (Got != Order)
    fail("i18-sort_by_key-u32: CUB's SortPairs differs from std::stable_sort");
  report("i18-sort_by_key-u32", N, Got, Ms, 4.0 * N * 4);
  cudaFree(Tmp);
  cudaFree(DK);
  cudaFree(DV);
  cudaFree(DKOut);
  cudaFree(DVOut);
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "scan_sort_baseline [--reps R] [--n N]");
  const std::size_t ScanN = O.N ? 2 * O.N : std::size_t(1) << 27;
  const std::size_t SortN = O.N ? O.N : std::size_t(1) << 26;
  printHeader();
  benchScan(O, ScanN);
  benchSort<unsigned>(O, "i18-sort-u32", SortN);
  benchSort<float>(O, "i18-sort-f32", SortN);
  benchSortPairs(O, SortN);
  return 0;
}
