//===- JitSettings.h - MSTAGE_JIT and MSTAGE_JIT_THREADS ------------------===//
#ifndef MSTAGE_RUNTIME_JIT_JITSETTINGS_H
#define MSTAGE_RUNTIME_JIT_JITSETTINGS_H

#include <string>

namespace mstage::rt {

struct JitSettings {
  // MSTAGE_JIT=async (default): a launch that misses the in-memory cache
  // runs the kernel's ahead-of-time generic code while its specialization
  // compiles in the background. sync: it waits for the specialization.
  bool Async = true;
  // MSTAGE_JIT_THREADS: the background compile pool's workers (0: one per
  // hardware thread).
  unsigned Threads = 0;
  std::string Error; // what is wrong with either variable, or ""
};

// Read once.
const JitSettings &jitSettings();

} // namespace mstage::rt

#endif
