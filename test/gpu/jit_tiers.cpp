//===- jit_tiers.cpp - GPU suite: tier-0 code, then tier 1 ----------------===//
//
// With tiers on (MSTAGE_JIT_TIERS, the default on a GPU), a launch whose
// specialization is not ready runs the generic code, then the quick tier-0
// code once it is loaded (launch source 5), then tier 1 from memory (source
// 0), which replaces it. Every launch's result, whichever code ran, equals a
// CPU reference computed here; under the default policy the program must
// see all three kinds of code in that order. With MSTAGE_JIT=sync or
// MSTAGE_JIT_TIERS=off it sees no tier 0, and under MSTAGE_CHECK (each
// launch slower, so the tier-0 window may pass between two) or on the CPU it
// checks only the results. The
// staged values come from the clock, so that a warm disk cache does not
// make the first launch specialized.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "jit_tiers";
constexpr unsigned Block = 128, N = 1 << 16;
constexpr int MemorySource = 0, Tier0Source = 5;

bool envIs(const char *Var, const char *Value) {
  const char *V = std::getenv(Var);
  return V && !std::strcmp(V, Value);
}

int run() {
  if (!onCpu() && skipWithoutGpu(Name))
    return 0;
  unsigned Salt = unsigned(
      std::chrono::steady_clock::now().time_since_epoch().count() % 100000);
  unsigned Terms = 5 + Salt % 7;
  std::vector<unsigned> In(N);
  for (unsigned I = 0; I < N; ++I)
    In[I] = I * 2654435761u;
  std::vector<unsigned> Want(N);
  for (unsigned I = 0; I < N; ++I) {
    unsigned S = Salt;
    for (unsigned T = 0; T < Terms; ++T)
      S += (In[I] ^ T) * (T + 3);
    Want[I] = S;
  }
  mstage::device_vector<unsigned> DIn(In), DOut(N);
  auto K = mstage::kernel(
      [Salt, Terms](const auto &In, auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        unsigned S = mstage::stage(Salt);
        for (unsigned T = 0; T < mstage::stage(Terms); ++T)
          S += (In[I] ^ T) * (T + 3);
        Out[I] = S;
      },
      N / Block, Block);
  std::vector<int> Seen; // the sources in the order they first ran
  auto T0 = std::chrono::steady_clock::now();
  int Source = -1;
  do {
    K(DIn, DOut);
    Source = mstage_rt_last_launch_source(nullptr);
    if (DOut.download() != Want) {
      std::printf("FAIL %s: launch of source %d differs from the CPU\n", Name,
                  Source);
      return 1;
    }
    if (Seen.empty() || Seen.back() != Source)
      Seen.push_back(Source);
  } while (Source != MemorySource && !onCpu() &&
           std::chrono::steady_clock::now() - T0 < std::chrono::seconds(10));
  std::string Order;
  for (int S : Seen)
    Order += " " + std::to_string(S);
  bool Tiers = !onCpu() && !envIs("MSTAGE_JIT", "sync") &&
               !envIs("MSTAGE_JIT_TIERS", "off") && !std::getenv("MSTAGE_CHECK");
  // Tier 0 ran, and was replaced by tier 1: generic (4), 5, then 0.
  if (Tiers && !(Seen.size() == 3 && Seen[0] == 4 && Seen[1] == Tier0Source &&
                 Seen[2] == MemorySource)) {
    std::printf("FAIL %s: sources in order%s, not 4 5 0\n", Name,
                Order.c_str());
    return 1;
  }
  std::printf("PASS %s: %u ints, code sources in order%s\n", Name, N,
              Order.c_str());
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
