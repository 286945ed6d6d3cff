//===- LaunchKind.h - How the driver is asked to launch a kernel -*- C++
//-*-===//
//
// Most launches are plain. A kernel that synchronizes its grid is launched
// cooperatively. A JIT specialization that begins with griddepcontrol.wait
// (transforms/KernelEntryWait.h, MSTAGE_PDL) is launched programmatically:
// with CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, so that it may
// start while the kernel before it on the stream finishes, and wait at its
// entry for that kernel's memory (Programmatic Dependent Launch, sm_90).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CUDA_LAUNCHKIND_H
#define MSTAGE_RUNTIME_CUDA_LAUNCHKIND_H

#include <cstdint>

namespace mstage::rt {

enum class LaunchKind : uint8_t { Plain, Cooperative, Programmatic };

} // namespace mstage::rt

#endif
