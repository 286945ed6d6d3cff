//===- DeviceAssertFail.h - A device trap that says where it happened -----===//
//
// The device heap (an exhausted new) and the library's throws stop the
// launch as a failed assert does: a call of __assert_fail with a message, the
// place of the call it stands for, and the demangled function, which CUDA
// prints before the launch fails with CUDA_ERROR_ASSERT.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEASSERTFAIL_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEASSERTFAIL_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class CallInst;
class Instruction;
} // namespace llvm

namespace mstage {

// Inserts __assert_fail(Message, file, line, function) before InsertBefore,
// with the file and line of Site ("kernel code" and 0 without debug info) and
// Site's function. Prefix names the strings' globals ("mstage.heap" gives
// mstage.heap.msg, .file and .function).
llvm::CallInst *createAssertFail(llvm::Instruction *InsertBefore,
                                 const llvm::Instruction &Site,
                                 llvm::StringRef Message,
                                 llvm::StringRef Prefix);

} // namespace mstage

#endif
