//===- multi_device_threads.cpp - GPU suite: one host thread per GPU -------===//
//
// Each visible device is driven by a host thread of its own (device_guard):
// every thread makes its device's memory, launches 200 dependent kernels
// on its current stream, with several specializations (staged values that
// differ per device and per round) and waits; all threads run at once.
// Each device's result matches a CPU reference, every launch ran on the
// thread's device (its vector's pointer and stream are that device's), and
// the threads' wall time is printed beside one device's alone, for a look at
// whether the devices overlap (no global lock on the launch path). With one
// device the program checks that device alone.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char *Name = "multi_device_threads";
unsigned N = 1 << 22; // MSTAGE_SUITE_QUICK=1: 1 << 12
constexpr unsigned Rounds = 200;

SuiteChecks Checks(Name);

// x[i] = x[i] * Mul + i, Mul staged: one specialization per value.
auto Step = mstage::kernel(
    [](auto &X, unsigned Mul) {
      unsigned M = mstage::stage(Mul);
      for (size_t I : mstage::grid_stride_range(size_t(0), X.size()))
        X[I] = X[I] * M + unsigned(I);
    },
    512, 256);

unsigned multiplier(unsigned Device, unsigned Round) {
  return 1 + (Device + Round) % 4;
}

std::vector<unsigned> reference(unsigned Device) {
  std::vector<unsigned> X(N, Device);
  for (unsigned R = 0; R < Rounds; ++R)
    for (unsigned I = 0; I < N; ++I)
      X[I] = X[I] * multiplier(Device, R) + I;
  return X;
}

// Drives device D, its result into Out: returns "" or what went wrong.
std::string drive(const mstage::device &D, std::vector<unsigned> &Out) {
  try {
    mstage::device_guard G(D);
    mstage::device_vector<unsigned> X(N, D.index());
    for (unsigned R = 0; R < Rounds; ++R)
      Step(X, multiplier(D.index(), R));
    if (mstage::current_stream().device() != D ||
        unsigned(mstage_rt_pointer_device(X.data())) != D.index())
      return "not on device " + std::to_string(D.index());
    X.download(Out);
    return "";
  } catch (const std::exception &E) {
    return E.what();
  }
}

double seconds(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
      .count();
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  if (const char *Q = std::getenv("MSTAGE_SUITE_QUICK"); Q && *Q == '1')
    N = 1 << 12;
  std::vector<mstage::device> All = mstage::devices();
  std::vector<std::vector<unsigned>> Results(All.size());
  drive(All[0], Results[0]); // compiles device 0's specializations
  auto T0 = std::chrono::steady_clock::now();
  std::string Alone = drive(All[0], Results[0]);
  double AloneS = seconds(T0);
  Checks.report(Alone.empty() && Results[0] == reference(0),
         "device 0 driven alone " + Alone);

  std::vector<std::string> Errors(All.size());
  std::vector<std::thread> Threads;
  T0 = std::chrono::steady_clock::now();
  for (size_t I = 0; I < All.size(); ++I)
    Threads.emplace_back([&, I] { Errors[I] = drive(All[I], Results[I]); });
  for (std::thread &T : Threads)
    T.join();
  double AllS = seconds(T0);
  std::string Why;
  for (size_t I = 0; I < All.size(); ++I)
    if (!Errors[I].empty())
      Why += " " + Errors[I];
    else if (Results[I] != reference(unsigned(I)))
      Why += " device " + std::to_string(I) + ": wrong result";
  Checks.report(Why.empty(), std::to_string(All.size()) +
                          " threads drive one device each at once" + Why);
  std::printf("# one device alone %.3f s, %zu devices "
              "at once %.3f s\n",
              AloneS, All.size(), AllS);
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
