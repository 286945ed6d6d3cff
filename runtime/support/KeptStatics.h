//===- KeptStatics.h - LLVM's statics outlive the static destructors ------===//
//
// LLVM makes statics on first use (its pass gate, the real file system,
// NVPTX's caches, ...). Made during a program's run, they were destroyed at
// exit before the program's own statics made earlier, whose destructors may
// launch kernels and so compile ("LLVM crashed"). The statics made while one
// of these is alive on the thread are never destroyed: the runtime's
// __cxa_atexit wrapper (jit/CompilePool.cpp) does not register their
// destructors. Only LLVM's work is so scoped: the runtime's own statics
// with destructors that matter (the cubin writers') are made elsewhere.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_SUPPORT_KEPTSTATICS_H
#define MSTAGE_RUNTIME_SUPPORT_KEPTSTATICS_H

namespace mstage::rt {

inline thread_local unsigned KeptStaticsDepth = 0;

struct LlvmStaticsKept {
  LlvmStaticsKept() { ++KeptStaticsDepth; }
  ~LlvmStaticsKept() { --KeptStaticsDepth; }
  LlvmStaticsKept(const LlvmStaticsKept &) = delete;
  LlvmStaticsKept &operator=(const LlvmStaticsKept &) = delete;
};

} // namespace mstage::rt

#endif
