//===- KernelBlob.h - The embedded form of one extracted kernel -----------===//
//
// Each kernel is embedded in the host object as one blob: a fixed header,
// NUL-terminated strings, the stage-site table and the device bitcode. The
// extraction pass writes it; the runtime and mstage-ptx read it. Blobs live in
// the section "mstage_kernels", 16-byte aligned, so tools can find them in an
// object or executable without running it.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_FORMATS_KERNELBLOB_H
#define MSTAGE_PASSES_FORMATS_KERNELBLOB_H

#include "formats/KernelTraits.h"
#include "formats/KernelWork.h"
#include "formats/PointerSlots.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mstage {

inline constexpr char KernelBlobMagic[8] = {'M', 'S', 'T', 'G',
                                            'K', 'R', 'N', '1'};
// 2: pointer slots; 3: flags (a unit built with -g at -O0); 4: the
// kernel's weight (formats/KernelWork.h); 5: its traits as flags
// (formats/KernelTraits.h); 6: its static shared memory.
inline constexpr uint32_t KernelBlobVersion = 6;
inline constexpr const char *KernelBlobSection = "mstage_kernels";
inline constexpr unsigned KernelBlobAlign = 16;

// What a staged value is, so that tools can print and parse it.
enum class StageKind : uint32_t { Bytes = 0, Signed, Unsigned, Float, Bool };

struct StageSite {
  StageKind Kind = StageKind::Bytes;
  uint32_t Size = 0;  // bytes
  uint32_t Align = 1; // bytes
  uint32_t Line = 0, Column = 0;
  std::string Expression; // source text of the staged expression, if known
  std::string TypeName;
};

struct KernelBlob {
  std::string Name;       // the device kernel's symbol
  std::string PrettyName; // e.g. "main::kernel_L9@saxpy.cpp:9:18"
  std::string Location;   // file:line:col of the lambda
  uint32_t NumParams = 0; // the lambda object plus the launch arguments
  uint64_t BitcodeHash = 0;
  std::vector<StageSite> StageSites;
  std::vector<PointerSlot> PointerSlots; // sorted (PointerSlots.h)
  llvm::StringRef Bitcode;               // points into the blob when read
  // The unit was compiled with -g at -O0: its bitcode is unoptimized and
  // keeps full debug information, and the JIT and ptxas compile it so for a
  // debugger to step through (docs/inspecting.md#stepping-in-cuda-gdb).
  bool DebugAtO0 = false;
  // Measured by the plugin on Bitcode, for the JIT policy.
  KernelWork Work;
  // Found by the plugin in Bitcode, for the back ends.
  KernelTraits Traits;
};

// Serializes Blob (with Bitcode) into bytes, padded to KernelBlobAlign.
std::string writeKernelBlob(const KernelBlob &Blob);

// Reads the blob at Data, of at most MaxSize bytes. Every offset and size is
// checked against the blob's bounds, and the bitcode against its hash, so a
// corrupt or crafted blob is an error, never a read out of bounds.
llvm::Expected<KernelBlob> readKernelBlob(const uint8_t *Data, size_t MaxSize);

// Reads every blob of an mstage_kernels section: blobs one after another,
// with zero padding between objects. Anything else is an error that gives
// its offset in the section.
llvm::Expected<std::vector<KernelBlob>>
readKernelSection(llvm::ArrayRef<uint8_t> Section);

// The most pointer slots a blob may list; more are corruption.
inline constexpr uint32_t MaxPointerSlots = 4096;

// The largest staged value, and alignment, a blob may describe; larger ones
// are corruption.
inline constexpr uint32_t MaxStageValueSize = 1u << 20;
inline constexpr uint32_t KernelBlobMaxAlign = 4096;

// Hash of device bitcode, as stored in the header.
uint64_t hashBitcode(llvm::StringRef Bitcode);

//===----------------------------------------------------------------------===//
// Device link data: one blob per translation unit that exports device code
// or whose kernels call functions defined in other units. It lives in its
// own section, so the kernel blobs (and their readers) are unchanged.
//===----------------------------------------------------------------------===//

inline constexpr char DeviceLinkMagic[8] = {'M', 'S', 'T', 'G',
                                            'L', 'N', 'K', '1'};
inline constexpr uint32_t DeviceLinkVersion = 1;
inline constexpr const char *DeviceLinkSection = "mstage_device_link";

// A function that the unit defines for other units' kernels.
struct DeviceExport {
  std::string Name;  // its symbol
  std::string Type;  // its LLVM function type, e.g. "float (float)"
  uint64_t Hash = 0; // of its device code and what it calls here
};

// A function that a kernel of the unit, or one of its exports, calls and
// that no file of the unit defines.
struct DeviceImport {
  std::string Requester; // the kernel's symbol, or the export's
  bool FromExport = false;
  std::string Name;     // the callee's symbol
  std::string Type;     // as the caller declares it
  std::string Location; // file:line:col of a call, if known
};

struct DeviceLinkBlob {
  std::string Source; // the unit's main file
  std::vector<DeviceExport> Exports;
  std::vector<DeviceImport> Imports;
  uint64_t BitcodeHash = 0;
  llvm::StringRef Bitcode; // the exports' module; empty without exports
};

// Serializes Blob, padded to KernelBlobAlign.
std::string writeDeviceLinkBlob(const DeviceLinkBlob &Blob);

// Reads the blob at Data, of at most MaxSize bytes, checking every offset
// and the bitcode's hash as readKernelBlob does.
llvm::Expected<DeviceLinkBlob> readDeviceLinkBlob(const uint8_t *Data,
                                                  size_t MaxSize);

// The blobs of a linked mstage_device_link section (one per unit, each
// padded to KernelBlobAlign), each checked by readDeviceLinkBlob.
llvm::Expected<std::vector<llvm::ArrayRef<uint8_t>>>
readDeviceLinkSection(llvm::ArrayRef<uint8_t> Section);

// The most exports or imports a blob may list; more are corruption.
inline constexpr uint32_t MaxDeviceLinkEntries = 1u << 20;

} // namespace mstage

#endif
