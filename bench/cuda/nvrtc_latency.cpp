// NVRTC baseline for the JIT latency benchmark: the reduce6 kernel (paper
// Listing 3, the algorithm of Listing 4) as a CUDA source string, with the
// staged values passed as -D defines, compiled by NVRTC to a cubin and
// loaded with cuModuleLoadData. Timed from the compile call to a loaded
// module: once cold (the process's first), then warm (other defines).
//
//   nvrtc_latency            (run with CUDA_CACHE_DISABLE=1)
//
// Prints CSV rows in jit.csv's format: benchmark,variant,kernel,ms,
// evaluate_ms,optimize_ms,codegen_ms,load_ms (compile in codegen_ms).
#include <cuda.h>
#include <nvrtc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const char *Source = R"(
extern "C" __global__ void __launch_bounds__(BLOCK)
reduce6(const int *input, int *output, unsigned n) {
  __shared__ int sm[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + tid;
  unsigned gridSize = BLOCK * 2 * GRID;
  int sum = 0;
  while (i < N) {
    sum += input[i];
    if (NISPOW2 || i + BLOCK < N)
      sum += input[i + BLOCK];
    i += gridSize;
  }
  sm[tid] = sum;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s)
      sm[tid] = sum = sum + sm[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    output[blockIdx.x] = sum;
}
)";

void check(bool OK, const std::string &What) {
  if (!OK) {
    std::fprintf(stderr, "nvrtc_latency: %s\n", What.c_str());
    std::exit(1);
  }
}

// Compiles and loads with the given n; returns {compile ms, load ms}.
std::pair<double, double> compileAndLoad(unsigned N, int Major, int Minor) {
  using Clock = std::chrono::steady_clock;
  auto T0 = Clock::now();
  nvrtcProgram Prog;
  check(nvrtcCreateProgram(&Prog, Source, "reduce6.cu", 0, nullptr, nullptr) ==
            NVRTC_SUCCESS,
        "nvrtcCreateProgram");
  std::string Arch = "-arch=sm_" + std::to_string(Major * 10 + Minor);
  std::string DefN = "-DN=" + std::to_string(N) + "u";
  std::string DefPow2 = std::string("-DNISPOW2=") + ((N & (N - 1)) ? "0" : "1");
  std::vector<const char *> Opts = {Arch.c_str(), "-DBLOCK=256u", "-DGRID=264u",
                                    DefN.c_str(), DefPow2.c_str()};
  nvrtcResult R = nvrtcCompileProgram(Prog, int(Opts.size()), Opts.data());
  if (R != NVRTC_SUCCESS) {
    size_t LogSize;
    nvrtcGetProgramLogSize(Prog, &LogSize);
    std::string Log(LogSize, '\0');
    nvrtcGetProgramLog(Prog, Log.data());
    check(false, "compile failed: " + Log);
  }
  size_t Size;
  nvrtcGetCUBINSize(Prog, &Size);
  std::string Cubin(Size, '\0');
  nvrtcGetCUBIN(Prog, Cubin.data());
  nvrtcDestroyProgram(&Prog);
  double CompileMs =
      std::chrono::duration<double, std::milli>(Clock::now() - T0).count();
  auto T1 = Clock::now();
  CUmodule Module;
  CUfunction Function;
  check(cuModuleLoadData(&Module, Cubin.data()) == CUDA_SUCCESS,
        "cuModuleLoadData");
  check(cuModuleGetFunction(&Function, Module, "reduce6") == CUDA_SUCCESS,
        "cuModuleGetFunction");
  double LoadMs =
      std::chrono::duration<double, std::milli>(Clock::now() - T1).count();
  cuModuleUnload(Module);
  return {CompileMs, LoadMs};
}

} // namespace

int main() {
  check(cuInit(0) == CUDA_SUCCESS, "cuInit");
  CUdevice Dev;
  CUcontext Ctx;
  check(cuDeviceGet(&Dev, 0) == CUDA_SUCCESS, "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&Ctx, Dev) == CUDA_SUCCESS, "context");
  check(cuCtxSetCurrent(Ctx) == CUDA_SUCCESS, "cuCtxSetCurrent");
  int Major, Minor;
  cuDeviceGetAttribute(&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                       Dev);
  cuDeviceGetAttribute(&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                       Dev);
  const char *Variants[] = {"nvrtc-cold", "nvrtc-warm"};
  unsigned Ns[] = {1u << 20, (1u << 20) + 172};
  for (int I = 0; I < 2; ++I) {
    auto [Compile, Load] = compileAndLoad(Ns[I], Major, Minor);
    std::printf("jit,%s,listing4,%.4f,0,0,%.4f,%.4f,cubin\n", Variants[I],
                Compile + Load, Compile, Load);
  }
  return 0;
}
