//===- cpu_check.cpp - GPU suite: MSTAGE_CHECK=cpu finds a divergence -----===//
//
// Runs itself (--child MODE) with MSTAGE_CHECK=cpu:
//   agree   a kernel over a device_vector and std::vectors (sqrt, sin,
//           integer arithmetic) gives the same output on the GPU and on the
//           CPU back end, within the float tolerance: no error;
//   differ  a fast-math kernel multiplies 1e-38 by 0.01: the GPU flushes the
//           denormal result to 0, the CPU keeps it. The launch throws an
//           error naming the kernel, the argument, the first element and
//           both values.
// On the CPU back end both runs are on the CPU: "agree" holds, and "differ"
// agrees as well (fast math changes nothing there).
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "cpu_check";
constexpr unsigned N = 4096, Block = 128;

int childAgree() {
  std::vector<float> X(N), Out(N);
  std::vector<int> Counts(N, 0);
  for (unsigned I = 0; I < N; ++I)
    X[I] = 0.001f * float(I);
  mstage::device_vector<double> D(std::vector<double>(N, 2.0));
  mstage::kernel(
      [](const auto &X, auto &Out, auto &Counts, auto &D) {
        unsigned I = mstage::Thread::get().global.x;
        Out[I] = std::sqrt(X[I]) + std::sin(X[I]);
        Counts[I] = int(I) * 3 - 7;
        D[I] = D[I] * D[I] + double(I);
      },
      N / Block, Block)(X, Out, Counts, D);
  std::printf("agree: out[%u] = %g\n", N - 1, Out[N - 1]);
  return 0;
}

int childDiffer() {
  std::vector<float> Tiny(256, 1e-38f), Out(256, -1.0f);
  float Scale = 0.01f;
  mstage::kernel(
      [](const auto &Tiny, auto &Out, float Scale) {
        unsigned I = mstage::Thread::get().global.x;
        Out[I] = Tiny[I] * Scale;
      },
      2, 128)
      .fast_math()(Tiny, Out, Scale);
  std::printf("differ: out[0] = %g\n", Out[0]);
  return 0;
}

int run(int Argc, char **Argv) {
  if (Argc == 3 && std::string(Argv[1]) == "--child") {
    try {
      return std::string(Argv[2]) == "agree" ? childAgree() : childDiffer();
    } catch (const mstage::error &E) {
      std::printf("error: %s\n", E.what());
      return 3;
    }
  }
  if (skipWithoutGpu(Name))
    return 0;
  bool Gpu = std::strcmp(mstage_rt_backend(), "cuda") == 0;
  ChildResult C = runThisProgram({"--child", "agree"}, {"MSTAGE_CHECK=cpu"});
  const std::string &Agree = C.Output;
  if (C.Status != 0 ||
      Agree.find("each launch also runs on the CPU back end") ==
          std::string::npos ||
      Agree.find("agree: out[") == std::string::npos) {
    std::printf("FAIL %s: the agreeing kernel: status %d:\n%s\n", Name,
                C.Status, Agree.c_str());
    return 1;
  }
  std::string Differ =
      runThisProgram({"--child", "differ"}, {"MSTAGE_CHECK=cpu"}).Output;
  const char *Want =
      Gpu ? "the GPU and the CPU back end differ in argument 2, element 0 of "
            "256: GPU 0, CPU 9.9999461e-41"
          : "differ: out[0] = 9.99995e-41";
  if (Differ.find(Want) == std::string::npos ||
      (Gpu && Differ.find("kernel '(anonymous namespace)::childDiffer::"
                          "kernel_L") == std::string::npos)) {
    std::printf("FAIL %s: the fast-math kernel: expected '%s' in:\n%s\n", Name,
                Want, Differ.c_str());
    return 1;
  }
  std::printf("PASS %s: MSTAGE_CHECK=cpu: an agreeing kernel passes; %s\n",
              Name,
              Gpu ? "the flushed denormal of a fast-math kernel is reported "
                    "with kernel, argument, element and both values"
                  : "on the CPU back end the fast-math kernel agrees too");
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
