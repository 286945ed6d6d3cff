//===- CudaTools.cpp - The CUDA toolkit's ptxas and cuobjdump -------------===//
#include "cuda/CudaTools.h"
#include "support/RuntimeFailure.h"
#include "support/Settings.h"
#include "support/Warning.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

using namespace llvm;

namespace mstage::rt {

const std::string &ptxasPath() {
  // Never destroyed: background compiles may read it during exit().
  static const std::string &Path = *new std::string([]() -> std::string {
    PtxasChoice Choice = choosePtxas(ptxasSetting().value_or(""));
    if (Choice.Unrunnable)
      warn(Choice.Why + "; kernels are loaded as PTX (set MSTAGE_PTXAS to "
                        "ptxas's path, or to off)");
    return Choice.Path;
  }());
  return Path;
}

char PtxRejected::ID = 0;

void PtxRejected::log(raw_ostream &OS) const {
  OS << Command << " rejects the PTX: " << Log;
}

char TempFilesFailed::ID = 0;

void TempFilesFailed::log(raw_ostream &OS) const {
  OS << What << ": " << EC.message();
}

namespace {

// Below this much free space, a ptxas that fails without finding fault with
// the PTX is taken to have failed for want of space for its cubin.
constexpr uint64_t LowDiskSpace = 1 << 20;

Error tempFilesFailed(StringRef TempDir, const Twine &What,
                      std::error_code EC) {
  return make_error<TempFilesFailed>(TempDir.str(), What.str(), EC);
}

// A temporary file for ptxas, named *.tmp in TempDir so that the cache's
// scan counts it and removes it when a killed process left it.
std::error_code createTemporary(StringRef TempDir, StringRef Suffix, int *FD,
                                SmallVectorImpl<char> &Path) {
  if (TempDir.empty())
    return FD ? sys::fs::createTemporaryFile("mstage", Suffix, *FD, Path)
              : sys::fs::createTemporaryFile("mstage", Suffix, Path);
  SmallString<256> Model(TempDir);
  sys::path::append(Model, "ptxas-%%%%%%%%." + Suffix + ".tmp");
  return FD ? sys::fs::createUniqueFile(Model, *FD, Path, sys::fs::OF_None,
                                        0600)
            : sys::fs::createUniqueFile(Model, Path, 0600);
}

// Whether ptxas's output finds fault with the PTX ("ptxas x.ptx, line 3;
// error   : ...", "ptxas fatal   : Unresolved extern function ..."), not a
// shell's or a loader's message, nor a ptxas too old for the PTX or the
// architecture, which the driver may still take.
bool faultsThePtx(StringRef Log) {
  SmallVector<StringRef, 8> Lines;
  Log.split(Lines, '\n');
  bool Found = false;
  for (StringRef L : Lines) {
    if (!L.starts_with("ptxas") ||
        !(L.contains("error") || L.contains("fatal")))
      continue;
    if (L.contains("Unsupported .version") ||
        L.contains("Unsupported .target") ||
        L.contains("is not defined for option"))
      return false;
    Found |= !L.contains("aborted due to errors"); // only a summary
  }
  return Found;
}
} // namespace

PtxasRun::PtxasRun() : Creator(getpid()) {}

PtxasRun::~PtxasRun() {
  if (getpid() != Creator)
    return;
  // A run whose process waited for it removes what it kept, too: the
  // process stores the entry itself (a handed-over run never gets here).
  for (const std::string &P : {PtxPath, CubinPath, LogPath})
    if (!P.empty())
      sys::fs::remove(P);
  if (Keep)
    for (const std::string &P : {Keep->CubinPath, Keep->PtxPath, Keep->RunPath})
      sys::fs::remove(P);
}

Expected<std::unique_ptr<PtxasRun>> startPtxas(StringRef PTX, StringRef Arch,
                                               StringRef TempDir, bool Verbose,
                                               std::optional<PtxasKeep> Keep,
                                               int OptLevel) {
  const std::string &Ptxas = ptxasPath();
  if (Ptxas.empty())
    return failure("no ptxas");
  auto Run = std::make_unique<PtxasRun>();
  Run->TempDir = TempDir.str();
  Run->Verbose = Verbose;
  SmallString<128> Path;
  int FD;
  if (std::error_code EC = createTemporary(TempDir, "ptx", &FD, Path))
    return tempFilesFailed(TempDir, "cannot create a temporary file", EC);
  Run->PtxPath = std::string(Path);
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << PTX;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      return tempFilesFailed(TempDir, "cannot write " + Run->PtxPath, EC);
    }
  }
  for (auto [Suffix, Out] :
       {std::pair{"cubin", &Run->CubinPath}, std::pair{"log", &Run->LogPath}}) {
    if (std::error_code EC = createTemporary(TempDir, Suffix, nullptr, Path))
      return tempFilesFailed(TempDir, "cannot create a temporary file", EC);
    *Out = std::string(Path);
  }
  std::string ArchArg = "-arch=" + ptxasArch(PTX, Arch);
  std::string OptArg = "-O" + std::to_string(OptLevel);
  SmallVector<StringRef, 8> Args = {Ptxas, ArchArg};
  if (OptLevel >= 0)
    Args.push_back(OptArg);
  // A faster ptxas for large kernels, when asked for (Settings.h).
  const std::string &Fast = jitSettings().PtxasFastCompile;
  if (!Fast.empty())
    Args.append({"-Ofc", Fast});
  if (Verbose)
    Args.push_back("-v"); // a report on its output; the same cubin
  Run->Command = join(Args, " ");
  Args.append({Run->PtxPath, "-o", Run->CubinPath});
  StringRef Program = Ptxas;
  // Kept: a shell links the files there once ptxas has succeeded, also
  // after this process is gone (then it removes the temporaries, which the
  // process would have), and removes RunPath, which names it. Its
  // status is ptxas's (a file system without links keeps nothing); its
  // arguments carry the paths, never its script. The process is gone when
  // the shell's parent is no longer it (/proc), not when its pid is free:
  // a pid can be reused within seconds where many processes start; and the
  // pid is passed, as $PPID is read when the shell starts, maybe too late.
  SmallVector<StringRef, 16> Shell;
  std::string OwnPid = std::to_string(getpid());
  if (Keep) {
    Run->Keep = std::move(Keep);
    Program = "/bin/sh";
    Shell = {"/bin/sh",
             "-c",
             "p=$1 kp=$2 c=$3 kc=$4 r=$5 l=$6 o=$7; shift 7; "
             "\"$@\"; s=$?; if [ $s = 0 ]; then ln -f -- \"$p\" \"$kp\" && "
             "ln -f -- \"$c\" \"$kc\"; fi; if read -r _ _ _ pp _ "
             "</proc/$$/stat; then [ \"$pp\" = \"$o\" ]; else kill -0 \"$o\"; "
             "fi 2>/dev/null || rm -f -- \"$p\" \"$c\" \"$l\"; "
             "rm -f -- \"$r\"; exit $s",
             "mstage-ptxas",
             Run->PtxPath,
             Run->Keep->PtxPath,
             Run->CubinPath,
             Run->Keep->CubinPath,
             Run->Keep->RunPath,
             Run->LogPath,
             OwnPid};
    Shell.append(Args.begin(), Args.end());
  }
  std::optional<StringRef> Redirects[] = {
      StringRef(""), StringRef(Run->LogPath), StringRef(Run->LogPath)};
  std::string ExecError;
  bool Failed = false;
  Run->Process =
      sys::ExecuteNoWait(Program, Run->Keep ? ArrayRef<StringRef>(Shell) : Args,
                         std::nullopt, Redirects,
                         /*MemoryLimit=*/0, &ExecError, &Failed);
  if (Failed || Run->Process.Pid == sys::ProcessInfo::InvalidPid)
    return failure("cannot run " + Run->Command + ": " + ExecError);
  // Written before anyone waits for the run, so that a process that starts
  // after this one's exit finds it; the shell removes it as it ends.
  if (Run->Keep) {
    std::error_code EC;
    raw_fd_ostream OS(Run->Keep->RunPath, EC, sys::fs::OF_None);
    if (!EC)
      OS << Run->Process.Pid << "\n";
  }
  return std::move(Run);
}

std::optional<Expected<std::string>> finishPtxas(PtxasRun &Run, bool Block) {
  std::string WaitError;
  sys::ProcessInfo Done =
      sys::Wait(Run.Process, Block ? std::nullopt : std::optional<unsigned>(0),
                &WaitError);
  if (Done.Pid == 0)
    return std::nullopt; // still running
  if (Done.ReturnCode != 0) {
    std::string Log;
    if (auto Buf = MemoryBuffer::getFile(Run.LogPath))
      Log = (*Buf)->getBuffer().trim().str();
    if (Log.empty())
      Log = WaitError.empty() ? "exit status " + std::to_string(Done.ReturnCode)
                              : WaitError;
    // Its output could not be written: whatever it says, the disk's fault.
    ErrorOr<sys::fs::space_info> Space =
        sys::fs::disk_space(sys::path::parent_path(Run.CubinPath));
    if (Done.ReturnCode > 0 && Space && Space->available < LowDiskSpace)
      return Expected<std::string>(
          tempFilesFailed(Run.TempDir, Run.Command + " failed (" + Log + ")",
                          std::make_error_code(std::errc::no_space_on_device)));
    // It ran to its end and found fault with the PTX.
    if (Done.ReturnCode > 0 && faultsThePtx(Log))
      return Expected<std::string>(
          make_error<PtxRejected>(Run.Command, std::move(Log)));
    return Expected<std::string>(failure(Run.Command + " failed: " + Log));
  }
  auto Cubin = MemoryBuffer::getFile(Run.CubinPath, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
  if (!Cubin)
    return Expected<std::string>(
        failure("cannot read what " + Run.Command +
                " wrote: " + Cubin.getError().message()));
  if ((*Cubin)->getBufferSize() == 0)
    return Expected<std::string>(
        failure(Run.Command + " wrote an empty cubin"));
  if (Run.Verbose)
    if (auto Log = MemoryBuffer::getFile(Run.LogPath))
      Run.Report = (*Log)->getBuffer().str();
  return Expected<std::string>((*Cubin)->getBuffer().str());
}

Expected<std::string> assembleCubin(StringRef PTX, StringRef Arch,
                                    StringRef TempDir, std::string *Report,
                                    std::optional<PtxasKeep> Keep,
                                    function_ref<void(bool)> OnWait,
                                    int OptLevel) {
  auto Run = startPtxas(PTX, Arch, TempDir, /*Verbose=*/Report != nullptr,
                        std::move(Keep), OptLevel);
  if (!Run)
    return Run.takeError();
  if (OnWait)
    OnWait(true);
  Expected<std::string> Cubin = std::move(*finishPtxas(**Run, /*Block=*/true));
  if (OnWait) {
    // Read: its files go now, as OnWait may not return (a handed-over run
    // whose ptxas ends before its process).
    for (const std::string &P :
         {(*Run)->PtxPath, (*Run)->CubinPath, (*Run)->LogPath})
      sys::fs::remove(P);
    OnWait(false);
  }
  if (Report)
    *Report = std::move((*Run)->Report);
  return Cubin;
}

} // namespace mstage::rt
