//===- Elapsed.h - Milliseconds since a point in time -----------*- C++ -*-===//
#ifndef MSTAGE_RUNTIME_SUPPORT_ELAPSED_H
#define MSTAGE_RUNTIME_SUPPORT_ELAPSED_H

#include <chrono>

namespace mstage::rt {

// The milliseconds from T0 to now, for LaunchTimes and the JIT's phases.
inline double msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T0)
      .count();
}

} // namespace mstage::rt

#endif
