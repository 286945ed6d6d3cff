//===- kernel_names.cpp - Kernels whose names NVIDIA's tools show ----------===//
//
// Run by tools/gpu/check-tools.sh (check_kernel_names): a kernel named by
// default (main::kernel_L<line>), labelled ones (kernel("saxpy", ...):
// main::saxpy; k.named("halve"): main::halve) and an algorithm's
// (mstage::reduce). Prints the readable name each should have in
// the tools (`NAME <name>`), then runs them and prints PASS kernel_names when
// the results match the host's.
//
//===----------------------------------------------------------------------===//
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

constexpr unsigned N = 1024, Block = 128;

int main() {
  std::vector<float> X(N), Y(N);
  std::iota(X.begin(), X.end(), 0.0f);
  auto Twice = mstage::kernel(
      [](const auto &X, auto &Y) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < X.size())
          Y[I] = 2.0f * X[I];
      },
      N / Block, Block);
  std::printf("NAME main::kernel_L%d\n", __LINE__ - 6);
  Twice(X, Y);

  float A = 3.0f;
  mstage::kernel(
      "saxpy",
      [A](const auto &X, auto &Y) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < X.size())
          Y[I] = A * X[I] + Y[I];
      },
      N / Block, Block)(X, Y);
  std::printf("NAME main::saxpy\n");

  std::vector<float> H(N, 8.0f);
  auto Halve = mstage::kernel(
      [](auto &H) { H[mstage::Thread::get().global.x] *= 0.5f; }, N / Block,
      Block);
  Halve.named("halve")(H);
  std::printf("NAME main::halve\n");

  std::vector<int> Ints(N);
  std::iota(Ints.begin(), Ints.end(), 0);
  mstage::device_vector<int> D(Ints);
  int Sum = mstage::reduce(D, 0, std::plus<>());
  std::printf("NAME mstage::reduce\n");

  bool OK = Sum == int(N * (N - 1) / 2);
  for (unsigned I = 0; I < N; ++I)
    OK = OK && Y[I] == 5.0f * X[I] && H[I] == 4.0f;
  std::printf(OK ? "PASS kernel_names\n"
                 : "FAIL kernel_names: the results differ from the host's\n");
  return OK ? 0 : 1;
}
