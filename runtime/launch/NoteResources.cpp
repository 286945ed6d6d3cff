//===- NoteResources.cpp - What a specialization's code uses, for stats ---===//
#include "launch/NoteResources.h"
#include "aot/PtxResources.h"
#include "cuda/CudaDriver.h"
#include "inspect/Stats.h"

#include "llvm/Support/Error.h"

#include <cassert>

namespace mstage::rt {

bool resourcesWanted() { return statsEnabled(); }

void noteResourcesFromPtxas(const CodeRequest &R, llvm::StringRef Report) {
  llvm::Expected<PtxResources> P = parsePtxasVerbose(Report, R.K.Blob.Name);
  if (!P) {
    llvm::consumeError(P.takeError()); // the table shows "-"
    return;
  }
  CodeResources C;
  C.Registers = P->Registers;
  C.SpillStores = int64_t(P->SpillStoreBytes);
  C.SpillLoads = int64_t(P->SpillLoadBytes);
  C.SharedBytes = int64_t(P->SharedBytes);
  C.LocalBytes = int64_t(P->StackBytes);
  C.BlockThreads = R.Config.blockThreads();
  PtxOccupancy O =
      ptxOccupancy(*P, R.B.arch(), C.BlockThreads, R.Config.shared_bytes);
  C.BlocksPerSm = int64_t(O.Blocks);
  C.OccupancyPercent = O.Percent;
  statsResources(R.K.Blob.PrettyName, specializationId(R.Staged.key()), C);
}

void noteResourcesOfFunction(const CodeRequest &R, CUfunction Function) {
  assert(R.D && Function && "the code is loaded on a GPU");
  CudaDriver &D = *R.D;
  CodeResources C;
  auto Attribute = [&](CUfunction_attribute A, int64_t &Out) {
    int V = 0;
    if (llvm::Error E = D.functionAttribute(Function, A, &V))
      llvm::consumeError(std::move(E)); // unknown: "-"
    else
      Out = V;
  };
  Attribute(CU_FUNC_ATTRIBUTE_NUM_REGS, C.Registers);
  Attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, C.SharedBytes);
  Attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, C.LocalBytes);
  C.BlockThreads = R.Config.blockThreads();
  int Blocks = 0;
  if (llvm::Error E = D.occupancy(Function, int(C.BlockThreads),
                                  R.Config.shared_bytes, &Blocks))
    llvm::consumeError(std::move(E));
  else if (int Warps = D.maxThreadsPerMultiprocessor() / 32) {
    C.BlocksPerSm = Blocks;
    C.OccupancyPercent =
        int64_t(Blocks) * int64_t((C.BlockThreads + 31) / 32) * 100 / Warps;
  }
  statsResources(R.K.Blob.PrettyName, specializationId(R.Staged.key()), C);
}

} // namespace mstage::rt
