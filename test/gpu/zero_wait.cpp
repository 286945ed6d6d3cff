//===- zero_wait.cpp - GPU suite: generic code first, then specialized ----===//
//
// With MSTAGE_JIT=async, and with the default auto for launches as short as
// these (microseconds against a compile of milliseconds), a launch whose
// specialization is not in memory runs the kernel's ahead-of-time generic
// code at once, and its specialization compiles in the background:
//  - for kernels with stage sites of several sizes (a float, an int, a
//    double, a struct, a 64-bit value, a char), the first launch of a new
//    specialization runs the generic code (launch source 4) and, after
//    mstage::jit_wait(), a launch runs the specialized code (source 0); both
//    results equal a CPU reference computed here;
//  - a background compile that fails (a child run with a bad
//    MSTAGE_LLVM_ARGS, which only the JIT reads) is reported once, naming
//    the kernel, and the launches go on with the generic code's results;
//  - 16 threads launch 16 new specializations at once: every result is
//    right, and after jit_wait() each runs its specialized code.
// The staged values come from the clock, so that a warm disk cache does not
// make a first launch specialized. On the CPU back end (nothing compiles)
// only the results are checked.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char *Name = "zero_wait";
constexpr unsigned Block = 128;
unsigned N = 1 << 18; // MSTAGE_SUITE_QUICK=1: 1 << 10
unsigned Salt = 0; // makes this run's specializations new

SuiteChecks Checks(Name);

unsigned blocks() { return (N + Block - 1) / Block; }

template <class T>
std::string difference(const std::vector<T> &Got, const std::vector<T> &Want) {
  for (size_t I = 0; I < Got.size(); ++I)
    if (!(Got[I] == Want[I]) &&
        !(std::fabs(double(Got[I]) - double(Want[I])) <=
          1e-5 * std::fabs(double(Want[I]))))
      return "[" + std::to_string(I) + "] = " + std::to_string(Got[I]) +
             ", expected " + std::to_string(Want[I]);
  return "";
}

// The source of the last launch as the trace names it.
const char *source() {
  static const char *Names[] = {"memory", "disk", "miss", "off", "generic"};
  int S = mstage_rt_last_launch_source(nullptr);
  return S >= 0 && S <= 4 ? Names[S] : "unknown";
}

// Runs Launch twice, before and after jit_wait(): the first must run the
// generic code, the second the specialized code (on a GPU), and both give
// Want.
template <class T, class L>
void genericThenSpecialized(const std::string &What, L Launch,
                            const std::vector<T> &Want) {
  std::vector<T> First = Launch();
  std::string FirstSource = source();
  mstage::jit_wait();
  std::vector<T> Second = Launch();
  std::string SecondSource = source();
  std::string Diff = difference(First, Want);
  if (Diff.empty())
    Diff = difference(Second, Want);
  bool Sources = onCpu() || (FirstSource == "generic" &&
                             SecondSource == "memory");
  Checks.report(Diff.empty() && Sources,
         What + ": first launch " + FirstSource + ", after jit_wait " +
             SecondSource + (Diff.empty() ? "" : ", " + Diff));
}

void saxpy() {
  float A = 1.5f + float(Salt % 1000) / 1024;
  std::vector<float> X(N), Y(N), Want(N);
  for (unsigned I = 0; I < N; ++I) {
    X[I] = float(I % 97) * 0.25f;
    Y[I] = float(I % 13);
    Want[I] = A * X[I] + Y[I];
  }
  unsigned Len = N;
  auto K = mstage::kernel(
      [A, Len](const auto &X, auto &Y) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < mstage::stage(Len))
          Y[I] = mstage::stage(A) * X[I] + Y[I];
      },
      blocks(), Block);
  genericThenSpecialized(
      "saxpy (staged float and unsigned)",
      [&] {
        std::vector<float> Out = Y;
        K(X, Out);
        return Out;
      },
      Want);
}

struct Coefficients {
  double Scale;
  int Shift;
  char Tag;
};

void structAndDouble() {
  Coefficients C{2.0 + double(Salt % 777) / 512, int(Salt % 5) + 1, 'q'};
  double Offset = 0.125 * double(Salt % 31);
  std::vector<double> In(N), Want(N);
  for (unsigned I = 0; I < N; ++I) {
    In[I] = double(I % 101) / 7;
    Want[I] = In[I] * C.Scale + double(C.Shift) + Offset + double(C.Tag);
  }
  auto K = mstage::kernel(
      [C, Offset](const auto &In, auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        Coefficients S = mstage::stage(C);
        if (I < In.size())
          Out[I] = In[I] * S.Scale + double(S.Shift) + mstage::stage(Offset) +
                   double(S.Tag);
      },
      blocks(), Block);
  genericThenSpecialized(
      "a staged struct and a staged double",
      [&] {
        std::vector<double> Out(N);
        K(In, Out);
        return Out;
      },
      Want);
}

void wideAndNarrow() {
  uint64_t Mask = (uint64_t(0x9e3779b9) << 32) | (Salt | 1);
  char Step = char(1 + Salt % 7);
  std::vector<uint64_t> Want(N);
  for (unsigned I = 0; I < N; ++I)
    Want[I] = (uint64_t(I) * uint64_t(Step)) ^ Mask;
  auto K = mstage::kernel(
      [Mask, Step](auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Out.size())
          Out[I] = (uint64_t(I) * uint64_t(mstage::stage(Step))) ^
                   mstage::stage(Mask);
      },
      blocks(), Block);
  genericThenSpecialized(
      "a staged 64-bit value and a staged char",
      [&] {
        std::vector<uint64_t> Out(N);
        K(Out);
        return Out;
      },
      Want);
}

auto scaleKernel(int Factor) {
  return mstage::kernel(
      [Factor](auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Out.size())
          Out[I] = int(I) * mstage::stage(Factor);
      },
      blocks(), Block);
}

std::vector<int> scaled(int Factor) {
  std::vector<int> Want(N);
  for (unsigned I = 0; I < N; ++I)
    Want[I] = int(I) * Factor;
  return Want;
}

// The child of failingCompile(): its compiles fail (MSTAGE_LLVM_ARGS).
int failingChild() {
  int Factor = 3 + int(Salt % 1000);
  std::vector<int> Want = scaled(Factor);
  auto K = scaleKernel(Factor);
  bool OK = true;
  for (int Round = 0; Round < 3; ++Round) {
    std::vector<int> Out(N);
    K(Out);
    OK = OK && difference(Out, Want).empty() &&
         std::string(source()) == "generic";
    mstage::jit_wait();
  }
  std::printf("child: %s\n", OK ? "generic results right" : "wrong");
  return 0;
}

void failingCompile() {
  if (onCpu())
    return; // nothing compiles
  ChildResult C = runThisProgram({"failing-child"},
                                 {"MSTAGE_LLVM_ARGS=-mstage-no-such-option"});
  const std::string &Out = C.Output;
  size_t Reports = 0;
  for (size_t At = Out.find("its generic code keeps running");
       At != std::string::npos;
       At = Out.find("its generic code keeps running", At + 1))
    ++Reports;
  bool Named = Out.find("mstage: kernel '") != std::string::npos &&
               Out.find("MSTAGE_LLVM_ARGS") != std::string::npos;
  Checks.report(C.Status == 0 && Reports == 1 && Named &&
             Out.find("child: generic results right") != std::string::npos,
         "a failing background compile is reported once (" +
             std::to_string(Reports) + " reports) and the generic code "
             "keeps running" +
             (C.Status == 0 && Reports == 1 ? "" : ":\n" + Out));
}

void manyThreads() {
  constexpr int Threads = 16;
  std::vector<std::string> Problems(Threads);
  auto Round = [&](bool Specialized) {
    std::vector<std::thread> Pool;
    for (int T = 0; T < Threads; ++T)
      Pool.emplace_back([&, T] {
        try {
          int Factor = 100 + T + int(Salt % 1000) * 16;
          std::vector<int> Out(N);
          scaleKernel(Factor)(Out);
          std::string Source = source();
          std::string Diff = difference(Out, scaled(Factor));
          if (!Diff.empty())
            Problems[T] = Diff;
          else if (!onCpu() && Source != (Specialized ? "memory" : "generic"))
            Problems[T] = "source " + Source;
        } catch (const std::exception &E) {
          Problems[T] = E.what();
        }
      });
    for (std::thread &P : Pool)
      P.join();
  };
  Round(false);
  mstage::jit_wait();
  Round(true);
  std::string All;
  for (int T = 0; T < Threads; ++T)
    if (!Problems[T].empty())
      All += " thread " + std::to_string(T) + ": " + Problems[T];
  Checks.report(All.empty(), "16 threads launch 16 new specializations at once" +
                          (All.empty() ? "" : ":" + All));
}

int run(int Argc, char **Argv) {
  if (const char *Quick = std::getenv("MSTAGE_SUITE_QUICK"); Quick && *Quick)
    N = 1 << 10;
  if (const char *S = std::getenv("MSTAGE_ZERO_WAIT_SALT"))
    Salt = unsigned(std::atoi(S));
  else
    Salt = unsigned(std::chrono::steady_clock::now().time_since_epoch() /
                    std::chrono::microseconds(1));
  if (Argc > 1 && !std::strcmp(Argv[1], "failing-child"))
    return failingChild();
  if (skipWithoutGpu(Name))
    return 0;
  saxpy();
  structAndDouble();
  wideAndNarrow();
  failingCompile();
  manyThreads();
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
