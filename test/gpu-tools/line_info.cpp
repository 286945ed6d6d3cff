//===- line_info.cpp - Kernels for NVIDIA's tools to name lines of ---------===//
//
// Run by tools/gpu/check-tools.sh, not by the GPU suite (two of its modes
// fault on purpose). Each mode prints where its kernel's line of interest is
// (`LINE <mode> <file>:<line>`, from __LINE__), then runs the kernel:
//  - body: a store past the end of a buffer, in the kernel's body;
//  - helper: the same store in a helper function inlined into the kernel;
//  - saxpy: a correct kernel for Nsight Compute's source view; prints
//    PASS saxpy when its result matches the host's.
// Built with mstage++ -O2 and no -g: line information is the default.
//
//===----------------------------------------------------------------------===//
#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

constexpr unsigned N = 1024, Block = 128;
// Far enough past the end that no allocation's rounding covers it.
constexpr unsigned Past = 1 << 20;

template <class V> void storePast(V &Out, unsigned I) {
  float *Base = &Out[0];
  Base[Out.size() + Past + I] = 1.0f; // the helper's store
}
constexpr int HelperStoreLine = __LINE__ - 2;

static int BodyStoreLine = 0;

static void runBody(std::vector<float> &Out) {
  auto K = mstage::kernel(
      [](auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        float *Base = &Out[0];
        Base[Out.size() + Past + I] = 2.0f; // the body's store
      },
      N / Block, Block);
  BodyStoreLine = __LINE__ - 3;
  std::printf("LINE body %s:%d\n", __FILE__, BodyStoreLine);
  std::fflush(stdout);
  K(Out);
}

static void runHelper(std::vector<float> &Out) {
  auto K = mstage::kernel(
      [](auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        storePast(Out, I);
      },
      N / Block, Block);
  std::printf("LINE helper %s:%d\n", __FILE__, HelperStoreLine);
  std::fflush(stdout);
  K(Out);
}

static int runSaxpy() {
  std::vector<float> X(N), Y(N);
  for (unsigned I = 0; I < N; ++I) {
    X[I] = float(I);
    Y[I] = float(2 * I);
  }
  std::vector<float> Want = Y;
  for (unsigned I = 0; I < N; ++I)
    Want[I] = 3.0f * X[I] + Want[I];
  float A = 3.0f;
  auto K = mstage::kernel(
      [A](const auto &X, auto &Y) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < X.size())
          Y[I] = mstage::stage(A) * X[I] + Y[I]; // the saxpy line
      },
      N / Block, Block);
  std::printf("LINE saxpy %s:%d\n", __FILE__, __LINE__ - 3);
  K(X, Y);
  mstage::current_stream().synchronize();
  if (Y != Want) {
    std::printf("FAIL saxpy: the result differs from the host's\n");
    return 1;
  }
  std::printf("PASS saxpy\n");
  return 0;
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "";
  try {
    std::vector<float> Out(N, 0.0f);
    if (!std::strcmp(Mode, "body"))
      runBody(Out);
    else if (!std::strcmp(Mode, "helper"))
      runHelper(Out);
    else if (!std::strcmp(Mode, "saxpy"))
      return runSaxpy();
    else {
      std::fprintf(stderr, "usage: line_info body|helper|saxpy\n");
      return 2;
    }
    mstage::current_stream().synchronize();
  } catch (const std::exception &E) {
    // The faulting modes end here on a GPU: the sanitizer has said where.
    std::printf("launch failed: %s\n", E.what());
    return 1;
  }
  return 0;
}
