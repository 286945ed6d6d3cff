//===- missing_device.cpp - GPU suite: naming a device that is not there --===//
//
// MSTAGE_DEVICE or MSTAGE_VISIBLE_DEVICES naming a device past the last is
// an error naming the variable, its value and the devices there are; it
// never falls back to the CPU back end (a GPU job silently run on the CPU).
// In children without MSTAGE_BACKEND (so that the back end is chosen):
//  - MSTAGE_DEVICE=<count>: devices() and the launch fail with the message;
//  - MSTAGE_VISIBLE_DEVICES=<count + 4>: the same;
//  - MSTAGE_DEVICE=<count - 1>, the last device: launches on the back end
//    this program runs on.
// Without a GPU the CPU back end has one device, 0, so the same holds there.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "missing_device";

SuiteChecks Checks(Name);

// What the child sees: its device count and where its launch ran, or the
// errors.
int child() {
  try {
    std::printf("devices: %zu\n", mstage::devices().size());
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  std::vector<int> V(4, 0);
  try {
    mstage::kernel([](auto &V) { V[0] = 7; }, 1, 1)(V);
    std::printf("launched on %s: %d\n", mstage_rt_backend(), V[0]);
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  return 0;
}

bool contains(const std::string &S, const std::string &Part) {
  return S.find(Part) != std::string::npos;
}

int run(int Argc, char **Argv) {
  if (Argc > 1 && !std::strcmp(Argv[1], "--child"))
    return child();
  if (skipWithoutGpu(Name))
    return 0;
  size_t Count = mstage::devices().size();
  std::string Backend = mstage_rt_backend();

  std::string Past = std::to_string(Count);
  ChildResult C = runThisProgram({"--child"}, {"MSTAGE_BACKEND",
                                               "MSTAGE_DEVICE=" + Past});
  Checks.report(C.Status == 0 &&
             contains(C.Output, "mstage: no device: MSTAGE_DEVICE=" + Past +
                                    " names device " + Past +
                                    ", but there") &&
             contains(C.Output, "cannot run: MSTAGE_DEVICE=" + Past) &&
             !contains(C.Output, "launched"),
         "MSTAGE_DEVICE=" + Past + " with " + std::to_string(Count) +
             " device(s) fails, naming it:\n" + C.Output);

  std::string Far = std::to_string(Count + 4);
  C = runThisProgram({"--child"},
                     {"MSTAGE_BACKEND", "MSTAGE_VISIBLE_DEVICES=" + Far});
  Checks.report(C.Status == 0 &&
             contains(C.Output, "MSTAGE_VISIBLE_DEVICES='" + Far +
                                    "' names device " + Far + ", but there") &&
             !contains(C.Output, "launched"),
         "MSTAGE_VISIBLE_DEVICES=" + Far + " fails, naming it:\n" + C.Output);

  std::string Last = std::to_string(Count - 1);
  C = runThisProgram({"--child"},
                     {"MSTAGE_BACKEND", "MSTAGE_DEVICE=" + Last});
  Checks.report(C.Status == 0 && contains(C.Output, "launched on " + Backend + ": 7"),
         "MSTAGE_DEVICE=" + Last + ", the last device, launches on " +
             Backend + ":\n" + C.Output);
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
