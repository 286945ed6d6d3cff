//===- StageValueText.cpp - Staged values as text, and back ---------------===//
#include "formats/StageValueText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;

namespace mstage {
namespace {

template <class T> T load(StringRef Bytes) {
  assert(Bytes.size() >= sizeof(T) && "a value has its type's bytes");
  T V;
  std::memcpy(&V, Bytes.data(), sizeof(V));
  return V;
}

// An integer of 1, 2, 4 or 8 bytes as text; "" for other sizes.
std::string integerText(StringRef B, bool Signed) {
  switch (B.size()) {
  case 1:
    return Signed ? itostr(load<int8_t>(B)) : utostr(load<uint8_t>(B));
  case 2:
    return Signed ? itostr(load<int16_t>(B)) : utostr(load<uint16_t>(B));
  case 4:
    return Signed ? itostr(load<int32_t>(B)) : utostr(load<uint32_t>(B));
  case 8:
    return Signed ? itostr(load<int64_t>(B)) : utostr(load<uint64_t>(B));
  }
  return "";
}

bool isNumber(const StageSite &S) {
  switch (S.Kind) {
  case StageKind::Signed:
  case StageKind::Unsigned:
    return S.Size == 1 || S.Size == 2 || S.Size == 4 || S.Size == 8;
  case StageKind::Float:
    return S.Size == 4 || S.Size == 8;
  case StageKind::Bool:
    return S.Size == 1;
  case StageKind::Bytes:
    break;
  }
  return false;
}

} // namespace

std::string stageTypeName(const StageSite &S) {
  if (isNumber(S)) {
    switch (S.Kind) {
    case StageKind::Signed:
      return "int" + utostr(S.Size * 8);
    case StageKind::Unsigned:
      return "uint" + utostr(S.Size * 8);
    case StageKind::Float:
      return S.Size == 4 ? "float" : "double";
    case StageKind::Bool:
      return "bool";
    case StageKind::Bytes:
      break;
    }
  }
  return utostr(S.Size) + "-byte value";
}

std::string formatStageValue(const StageSite &S, StringRef Bytes) {
  if (!isNumber(S) || Bytes.size() != S.Size)
    return "0x" + toHex(arrayRefFromStringRef(Bytes), /*LowerCase=*/true);
  std::string Text;
  raw_string_ostream OS(Text);
  switch (S.Kind) {
  case StageKind::Bool:
    OS << (Bytes[0] ? "true" : "false");
    break;
  case StageKind::Signed:
  case StageKind::Unsigned:
    OS << integerText(Bytes, S.Kind == StageKind::Signed);
    break;
  case StageKind::Float:
    if (S.Size == 4)
      OS << format("%.9g", load<float>(Bytes));
    else
      OS << format("%.17g", load<double>(Bytes));
    break;
  case StageKind::Bytes:
    break;
  }
  return Text;
}

std::optional<std::string> parseStageValue(const StageSite &S, StringRef Text) {
  Text = Text.trim();
  std::string Bytes(S.Size, '\0');
  if (!isNumber(S)) {
    std::string Raw;
    if (!Text.consume_front("0x") || Text.size() != S.Size * 2 ||
        !tryGetFromHex(Text, Raw))
      return std::nullopt;
    return Raw;
  }
  unsigned Bits = S.Size * 8;
  switch (S.Kind) {
  case StageKind::Bool:
    if (Text == "true" || Text == "1")
      Bytes[0] = 1;
    else if (Text != "false" && Text != "0")
      return std::nullopt;
    return Bytes;
  case StageKind::Signed: {
    int64_t V;
    if (Text.getAsInteger(0, V) ||
        (Bits < 64 &&
         (V < -(int64_t(1) << (Bits - 1)) || V >= (int64_t(1) << (Bits - 1)))))
      return std::nullopt;
    std::memcpy(Bytes.data(), &V, S.Size); // little-endian hosts
    return Bytes;
  }
  case StageKind::Unsigned: {
    uint64_t V;
    if (Text.getAsInteger(0, V) || (Bits < 64 && V >> Bits))
      return std::nullopt;
    std::memcpy(Bytes.data(), &V, S.Size);
    return Bytes;
  }
  case StageKind::Float: {
    double D;
    if (Text.getAsDouble(D))
      return std::nullopt;
    if (S.Size == 4) {
      float F = float(D);
      std::memcpy(Bytes.data(), &F, 4);
    } else {
      std::memcpy(Bytes.data(), &D, 8);
    }
    return Bytes;
  }
  case StageKind::Bytes:
    break;
  }
  return std::nullopt;
}

} // namespace mstage
