// device_vector::download() into a fresh std::vector goes through the
// runtime's two page-locked chunks of 4 MiB (runtime/HostStaging.cpp): one
// device-to-host copy a chunk, each chunk whole elements, the chunks made
// once; under 256 KiB one plain copy. Where page-locked memory cannot be had
// every download is one plain copy, and the chunks are not asked for again.
// A copy that fails in the middle throws, naming the driver's error, and
// leaves the vector empty. The values are compared with what was uploaded,
// bit for bit. On the fake driver (Inputs/FakeCudaDriver.cpp), whose device
// memory is host memory.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE=off FAKECUDA_CALLS=1 %t 2>&1 | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE=off FAKECUDA_CALLS=1 FAKECUDA_FAIL=cuMemHostAlloc=2 %t 2>&1 | FileCheck %s --check-prefix=NOPINNED
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE=off FAKECUDA_FAIL=cuMemcpyDtoHAsync@3=700 %t fail 2>&1 | FileCheck %s --check-prefix=FAIL
// UNSUPPORTED: gpu

// CHECK-LABEL: download 65535 x 4
// CHECK: fakecuda: call cuMemcpyDtoHAsync
// CHECK-NOT: cuMemcpyDtoHAsync
// CHECK: PASS 65535 x 4
// CHECK-LABEL: download 65536 x 4
// CHECK: fakecuda: call cuMemHostAlloc
// CHECK: fakecuda: call cuMemcpyDtoHAsync
// CHECK-NOT: cuMemcpyDtoHAsync
// CHECK: PASS 65536 x 4
// CHECK-LABEL: download 1048577 x 4
// CHECK-COUNT-2: fakecuda: call cuMemcpyDtoHAsync
// CHECK-NOT: cuMemcpyDtoHAsync
// CHECK: PASS 1048577 x 4
// CHECK-LABEL: download 1048577 x 12
// CHECK-COUNT-4: fakecuda: call cuMemcpyDtoHAsync
// CHECK-NOT: cuMemcpyDtoHAsync
// CHECK: PASS 1048577 x 12
// CHECK-LABEL: download 3 x 8 into a larger vector
// CHECK-NOT: cuMemHostAlloc
// CHECK: PASS 3 x 8 into a larger vector

// NOPINNED-LABEL: download 65536 x 4
// NOPINNED: fakecuda: call cuMemHostAlloc
// NOPINNED: fakecuda: call cuMemcpyDtoHAsync
// NOPINNED-NOT: cuMemcpyDtoHAsync
// NOPINNED: PASS 65536 x 4
// NOPINNED-LABEL: download 1048577 x 4
// NOPINNED-NOT: cuMemHostAlloc
// NOPINNED: fakecuda: call cuMemcpyDtoHAsync
// NOPINNED-NOT: cuMemcpyDtoHAsync
// NOPINNED: PASS 1048577 x 4
// NOPINNED-LABEL: download 1048577 x 12
// NOPINNED-NOT: cuMemHostAlloc
// NOPINNED: PASS 1048577 x 12

// FAIL: PASS 65536 x 4
// FAIL: THROWN: {{.*}}cuMemcpyDtoHAsync{{.*}}; the vector has 0 elements

#include <mstage.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

struct Triple {
  float X, Y, Z;
};

template <class T> std::vector<T> values(std::size_t N) {
  std::vector<T> V(N);
  auto *Bytes = reinterpret_cast<unsigned char *>(V.data());
  for (std::size_t I = 0; I < N * sizeof(T); ++I)
    Bytes[I] = static_cast<unsigned char>(I * 2654435761u >> 13);
  return V;
}

template <class T> void check(std::size_t N) {
  std::vector<T> Want = values<T>(N);
  mstage::device_vector<T> V(Want);
  std::fprintf(stderr, "download %zu x %zu\n", N, sizeof(T));
  std::vector<T> Got = V.download();
  bool OK = Got.size() == N &&
            std::memcmp(Got.data(), Want.data(), N * sizeof(T)) == 0;
  std::fprintf(stderr, "%s %zu x %zu\n", OK ? "PASS" : "FAIL", N, sizeof(T));
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::string(Argv[1]) == "fail") {
    check<float>(65536); // the first device-to-host copy
    std::vector<float> Want = values<float>((std::size_t(1) << 20) + 1);
    mstage::device_vector<float> V(Want);
    std::vector<float> Host(5, 1.0f);
    try {
      V.download(Host); // its second chunk's copy fails
      std::fprintf(stderr, "NOTHROW\n");
    } catch (const mstage::error &E) {
      std::fprintf(stderr, "THROWN: %s; the vector has %zu elements\n",
                   E.what(), Host.size());
    }
    return 0;
  }
  check<float>(65535);
  check<float>(65536);
  check<float>((std::size_t(1) << 20) + 1);
  check<Triple>((std::size_t(1) << 20) + 1);
  { // A vector large enough keeps its buffer: the plain copy.
    std::vector<double> Want = values<double>(3);
    mstage::device_vector<double> V(Want);
    std::vector<double> Host(100);
    std::fprintf(stderr, "download 3 x 8 into a larger vector\n");
    V.download(Host);
    bool OK = Host.size() == 3 &&
              std::memcmp(Host.data(), Want.data(), sizeof(double) * 3) == 0;
    std::fprintf(stderr, "%s 3 x 8 into a larger vector\n",
                 OK ? "PASS" : "FAIL");
  }
  return 0;
}
