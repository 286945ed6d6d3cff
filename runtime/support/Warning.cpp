//===- Warning.cpp - The runtime's one way to warn on stderr --------------===//
#include "support/Warning.h"

#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <string>

using namespace llvm;

namespace mstage::rt {

void warn(const RuntimeFailure &F) {
  assert(!F.Message.empty() && "a warning says what is wrong");
  std::string Line;
  raw_string_ostream OS(Line);
  F.log(OS);
  Line += '\n';
  errs() << Line; // unbuffered: one write
}

void warn(const Twine &Message) { warn(RuntimeFailure(Message.str())); }

void warn(StringRef Kernel, const Twine &Message) {
  RuntimeFailure F(Message.str());
  F.Kernel = Kernel.str();
  warn(F);
}

void warn(Error E, const Twine &After) {
  assert(E && "a warning made from an error needs one");
  RuntimeFailure F = takeFailure(std::move(E));
  F.Message += After.str();
  warn(F);
}

} // namespace mstage::rt
