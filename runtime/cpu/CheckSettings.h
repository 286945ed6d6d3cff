//===- CheckSettings.h - MSTAGE_CHECK and MSTAGE_CHECK_RTOL ---------------===//
//
// MSTAGE_CHECK is a comma-separated list: "cpu" runs each GPU launch again on
// the CPU back end and compares the outputs (CpuCheck.cpp); "stage" compares
// every execution of a stage() site on the CPU back end with the value that
// was folded (StageCheck.h); "off" or empty checks nothing.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CPU_CHECKSETTINGS_H
#define MSTAGE_RUNTIME_CPU_CHECKSETTINGS_H

#include <string>

namespace mstage::rt {

struct CheckSettings {
  bool Cpu = false;   // MSTAGE_CHECK=cpu
  bool Stage = false; // MSTAGE_CHECK=stage
  double Rtol = 1e-5;
  std::string Error; // a bad setting: every launch fails
};

const CheckSettings &checkSettings();

} // namespace mstage::rt

#endif
