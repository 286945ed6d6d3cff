//===- device_assert.cpp - GPU suite: assert() in a kernel -----------------===//
//
// A kernel's assert fails for some threads. The program runs itself (--child)
// with its output in a file and checks that the child failed, that the
// device printed the expression with its file and line, and that the launch
// failed with CUDA_ERROR_ASSERT and the kernel's name. On the CPU back end
// the kernel's assert is the host's: the child aborts after printing the
// expression with its file and line.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cassert>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "device_assert";
constexpr int AssertLine = __LINE__ + 7; // the assert below

int child() {
  std::vector<int> v(64, 7);
  mstage::kernel(
      [](auto &v) {
        unsigned i = mstage::Thread::get().global.x;
        assert(v[i] == 7 && i < 40);
      },
      1, 64)(v);
  return 0;
}

int run(int Argc, char **Argv) {
  if (Argc == 2 && std::string(Argv[1]) == "--child")
    return child();
  if (skipWithoutGpu(Name))
    return 0;
  ChildResult C = runThisProgram({"--child"});
  bool Cpu = onCpu();
  std::vector<std::string> Want = {
      "device_assert.cpp:" + std::to_string(AssertLine),
      "Assertion `v[i] == 7 && i < 40` failed", "CUDA_ERROR_ASSERT",
      "mstage: kernel '(anonymous namespace)::child::kernel_L"};
  if (Cpu) // glibc's assert: "Assertion `e' failed." and abort()
    Want = {"device_assert.cpp:" + std::to_string(AssertLine),
            "Assertion `v[i] == 7 && i < 40' failed"};
  if (!childFailedSaying(Name, C, Want))
    return 1;
  std::printf("PASS %s: the failed assert stopped the %s with its "
              "expression, file and line\n",
              Name, Cpu ? "process (CPU back end)" : "launch");
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
