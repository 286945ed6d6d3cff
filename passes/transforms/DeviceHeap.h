//===- DeviceHeap.h - operator new and delete on the device heap ----------===//
//
// Kernel code may allocate: malloc and free are the CUDA device runtime's
// own (the driver resolves them), and the global operator new and delete
// (not the aligned forms, which the kernel checks reject) become malloc and
// free. The device heap is fixed in size (mstage::set_device_heap_size): a
// malloc that finds it exhausted returns null, as in CUDA; an operator new
// that does stops the launch through __assert_fail, with its place and the
// function, as a failed assert does (the host throws std::bad_alloc there;
// a kernel cannot throw). The nothrow forms return null.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEHEAP_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEHEAP_H

namespace llvm {
class Module;
} // namespace llvm

namespace mstage {

// The message of an operator new that found the device heap exhausted.
inline constexpr const char *HeapExhaustedMessage =
    "mstage: operator new found the device heap exhausted; raise it with "
    "mstage::set_device_heap_size before the first launch that allocates";

// Replaces the calls of operator new and delete in the device module M with
// malloc and free, after retargeting (no invokes left) and before
// lowerAssert.
void lowerDeviceHeap(llvm::Module &M);

} // namespace mstage

#endif
