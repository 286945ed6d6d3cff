//===- RuntimeFailure.cpp - The runtime's one error type ------------------===//
#include "support/RuntimeFailure.h"

#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace llvm;

namespace mstage::rt {

char RuntimeFailure::ID = 0;

// The only place that writes the "mstage: kernel 'k': " prefix.
void RuntimeFailure::log(raw_ostream &OS) const {
  OS << "mstage: ";
  if (!Kernel.empty())
    OS << "kernel '" << Kernel << (How == Join::Clause ? "' " : "': ");
  OS << Message;
}

std::error_code RuntimeFailure::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

Error failure(const Twine &Message, RuntimeFailure::Join How) {
  return make_error<RuntimeFailure>(Message.str(), 0, How);
}

Error updateFailure(Error E, function_ref<void(RuntimeFailure &)> Change) {
  return handleErrors(
      std::move(E),
      [&](std::unique_ptr<RuntimeFailure> F) -> Error {
        Change(*F);
        return Error(std::move(F));
      },
      [&](std::unique_ptr<ErrorInfoBase> Other) -> Error {
        auto F = std::make_unique<RuntimeFailure>(Other->message());
        Change(*F);
        return Error(std::move(F));
      });
}

Error withKernel(Error E, StringRef Kernel) {
  return updateFailure(std::move(E), [&](RuntimeFailure &F) {
    if (F.Kernel.empty())
      F.Kernel = Kernel.str();
  });
}

Error context(Error E, const Twine &What, RuntimeFailure::Join How) {
  return updateFailure(std::move(E), [&](RuntimeFailure &F) {
    F.Message = (What + ": " + F.Message).str();
    F.How = How;
  });
}

int failureCode(Error &E) {
  int Code = 0;
  E = updateFailure(std::move(E), [&](RuntimeFailure &F) { Code = F.Code; });
  return Code;
}

RuntimeFailure takeFailure(Error E) {
  assert(E && "takeFailure takes a failure");
  RuntimeFailure Kept("");
  consumeError(
      updateFailure(std::move(E), [&](RuntimeFailure &F) { Kept = F; }));
  return Kept;
}

std::string failureMessage(Error E) {
  return takeFailure(std::move(E)).Message;
}

} // namespace mstage::rt
