//===- Launch.cpp - mstage_rt_launch: compile on first use, then launch ---===//
#include "Backend.h"
#include "CudaDriver.h"
#include "Dump.h"
#include "JitCompiler.h"
#include "KernelRegistry.h"
#include "RuntimeError.h"

#include "mstage/abi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace mstage::rt;

namespace {

struct CompiledKernel {
  std::string PTX;
  CUmodule Module = nullptr;
  CUfunction Function = nullptr;
};

std::mutex CacheLock;
// One entry per specialization; see specializationKey.
std::unordered_map<std::string, CompiledKernel> Compiled;

std::string kernelPrefix(const RegisteredKernel &K) {
  return "mstage: kernel '" + K.Blob.PrettyName + "'";
}

bool fastMathFromEnvironment() {
  const char *V = std::getenv("MSTAGE_FAST_MATH");
  return V && *V && std::string(V) != "0";
}

// Launch extents the hardware cannot take are rejected before compiling.
std::string checkConfig(const mstage_launch_config &C, const Backend &B) {
  for (int I = 0; I < 3; ++I)
    if (C.grid[I] == 0 || C.block[I] == 0)
      return "has an empty launch configuration (grid " +
             std::to_string(C.grid[0]) + "x" + std::to_string(C.grid[1]) + "x" +
             std::to_string(C.grid[2]) + ", block " +
             std::to_string(C.block[0]) + "x" + std::to_string(C.block[1]) +
             "x" + std::to_string(C.block[2]) + ")";
  uint64_t Threads = uint64_t(C.block[0]) * C.block[1] * C.block[2];
  uint64_t MaxThreads =
      B.Driver ? uint64_t(B.Driver->maxThreadsPerBlock()) : 1024;
  if (Threads > MaxThreads)
    return "asks for " + std::to_string(Threads) +
           " threads per block; the device allows at most " +
           std::to_string(MaxThreads);
  if (B.Driver &&
      C.shared_bytes > uint64_t(B.Driver->maxSharedBytesPerBlockOptin()))
    return "asks for " + std::to_string(C.shared_bytes) +
           " bytes of shared memory; the device allows at most " +
           std::to_string(B.Driver->maxSharedBytesPerBlockOptin());
  return "";
}

// The staged values of one launch, computed by the kernel's host evaluators.
struct StagedValues {
  std::string Bytes;                            // all values, back to back
  llvm::SmallVector<llvm::StringRef, 4> Values; // into Bytes
};

void evaluateStages(const RegisteredKernel &K, void *const *Params,
                    const mstage_launch_config &Config, StagedValues &Out) {
  llvm::SmallVector<size_t, 4> Offsets;
  for (size_t I = 0; I < K.Blob.StageSites.size(); ++I) {
    uint32_t Size = K.Blob.StageSites[I].Size;
    std::vector<uint64_t> Buffer((Size + 7) / 8); // aligned for any scalar
    K.Record->evaluators[I](Params, &Config, Buffer.data());
    Offsets.push_back(Out.Bytes.size());
    Out.Bytes.append(reinterpret_cast<const char *>(Buffer.data()), Size);
  }
  for (size_t I = 0; I < Offsets.size(); ++I)
    Out.Values.push_back(llvm::StringRef(Out.Bytes).substr(
        Offsets[I], K.Blob.StageSites[I].Size));
}

// What makes two launches share code: the kernel, its launch configuration
// and its staged values (the architecture and options are fixed per process).
std::string specializationKey(const RegisteredKernel &K,
                              const mstage_launch_config &Config,
                              const StagedValues &Staged) {
  std::string Key(reinterpret_cast<const char *>(&K.Record->host_entry),
                  sizeof(void *));
  Key.append(reinterpret_cast<const char *>(&Config), sizeof(Config));
  Key += Staged.Bytes;
  return Key;
}

// Compiles the specialization of K for this launch, once.
int compiledFor(const RegisteredKernel &K, const Backend &B,
                const mstage_launch_config &Config, const StagedValues &Staged,
                CompiledKernel *&Out) {
  std::string Key = specializationKey(K, Config, Staged);
  std::lock_guard<std::mutex> G(CacheLock);
  auto It = Compiled.find(Key);
  if (It != Compiled.end()) {
    Out = &It->second;
    return 0;
  }
  JitOptions Opts;
  Opts.Arch = B.Arch;
  Opts.FastMath = fastMathFromEnvironment();
  Specialization Spec;
  Spec.StagedValues = Staged.Values;
  for (int I = 0; I < 3; ++I) {
    Spec.Extents.Grid[I] = Config.grid[I];
    Spec.Extents.Block[I] = Config.block[I];
  }
  const DumpSettings &Dump = dumpSettings();
  auto Result = compileKernel(K.Blob, Spec, Opts, Dump.IR);
  if (!Result)
    return fail(llvm::toString(Result.takeError()));

  // Dump names use the bitcode's hash, not the entry's address, so that
  // they are the same from run to run.
  uint64_t Hash = llvm::xxh3_64bits(
      std::to_string(K.Blob.BitcodeHash) +
      llvm::StringRef(Key).drop_front(sizeof(void *)).str() + "|" + Opts.Arch +
      "|" + (Opts.FastMath ? "fast" : "ieee"));
  if (Dump.IR)
    dumpFile(K.Blob.Name, Hash, "ll", Result->OptimizedIR);
  if (Dump.PTX)
    dumpFile(K.Blob.Name, Hash, "ptx", Result->PTX);

  CompiledKernel C;
  C.PTX = std::move(Result->PTX);
  if (B.Kind == BackendKind::Gpu) {
    Status S = B.Driver->loadModuleFromPtx(C.PTX, &C.Module);
    if (S)
      S = B.Driver->getFunction(C.Module, K.Blob.Name, &C.Function);
    if (!S)
      return fail(kernelPrefix(K) + ": " + S.Message);
  }
  Out = &Compiled.try_emplace(std::move(Key), std::move(C)).first->second;
  return 0;
}

// Per-thread kernel timing for benchmarks (mstage_rt_time_launches).
thread_local bool TimeLaunches = false;
thread_local double LastKernelMs = 0;

} // namespace

extern "C" __attribute__((visibility("default"))) void
mstage_rt_time_launches(int Enable) {
  TimeLaunches = Enable != 0;
}

extern "C" __attribute__((visibility("default"))) double
mstage_rt_last_kernel_ms(void) {
  return LastKernelMs;
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_prepare(const void *HostEntry) {
  std::string Why;
  const RegisteredKernel *K = findKernel(HostEntry, Why);
  if (!K)
    return fail("mstage: cannot launch a kernel: " + Why);
  if (backend().Kind == BackendKind::Unavailable)
    return fail(kernelPrefix(*K) + " cannot run: " + backend().Reason);
  return 0;
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_launch(const void *HostEntry, void *const *Params, uint32_t NumParams,
                 const mstage_launch_config *Config) {
  std::string Why;
  const RegisteredKernel *K = findKernel(HostEntry, Why);
  if (!K)
    return fail("mstage: cannot launch a kernel: " + Why);
  const Backend &B = backend();
  if (B.Kind == BackendKind::Unavailable)
    return fail(kernelPrefix(*K) + " cannot run: " + B.Reason);
  if (NumParams != K->Blob.NumParams)
    return fail(kernelPrefix(*K) + " was launched with " +
                std::to_string(NumParams) + " parameters but compiled for " +
                std::to_string(K->Blob.NumParams) +
                "; rebuild the program with one mstage version");
  std::string Bad = checkConfig(*Config, B);
  if (!Bad.empty())
    return fail(kernelPrefix(*K) + " " + Bad);

  StagedValues Staged;
  evaluateStages(*K, Params, *Config, Staged);
  CompiledKernel *C = nullptr;
  if (int Err = compiledFor(*K, B, *Config, Staged, C))
    return Err;
  if (B.Kind == BackendKind::PtxOnly)
    return 0;

  float Ms = 0;
  Status S = B.Driver->launch(C->Function, Config->grid, Config->block,
                              Config->shared_bytes, const_cast<void **>(Params),
                              TimeLaunches ? &Ms : nullptr);
  LastKernelMs = Ms;
  if (S)
    S = B.Driver->synchronize();
  if (!S)
    return fail(kernelPrefix(*K) + ": " + S.Message);
  return 0;
}
