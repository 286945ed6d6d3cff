//===- StageValueTextFuzzer.cpp - Fuzz the staged-value text parser -------===//
//
// mstage-ptx --stage SITE=VALUE reads VALUE with parseStageValue, for a site
// of any kind and size a blob can describe. The input's first two bytes
// choose the site's kind and size, the rest is the text. A value that parses
// must have the site's size, and print (formatStageValue, as MSTAGE_TRACE
// and the dump show it) as text that parses to the same value.
//
//===----------------------------------------------------------------------===//
#include "formats/KernelBlob.h"
#include "formats/StageValueText.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace mstage;

namespace {

bool isNaN(const StageSite &S, const std::string &Bytes) {
  if (S.Kind != StageKind::Float)
    return false;
  if (S.Size == 4) {
    float F;
    std::memcpy(&F, Bytes.data(), 4);
    return std::isnan(F);
  }
  double D;
  std::memcpy(&D, Bytes.data(), 8);
  return std::isnan(D);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 2)
    return 0;
  static const uint32_t Sizes[] = {0, 1, 2, 3, 4, 8, 16, 24};
  StageSite Site;
  Site.Kind = static_cast<StageKind>(Data[0] % 5);
  Site.Size = Sizes[Data[1] % 8];
  llvm::StringRef Text(reinterpret_cast<const char *>(Data + 2), Size - 2);

  (void)stageTypeName(Site);
  std::optional<std::string> Bytes = parseStageValue(Site, Text);
  if (!Bytes)
    return 0;
  if (Bytes->size() != Site.Size)
    std::abort();
  std::string Shown = formatStageValue(Site, *Bytes);
  std::optional<std::string> Again = parseStageValue(Site, Shown);
  if (!Again)
    std::abort(); // what the trace prints, mstage-ptx must read
  if (*Again != *Bytes && !(isNaN(Site, *Bytes) && isNaN(Site, *Again)))
    std::abort();
  return 0;
}
