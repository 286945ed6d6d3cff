//===- EventFaultRace.cpp - When a query of an event sees a kernel fault --===//
//
// A probe of the CUDA driver, without mstage: does cuEventQuery say
// CUDA_SUCCESS for an event recorded after a kernel that faults, and which
// call made right after it reports the fault? test/gpu/coawait's fault child
// found its fault only at exit, under load, in 1 to 3 runs of 4 (H200,
// 2026-11-27): the co_await's query had said the work was done.
//
// One fault per process (the context is unusable after it): a kernel of
// 65,536 threads stores through address 0x10 (test/gpu/coawait.cpp's
// BadKernel), an event is recorded after it on a non-blocking stream, and
// cuEventQuery is asked until it says something other than
// CUDA_ERROR_NOT_READY (sched_yield between, as mstage's await thread).
// Then the call named by the argument is made once:
//   esync   cuEventSynchronize on the event (what kernel_future::get() does)
//   query   cuEventQuery again
//   squery  cuStreamQuery
//   ssync   cuStreamSynchronize
//   csync   cuCtxSynchronize
// and, 200 ms later, cuCtxSynchronize (by then the fault is known). Prints
//   first=<code> then=<code> late=<code> polls=<n>
// with the CUresult codes (0 success, 700 CUDA_ERROR_ILLEGAL_ADDRESS).
// Build: tools/gpu/event-fault/build.sh; run: tools/gpu/event-fault-race.sh.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <sched.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

namespace {

// st.global.u32 [0x10 + 4096 * global index], 1: every thread faults.
const char *Ptx = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry bad(.param .u64 p)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd2, %r4, 4096;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r1, 1;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

bool ok(CUresult R, const char *What) {
  if (R == CUDA_SUCCESS)
    return true;
  std::printf("setup-failed %s=%d\n", What, int(R));
  return false;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Then = Argc > 1 ? Argv[1] : "esync";
  CUdevice Dev;
  CUcontext Ctx;
  CUmodule Mod;
  CUfunction Fn;
  CUstream S;
  CUevent E;
  if (!ok(cuInit(0), "cuInit") || !ok(cuDeviceGet(&Dev, 0), "cuDeviceGet") ||
      !ok(cuDevicePrimaryCtxRetain(&Ctx, Dev), "cuDevicePrimaryCtxRetain") ||
      !ok(cuCtxSetCurrent(Ctx), "cuCtxSetCurrent") ||
      !ok(cuModuleLoadDataEx(&Mod, Ptx, 0, nullptr, nullptr),
          "cuModuleLoadDataEx") ||
      !ok(cuModuleGetFunction(&Fn, Mod, "bad"), "cuModuleGetFunction") ||
      !ok(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING), "cuStreamCreate") ||
      !ok(cuEventCreate(&E, CU_EVENT_DEFAULT), "cuEventCreate"))
    return 1;
  CUdeviceptr Bad = 0x10;
  void *Params[] = {&Bad};
  if (!ok(cuLaunchKernel(Fn, 256, 1, 1, 256, 1, 1, 0, S, Params, nullptr),
          "cuLaunchKernel") ||
      !ok(cuEventRecord(E, S), "cuEventRecord"))
    return 1;
  CUresult First;
  long Polls = 0;
  while ((First = cuEventQuery(E)) == CUDA_ERROR_NOT_READY) {
    ++Polls;
    sched_yield();
  }
  CUresult After = CUDA_SUCCESS;
  if (Then == "esync")
    After = cuEventSynchronize(E);
  else if (Then == "query")
    After = cuEventQuery(E);
  else if (Then == "squery")
    After = cuStreamQuery(S);
  else if (Then == "ssync")
    After = cuStreamSynchronize(S);
  else if (Then == "csync")
    After = cuCtxSynchronize();
  else
    std::printf("unknown call %s\n", Then.c_str());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CUresult Late = cuCtxSynchronize();
  std::printf("first=%d then=%d late=%d polls=%ld\n", int(First), int(After),
              int(Late), Polls);
  return 0;
}
