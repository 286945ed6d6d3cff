//===- printf.cpp - GPU suite: printf in a kernel ---------------------------===//
//
// A kernel prints from 4 threads with int, unsigned, double (from a float),
// char, long and string arguments, and once with no arguments. The program
// runs itself (--child) with stdout in a file, and compares the lines, in any
// order, with what the CPU's printf makes of the same arguments.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <algorithm>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr const char *Name = "printf";
const char *Format = "thread %u of %d: %.2f %c %ld %s\n";

int child() {
  std::vector<int> v = {10, 20, 30, 40};
  mstage::kernel(
      [](auto &v) {
        unsigned i = mstage::Thread::get().global.x;
        if (i < 4)
          std::printf("thread %u of %d: %.2f %c %ld %s\n", i, v[i],
                      v[i] * 0.25f, 'a' + int(i), 1L << (40 + i), "ok");
        if (i == 0)
          std::printf("no arguments\n");
      },
      1, 32)
      .check_on_cpu(false)(v); // MSTAGE_CHECK=cpu would print twice
  std::fflush(stdout);
  return 0;
}

int run(int Argc, char **Argv) {
  if (Argc == 2 && std::string(Argv[1]) == "--child")
    return child();
  if (skipWithoutGpu(Name))
    return 0;
  ChildResult C = runThisProgram({"--child"}, {}, /*WithStderr=*/false);
  std::istringstream In(C.Output);
  if (C.Status != 0)
    return std::printf("FAIL %s: the child failed\n", Name), 1;
  std::vector<std::string> Got, Want = {"no arguments"};
  for (std::string Line; std::getline(In, Line);)
    Got.push_back(Line);
  std::vector<int> v = {10, 20, 30, 40};
  for (unsigned i = 0; i < 4; ++i) {
    char Buf[128];
    std::snprintf(Buf, sizeof Buf, Format, i, v[i], double(v[i] * 0.25f),
                  'a' + int(i), 1L << (40 + i), "ok");
    Want.push_back(std::string(Buf, std::strlen(Buf) - 1));
  }
  std::sort(Got.begin(), Got.end());
  std::sort(Want.begin(), Want.end());
  if (Got != Want) {
    std::printf("FAIL %s: the kernel printed %zu lines:\n", Name, Got.size());
    for (const std::string &L : Got)
      std::printf("  got:  %s\n", L.c_str());
    for (const std::string &L : Want)
      std::printf("  want: %s\n", L.c_str());
    return 1;
  }
  std::printf("PASS %s: 5 lines from the kernel, as the CPU prints them\n",
              Name);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
