//===- KernelTags.cpp - How the front end marks kernel entries ------------===//
#include "KernelTags.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace mstage {

// Fields are separated by the ASCII unit separator, which no name contains.
static constexpr char Sep = '\x1f';

std::string encodeKernelInfo(const KernelSourceInfo &Info) {
  return std::string(KernelInfoPrefix) + Info.Name + Sep + Info.PrettyName +
         Sep + Info.Location;
}

bool decodeKernelInfo(StringRef Annotation, KernelSourceInfo &Info) {
  if (!Annotation.consume_front(KernelInfoPrefix))
    return false;
  SmallVector<StringRef, 3> Fields;
  Annotation.split(Fields, Sep);
  if (Fields.size() != 3)
    return false;
  Info = {Fields[0].str(), Fields[1].str(), Fields[2].str()};
  return true;
}

} // namespace mstage
