//===- DumpSidecar.cpp - MSTAGE_DUMP's files of a specialization ----------===//
#include "launch/DumpSidecar.h"
#include "formats/StageValueText.h"
#include "inspect/Dump.h"
#include "launch/BuildKey.h"
#include "launch/LaunchRequest.h"
#include "support/Settings.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <string>

namespace mstage::rt {

// The staged values of R, one object per site.
static llvm::json::Array stagedSites(const CodeRequest &R) {
  assert(R.Staged.Values.size() == R.K.Blob.StageSites.size() &&
         "one staged value per site");
  llvm::json::Array Sites;
  for (size_t I = 0; I < R.Staged.Values.size(); ++I) {
    const mstage::StageSite &S = R.K.Blob.StageSites[I];
    Sites.push_back(llvm::json::Object{
        {"site", int64_t(I)},
        {"line", int64_t(S.Line)},
        {"column", int64_t(S.Column)},
        {"type", mstage::stageTypeName(S)},
        {"value", mstage::formatStageValue(S, R.Staged.Values[I])}});
  }
  return Sites;
}

// The JSON that MSTAGE_DUMP writes beside a specialization's code.
static std::string dumpSidecar(const CodeRequest &R, const CacheKey &Key,
                               const LaunchTimes &Times) {
  const RegisteredKernel &K = R.K;
  const LaunchConfig &C = R.Config;
  auto Extents = [](const uint32_t *E) {
    return llvm::json::Array{int64_t(E[0]), int64_t(E[1]), int64_t(E[2])};
  };
  llvm::json::Object Doc{
      {"kernel", K.Blob.Name},
      {"name", K.Blob.PrettyName},
      {"location", K.Blob.Location},
      {"arch", R.B.arch()},
      {"fast_math", C.fastMath()},
      {"cache_key", Key.hex()},
      {"launch", llvm::json::Object{{"grid", Extents(C.grid)},
                                    {"block", Extents(C.block)},
                                    {"shared_bytes", int64_t(C.shared_bytes)}}},
      {"staged", stagedSites(R)},
      {"views", mstage::formatLaunchFacts(R.Staged.Facts)},
      {"cache", codeSourceName(Times.Source)},
      {"compiled", Times.Background ? "background" : "foreground"},
      {"code", Times.FromCubin ? "cubin" : "ptx"},
      {"times_ms", llvm::json::Object{{"evaluate", Times.Evaluate},
                                      {"optimize", Times.Optimize},
                                      {"codegen", Times.Codegen},
                                      {"load", Times.Load}}}};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
  return Text;
}

void dumpCode(const CodeRequest &R, const CacheKey &Key, const CachedCode &Code,
              const LaunchTimes &Times) {
  const DumpSettings &Dump = dumpSettings();
  const std::string &Name = R.K.Blob.Name;
  uint64_t Short = shortHash(Key);
  if (Dump.PTX)
    dumpFile(Name, Short, "ptx", Code.PTX);
  if (Dump.SASS)
    dumpSass(Name, Short, Code.PTX, Code.Cubin, R.B.arch());
  if (Dump.IR || Dump.PTX || Dump.SASS)
    dumpFile(Name, Short, "json", dumpSidecar(R, Key, Times));
}

} // namespace mstage::rt
