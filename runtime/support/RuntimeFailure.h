//===- RuntimeFailure.h - The runtime's one error type ----------*- C++ -*-===//
//
// Every failure inside the runtime travels as an llvm::Error holding a
// RuntimeFailure: what went wrong, the CUDA error behind it (when a driver
// call failed) and the kernel it concerns (when the caller knows it). Its
// text, the one the user reads, is made in one place (log()):
//   mstage: kernel 'k': <message>   or   mstage: kernel 'k' <message>
//   mstage: <message>               (no kernel)
// The type lives here, in the lowest room, because cuda/ and jit/ make
// these errors too; core/RuntimeError.h hands them to the C ABI.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_SUPPORT_RUNTIMEFAILURE_H
#define MSTAGE_RUNTIME_SUPPORT_RUNTIMEFAILURE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mstage::rt {

class RuntimeFailure : public llvm::ErrorInfo<RuntimeFailure> {
public:
  static char ID;

  // How Message follows the kernel's name: after a colon, or as the rest of
  // the sentence ("kernel 'k' was launched with ...").
  enum class Join { Colon, Clause };

  explicit RuntimeFailure(std::string Message, int Code = 0,
                          Join How = Join::Colon)
      : Message(std::move(Message)), Code(Code), How(How) {}

  std::string Message;
  // A CUresult (cuda/ reads it); 0, CUDA_SUCCESS, when no driver call
  // failed. An int: the rooms above cuda/ need not see cuda.h for it.
  int Code = 0;
  Join How = Join::Colon;
  std::string Kernel; // empty: no kernel is named

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;
};

// A failure that names no kernel (yet).
llvm::Error failure(const llvm::Twine &Message,
                    RuntimeFailure::Join How = RuntimeFailure::Join::Colon);

// Applies Change to E's failure; an error of another type (from LLVM, from
// passes/) becomes a RuntimeFailure with its text first. Success stays.
llvm::Error updateFailure(llvm::Error E,
                          llvm::function_ref<void(RuntimeFailure &)> Change);

// E, naming Kernel unless it names one already.
llvm::Error withKernel(llvm::Error E, llvm::StringRef Kernel);

// E's message after What: "What: <message>", joined to the kernel's name as
// How says.
llvm::Error context(llvm::Error E, const llvm::Twine &What,
                    RuntimeFailure::Join How = RuntimeFailure::Join::Colon);

// The CUresult E carries (0 for success or none); E stays as it was.
int failureCode(llvm::Error &E);

// E as one RuntimeFailure, to be kept: an Error is reported once, a failure
// kept in a cache entry may be reported by every launch that finds it.
// Consumes E, which must be a failure.
RuntimeFailure takeFailure(llvm::Error E);

// E's message alone, without "mstage: " and the kernel's name, for a
// reason that is kept as text (a back end's). Consumes E.
std::string failureMessage(llvm::Error E);

} // namespace mstage::rt

#endif
