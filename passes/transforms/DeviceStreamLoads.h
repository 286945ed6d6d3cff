//===- DeviceStreamLoads.h - Streaming loads for the target ---------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICESTREAMLOADS_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICESTREAMLOADS_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mstage {

// The builtin of a 16-byte read-only load of data read once
// (include/mstage/ldg.hpp): the device lowering keeps its calls until the
// architecture is known, since the load's cache hints need PTX ISA 7.4.
inline constexpr const char *StreamLoadName = "__mstage_ldg_stream_v4u32";

// Replaces the calls of StreamLoadName with ld.global.nc.L1::no_allocate.
// L2::256B.v4.u32 where TM's architecture emits PTX that has those hints
// (sm_89 and later: NVPTX's lowest .version for them is 7.8), else with the
// plain non-coherent load of mstage::ldg.
void lowerStreamLoads(llvm::Module &M, const llvm::TargetMachine &TM);

} // namespace mstage

#endif
