//===- CpuRecording.cpp - Launches off the GPU recorded into a graph ------===//
#include "launch/CpuRecording.h"
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"

#include <string>
#include <vector>

namespace mstage::rt {

int recordCpuLaunch(const LaunchRequest &L) {
  Stream &S = *L.S;
  const RegisteredKernel &K = *L.K;
  std::vector<std::string> Copies;
  for (uint32_t I = 0; I < L.NumParams; ++I)
    Copies.emplace_back(static_cast<const char *>(L.Params[I]),
                        L.ParamSizes[I]);
  S.noteLaunch(L.HostEntry, K.Blob.PrettyName, K.Blob.Location);
  bool Runs = backend().runsHostBodies();
  return S.runOrRecord([=, HostEntry = L.HostEntry, Invoke = L.Invoke,
                        Config = L.Config]() mutable {
    if (!Runs)
      return 0; // PTX-only: compiled when captured, nothing runs
    std::string Why;
    const RegisteredKernel *Live = findKernel(HostEntry, Why);
    if (!Live)
      return failWith(failure("replaying a graph: " + Why));
    std::vector<void *> Ptrs;
    for (std::string &C : Copies)
      Ptrs.push_back(C.data());
    return toStatus(
        backend().runHostBody(*Live, Invoke, Ptrs.data(), Config, nullptr));
  });
}

} // namespace mstage::rt
