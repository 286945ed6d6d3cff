//===- KernelEntryWait.h - griddepcontrol at a kernel's entry ---*- C++ -*-===//
//
// Programmatic Dependent Launch (sm_90): a kernel launched with programmatic
// stream serialization may start before the kernel before it on its stream
// has finished, and must wait (griddepcontrol.wait) for that kernel's grid
// to complete and its memory to be visible before it reads or writes
// anything the other kernel may touch. Without such a dependency the wait
// returns at once. The JIT puts the wait first in each specialization, so
// that the runtime may launch every specialization programmatically: nothing
// of the kernel's own runs before it. Right after it, launch_dependents lets
// the kernel after this one be scheduled as soon as every block of this one
// has passed its wait (the later kernel still waits for this one's end).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_KERNELENTRYWAIT_H
#define MSTAGE_PASSES_TRANSFORMS_KERNELENTRYWAIT_H

namespace llvm {
class Function;
} // namespace llvm

namespace mstage {

// Puts llvm.nvvm.griddepcontrol.wait and then
// llvm.nvvm.griddepcontrol.launch_dependents at Kernel's entry, after its
// static allocas (which touch no memory). Kernel is defined and its module
// targets NVPTX; it is run after the optimizer, which must not move code
// above the wait.
void addKernelEntryWait(llvm::Function &Kernel);

} // namespace mstage

#endif
