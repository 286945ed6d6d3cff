//===- AotImage.cpp - A unit's ahead-of-time generic kernel code ----------===//
#include "formats/AotImage.h"
#include "formats/BinaryFormat.h"

#include "llvm/ADT/SmallVector.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace llvm;

namespace mstage {
namespace {

// Header layout: all fields little-endian, offsets relative to the image.
struct Header {
  BinaryPrefix Prefix;
  uint32_t Kind;
  uint32_t NumKernels;
  char Arch[16]; // NUL-terminated
  uint64_t KernelsHash;
  uint64_t NamesOffset; // NumKernels NUL-terminated names
  uint64_t NamesSize;
  uint64_t PayloadOffset;
  uint64_t PayloadSize;
  uint64_t PayloadHash; // xxh3 of the payload
};
static_assert(sizeof(Header) == 96, "the ahead-of-time image header changed");

constexpr BinaryFormat AotFormat = {AotImageMagic, AotImageVersion,
                                    sizeof(Header), "ahead-of-time image"};

Error bad(const Twine &Why) { return corrupt(AotFormat, Why); }

} // namespace

uint64_t hashAotKernels(ArrayRef<uint64_t> BitcodeHashes) {
  return xxh3_64bits(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(BitcodeHashes.data()),
                        BitcodeHashes.size() * sizeof(uint64_t)));
}

uint64_t stagedParamSize(ArrayRef<uint32_t> SiteSizes) {
  uint64_t Size = 0;
  for (uint32_t S : SiteSizes)
    Size += alignTo(uint64_t(S), 16); // in 64 bits: 2^32 - 1 must not wrap
  return Size;
}

uint64_t stagedParamSize(ArrayRef<StageSite> Sites) {
  SmallVector<uint32_t, 8> Sizes;
  for (const StageSite &S : Sites)
    Sizes.push_back(S.Size);
  return stagedParamSize(Sizes);
}

std::string writeAotImage(const AotImage &Image) {
  std::string Names;
  for (const std::string &N : Image.Kernels)
    Names.append(N.c_str(), N.size() + 1);
  // [Header][Names][pad][Payload][pad]
  uint64_t NamesOff = sizeof(Header);
  uint64_t PayloadOff = alignTo(NamesOff + Names.size(), AotImageAlign);
  uint64_t Total = alignTo(PayloadOff + Image.Payload.size(), AotImageAlign);

  Header H;
  std::memset(&H, 0, sizeof(H));
  H.Prefix = makePrefix(AotFormat, Total);
  H.Kind = static_cast<uint32_t>(Image.Kind);
  H.NumKernels = Image.Kernels.size();
  assert(Image.Arch.size() < sizeof(H.Arch) &&
         "an architecture's name fits its header field");
  std::strncpy(H.Arch, Image.Arch.c_str(), sizeof(H.Arch) - 1);
  H.KernelsHash = Image.KernelsHash;
  H.NamesOffset = NamesOff;
  H.NamesSize = Names.size();
  H.PayloadOffset = PayloadOff;
  H.PayloadSize = Image.Payload.size();
  H.PayloadHash = xxh3_64bits(Image.Payload);

  std::string Out(Total, '\0');
  place(Out, 0, &H, sizeof(H));
  place(Out, NamesOff, Names.data(), Names.size());
  place(Out, PayloadOff, Image.Payload.data(), Image.Payload.size());
  return Out;
}

Expected<AotImage> readAotImage(const uint8_t *Data, size_t MaxSize) {
  Header H;
  if (Error E = readHeader(AotFormat, Data, MaxSize, H))
    return std::move(E);
  if (H.Kind > static_cast<uint32_t>(AotKind::Cubin))
    return bad("unknown kind " + Twine(H.Kind));
  if (H.Arch[sizeof(H.Arch) - 1] != '\0' ||
      !StringRef(H.Arch).starts_with("sm_"))
    return bad("bad architecture");
  if (!fits(H.NamesOffset, H.NamesSize, H.Prefix.TotalSize) ||
      !fits(H.PayloadOffset, H.PayloadSize, H.Prefix.TotalSize))
    return bad("names or payload out of range");
  AotImage I;
  I.Kind = static_cast<AotKind>(H.Kind);
  I.Arch = H.Arch;
  I.KernelsHash = H.KernelsHash;
  StringRef Names(reinterpret_cast<const char *>(Data + H.NamesOffset),
                  H.NamesSize);
  for (uint32_t K = 0; K < H.NumKernels; ++K) {
    size_t End = Names.find('\0');
    if (End == StringRef::npos || End == 0)
      return bad("kernel name " + Twine(K) + " is empty or unterminated");
    I.Kernels.push_back(Names.take_front(End).str());
    Names = Names.drop_front(End + 1);
  }
  if (!Names.empty())
    return bad("trailing bytes after the kernel names");
  I.Payload = StringRef(reinterpret_cast<const char *>(Data + H.PayloadOffset),
                        H.PayloadSize);
  if (xxh3_64bits(I.Payload) != H.PayloadHash)
    return bad("the " + Twine(I.Kind == AotKind::Cubin ? "cubin" : "PTX") +
               " for " + I.Arch + " does not match its checksum");
  return I;
}

Expected<std::vector<AotImage>> readAotSection(ArrayRef<uint8_t> Section) {
  return readSection(Section, AotImageSection, AotImageAlign, readAotImage);
}

unsigned archNumber(StringRef Arch) {
  unsigned N = 0;
  if (!Arch.consume_front("sm_") || Arch.consumeInteger(10, N))
    return 0;
  return N;
}

} // namespace mstage
