//===- StageValueText.h - Staged values as text, and back -----------------===//
//
// How tools show a stage site's type and value (MSTAGE_TRACE, the dump's JSON
// sidecar, mstage-ptx) and how mstage-ptx reads a value from its command
// line. Values are little-endian bytes, as the host evaluators write them.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_FORMATS_STAGEVALUETEXT_H
#define MSTAGE_PASSES_FORMATS_STAGEVALUETEXT_H

#include "formats/KernelBlob.h"

#include <optional>
#include <string>

namespace mstage {

// "int32", "uint64", "float", "double", "bool", or "16-byte value".
std::string stageTypeName(const StageSite &Site);

// An integer, a float, true/false, or 0x and the bytes in memory order.
std::string formatStageValue(const StageSite &Site, llvm::StringRef Bytes);

// The bytes of Text as a value of Site's type (what formatStageValue
// writes; integers also in hex, bools also as 0/1), or nothing when Text is
// not one or does not fit.
std::optional<std::string> parseStageValue(const StageSite &Site,
                                           llvm::StringRef Text);

} // namespace mstage

#endif
