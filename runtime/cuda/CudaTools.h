//===- CudaTools.h - The CUDA toolkit's ptxas and cuobjdump ---------------===//
//
// The runtime needs only the driver. When the toolkit is installed, its
// ptxas assembles the JIT's PTX into a whole-program cubin: the same SASS
// as the driver's own PTX JIT (824 instructions for the n-body kernel both
// ways), but a cubin loads in well under a millisecond, so the disk cache
// keeps it. The driver's cuLink* would give relocatable code, which measured
// 3% slower (docs/architecture.md, 'The kernel cache').
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CUDA_CUDATOOLS_H
#define MSTAGE_RUNTIME_CUDA_CUDATOOLS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Program.h"

#include <memory>
#include <optional>

#include "aot/CudaToolkit.h"

#include <string>

namespace mstage::rt {

using mstage::findCudaTool;

// The ptxas that kernels are assembled with, read once: MSTAGE_PTXAS (a
// path, or "off" to load PTX through the driver instead), else
// findCudaTool("ptxas"); "" when there is none or it is off. A path given
// in MSTAGE_PTXAS that cannot be run is reported once on stderr.
const std::string &ptxasPath();

// ptxas ran and found fault with the PTX: the kernel's error, not the
// tool's. Any other failure (no ptxas, it cannot be started, it dies of a
// signal, it exits without a ptxas diagnostic, or it is too old for the
// PTX's .version or .target or the -arch) is a plain StringError.
class PtxRejected : public llvm::ErrorInfo<PtxRejected> {
public:
  static char ID;
  std::string Command, Log; // the ptxas command line and its messages
  PtxRejected(std::string Command, std::string Log)
      : Command(std::move(Command)), Log(std::move(Log)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
};

// ptxas's temporary files could not be written, most often for a full disk:
// the directory's failure (Dir, "" for the system's temporary directory),
// not ptxas's, which stays usable.
class TempFilesFailed : public llvm::ErrorInfo<TempFilesFailed> {
public:
  static char ID;
  std::string Dir, What; // What: "cannot write <file>" or ptxas's failure
  std::error_code EC;
  TempFilesFailed(std::string Dir, std::string What, std::error_code EC)
      : Dir(std::move(Dir)), What(std::move(What)), EC(EC) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override { return EC; }
};

// Where a ptxas run links its PTX and cubin once it has succeeded, when the
// run may outlive its process (the exit hands it over, CompilePool.h): then
// a shell runs ptxas and links the two files there (the cubin last), so
// that a later process finds them whole. The run still reads its own files.
// RunPath holds the shell's process id until it ends.
struct PtxasKeep {
  std::string PtxPath, CubinPath, RunPath;
};

// Assembles PTX into a cubin for Arch (sm_XY) with ptxasPath(). An error
// carries ptxas's own message. Temporary files go to TempDir, else to the
// system's temporary directory. With Report, ptxas runs with -v and Report
// receives its resource report (PtxResources.h parses it).
// With Keep, the run keeps its files there (PtxasKeep) and OnWait is called
// with true before the wait for ptxas and with false after it. OptLevel
// 0-3 is ptxas's -O (-1: its default, -O3).
llvm::Expected<std::string>
assembleCubin(llvm::StringRef PTX, llvm::StringRef Arch,
              llvm::StringRef TempDir = "", std::string *Report = nullptr,
              std::optional<PtxasKeep> Keep = std::nullopt,
              llvm::function_ref<void(bool)> OnWait = {}, int OptLevel = -1);

// The same in two steps, so that ptxas runs while the caller goes on: a
// started ptxas process and its files (removed with it).
struct PtxasRun {
  llvm::sys::ProcessInfo Process;
  std::string Command, PtxPath, CubinPath, LogPath, TempDir;
  std::optional<PtxasKeep> Keep; // removed with the run, too
  bool Verbose = false; // ran with -v: Report has what it said
  std::string Report;
  // A forked child that inherits the run leaves the files to its parent.
  const int Creator;
  PtxasRun();
  ~PtxasRun();
};
llvm::Expected<std::unique_ptr<PtxasRun>>
startPtxas(llvm::StringRef PTX, llvm::StringRef Arch,
           llvm::StringRef TempDir = "", bool Verbose = false,
           std::optional<PtxasKeep> Keep = std::nullopt, int OptLevel = -1);
// The cubin or ptxas's error once it has finished; nothing while it still
// runs, unless Block waits for it. ptxas failing while its directory's disk
// is full is a TempFilesFailed.
std::optional<llvm::Expected<std::string>> finishPtxas(PtxasRun &Run,
                                                       bool Block);

} // namespace mstage::rt

#endif
