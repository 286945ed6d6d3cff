//===- jit_policy.cpp - GPU suite: MSTAGE_JIT=auto's choices -------------===//
//
// Under the default launch policy (MSTAGE_JIT=auto), the first launch of a
// specialization waits for it when its compile is short against the
// launch's estimated work, and runs the generic code otherwise:
//  - a launch of 2^22 threads whose three nested loops are staged (judged
//    long: loops count 32 trips per level) runs its specialization at once
//    (launch source "miss");
//  - a launch of 256 threads without a loop (judged short) runs the generic
//    code (source "generic"), and its specialized code after jit_wait().
// Both results equal a CPU reference, under every policy: with
// MSTAGE_JIT=sync (the suite's jitsync mode) both launches wait; with async
// neither does. The staged values come from the clock, so that a warm disk
// cache does not decide for the policy.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "jit_policy";

SuiteChecks Checks(Name);

const char *source() {
  static const char *Names[] = {"memory", "disk", "miss", "off", "generic"};
  int S = mstage_rt_last_launch_source(nullptr);
  return S >= 0 && S <= 4 ? Names[S] : "unknown";
}

std::string policy() {
  const char *P = std::getenv("MSTAGE_JIT");
  return P && *P ? P : "auto";
}

float longSum(unsigned I, int Trips, float Scale) {
  float S = 0;
  for (int A = 0; A < Trips; ++A)
    for (int B = 0; B < Trips; ++B)
      for (int C = 0; C < Trips; ++C)
        S += Scale / float(A + B + C + 1 + int(I % 7));
  return S;
}

void longLaunch(unsigned Salt) {
  // The CPU back end decides nothing: a smaller grid checks the results.
  const unsigned N = onCpu() ? 1u << 14 : 1u << 22;
  const int Trips = 4;
  const float Scale = 1.0f + float(Salt % 1000) / 1024;
  mstage::device_vector<float> Out(N);
  mstage::kernel(
      [Trips, Scale](auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        Out[I] = longSum(I, mstage::stage(Trips), mstage::stage(Scale));
      },
      N / 256, 256)(Out);
  std::string Source = source();
  std::vector<float> Got = Out.download();
  std::string Diff;
  for (unsigned I = 0; I < N && Diff.empty(); I += 4099) {
    float Want = longSum(I, Trips, Scale);
    if (!(std::fabs(Got[I] - Want) <= 1e-5f * std::fabs(Want)))
      Diff = "[" + std::to_string(I) + "] = " + std::to_string(Got[I]) +
             ", expected " + std::to_string(Want);
  }
  std::string Expected = policy() == "async" ? "generic" : "miss";
  bool Sources = onCpu() || Source == Expected;
  Checks.report(Diff.empty() && Sources,
         "a long launch (" + policy() + ") ran " + Source + " code" +
             (Sources ? "" : ", expected " + Expected) +
             (Diff.empty() ? "" : ", " + Diff));
}

void shortLaunch(unsigned Salt) {
  const unsigned N = 256;
  const int Add = int(Salt % 100000);
  std::vector<int> Out(N);
  auto K = mstage::kernel(
      [Add](auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        Out[I] = int(I) + mstage::stage(Add);
      },
      1, N);
  K(Out);
  std::string First = source();
  mstage::jit_wait();
  std::vector<int> Again(N);
  K(Again);
  std::string Second = source();
  bool Right = true;
  for (unsigned I = 0; I < N; ++I)
    Right = Right && Out[I] == int(I) + Add && Again[I] == int(I) + Add;
  std::string Expected = policy() == "sync" ? "miss" : "generic";
  bool Sources = onCpu() || (First == Expected && Second == "memory");
  Checks.report(Right && Sources, "a short launch (" + policy() + ") ran " + First +
                               " code, then " + Second +
                               (Right ? "" : "; results differ"));
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  unsigned Salt = unsigned(std::chrono::steady_clock::now().time_since_epoch() /
                           std::chrono::microseconds(1));
  longLaunch(Salt);
  shortLaunch(Salt);
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
