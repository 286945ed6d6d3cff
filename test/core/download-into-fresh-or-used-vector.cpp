// device_vector::download into a std::vector: a new buffer when the vector
// is too small (its pages made at once when fresh:
// mstage_rt_prepare_host_buffer), the vector's own buffer when it holds
// enough; either way every element is the device's, compared with the
// uploaded values. Sizes below and over the 1 MiB from which pages are made
// at once, an empty vector, a used vector grown, and one shrunk (its buffer
// kept).
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --implicit-check-not=FAIL
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

static std::vector<float> pattern(size_t N, float Seed) {
  std::vector<float> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = Seed + float(I % 1000);
  return V;
}

static void check(const char *What, const std::vector<float> &Got,
                  const std::vector<float> &Want) {
  std::printf("%s %s\n", Got == Want ? "PASS" : "FAIL", What);
}

int main() {
  for (size_t N : {size_t(0), size_t(1000), size_t(3) << 20}) {
    std::vector<float> Want = pattern(N, 1.5f);
    device_vector<float> D(Want);
    check("fresh", D.download(), Want);
  }
  // CHECK-COUNT-3: PASS fresh
  std::vector<float> Small = pattern(5000, 7.0f), Big = pattern(3 << 20, 9.0f);
  device_vector<float> DSmall(Small), DBig(Big);
  std::vector<float> Host = pattern(100, -1.0f); // used, too small
  DBig.download(Host);
  check("grown", Host, Big);
  // CHECK: PASS grown
  const float *Buffer = Host.data();
  DSmall.download(Host);
  check("shrunk", Host, Small);
  std::printf("%s buffer kept\n", Host.data() == Buffer ? "PASS" : "FAIL");
  // CHECK: PASS shrunk
  // CHECK: PASS buffer kept
  DBig.download(Host);
  check("grown into its capacity", Host, Big);
  std::printf("%s buffer kept\n", Host.data() == Buffer ? "PASS" : "FAIL");
  // CHECK: PASS grown into its capacity
  // CHECK: PASS buffer kept
  return 0;
}
