//===- AotImage.h - A unit's ahead-of-time generic kernel code ------------===//
//
// mstage++ compiles each translation unit's kernels once more, unfolded: the
// staged values and the launch extents are read at run time. The result is
// embedded as images, one per target: a cubin per -mstage-arch architecture
// when ptxas is installed, and PTX for newer GPUs (else PTX only). On a
// cache miss the runtime launches this generic code at once and compiles the
// specialization in the background.
//
// An image is a header, the kernel names, then the payload, in the section
// "mstage_aot", 16-byte aligned, so tools find images without running the
// program. Each generic kernel has the kernel's symbol name and its
// parameters, followed, when it has stage sites, by one parameter holding
// the staged values: site I at the sum of alignTo(size of site J, 16) over
// J < I, 16-byte aligned (the layout of the runtime's StagedLaunch buffer).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_FORMATS_AOTIMAGE_H
#define MSTAGE_PASSES_FORMATS_AOTIMAGE_H

#include "formats/KernelBlob.h"
#include "formats/KernelSymbol.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mstage {

inline constexpr char AotImageMagic[8] = {'M', 'S', 'T', 'G',
                                          'A', 'O', 'T', '1'};
inline constexpr uint32_t AotImageVersion = 1;
inline constexpr const char *AotImageSection = "mstage_aot";
inline constexpr unsigned AotImageAlign = 16;

enum class AotKind : uint32_t { Ptx = 0, Cubin = 1 };

struct AotImage {
  AotKind Kind = AotKind::Ptx;
  // The target: the cubin's architecture, or the PTX's (which GPUs of that
  // architecture and newer can load), as "sm_90".
  std::string Arch;
  // hashAotKernels of the unit's kernels, in their record order: an image
  // made for other kernels (a foreign or stale one) is not used.
  uint64_t KernelsHash = 0;
  std::vector<std::string> Kernels; // the generic kernels' symbols
  llvm::StringRef Payload;          // points into the image when read
};

// The hash that binds images to the kernels they were made from: of each
// kernel's bitcode hash, in order.
uint64_t hashAotKernels(llvm::ArrayRef<uint64_t> BitcodeHashes);

// Serializes Image, padded to AotImageAlign.
std::string writeAotImage(const AotImage &Image);

// Reads the image at Data, of at most MaxSize bytes: every offset and size
// is checked, and the payload against its checksum, so damage is an error
// (that starts with "corrupt mstage ahead-of-time image"), never a read out
// of bounds.
llvm::Expected<AotImage> readAotImage(const uint8_t *Data, size_t MaxSize);

// Reads every image of an mstage_aot section (images one after another,
// with zero padding between objects).
llvm::Expected<std::vector<AotImage>>
readAotSection(llvm::ArrayRef<uint8_t> Section);

// The bytes of the staged-values parameter of a generic kernel whose stage
// sites have these sizes (0 when it has none: no parameter).
uint64_t stagedParamSize(llvm::ArrayRef<uint32_t> SiteSizes);
// The same for a kernel's stage sites.
uint64_t stagedParamSize(llvm::ArrayRef<StageSite> Sites);

// The number of an architecture, "sm_90" or "sm_90a": 90; 0 for a name
// that is not sm_ and a number.
unsigned archNumber(llvm::StringRef Arch);

// The symbol of a kernel's second generic entry, compiled as if each pointer
// slot pointed into an allocation of its own (alias scopes between them,
// ld.global.nc for the read-only ones): the runtime launches it when the
// launch's facts say so (core/GenericCode.h). Without it, every load of the
// generic code must stay after the stores before it
// (bench/mstage_transpose.cpp's copy and naive kernels: docs/performance.md).
// Nested in the kernel's own name, the tools show it as main::kernel_L22::
// disjoint.
inline std::string disjointEntryName(llvm::StringRef Kernel) {
  return nestedKernelSymbol(Kernel, "disjoint");
}

} // namespace mstage

#endif
