// PTX to a loaded module: what each way of turning a kernel's PTX into
// code on the GPU costs, for choosing tier 0's path (issue 33: Listing 4's
// specialized code in use <= 10 ms after its first launch). One way per
// process, after the CUDA context is made (not timed):
//
//   ptx_load WAY LEVEL PTX [TINY_PTX]
//
//   driver       cuModuleLoadDataEx of the PTX, CU_JIT_OPTIMIZATION_LEVEL
//                LEVEL (the driver's JIT)
//   driver-warm  the same after the driver's JIT loaded TINY_PTX first
//                (untimed): what a warm-up at start-up would leave
//   driver-bg    TINY_PTX loaded on another thread from the start, the PTX
//                after 6 ms (an LLVM compile's stand-in), timed from the
//                start: a warm-up that runs while the first compile does
//   nvjitlink    nvJitLink in this process (-O LEVEL) makes the cubin, which
//                is loaded: dlopen included
//   nvjitlink-warm  the same after nvJitLink compiled TINY_PTX (untimed)
//   ptxas        the ptxas process (-O LEVEL, found as MSTAGE_PTXAS or
//                /usr/local/cuda/bin/ptxas) makes the cubin, which is loaded
//
// PTX: for example Listing 4's tier 0,
//   mstage-ptx build/examples/reduce_staged --tier0 --arch sm_90 \
//     --kernel _ZN14listing4KernelI6StagedE10kernel_L21E --stage 0=256 \
//     --stage 1=1048576 --stage 2=1 --grid 264 --block 256 --shared 1024
// and TINY_PTX an empty kernel's. docs/performance.md has the figures.
//
// Prints one CSV row: ptx-load,WAY,LEVEL,wall_ms,cpu_ms (cpu: this process's
// and its children's). The module's kernel is looked up, so the code is
// whole. Run it with CUDA_CACHE_DISABLE=1: the driver's cache would hide
// its JIT.
#include <cuda.h>
#include <nvJitLink.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const std::string &What) {
  std::fprintf(stderr, "ptx_load: %s\n", What.c_str());
  std::exit(1);
}

double msSince(Clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T0).count();
}

double cpuMs() {
  double Ms = 0;
  for (int Who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage U;
    getrusage(Who, &U);
    Ms += (U.ru_utime.tv_sec + U.ru_stime.tv_sec) * 1e3 +
          (U.ru_utime.tv_usec + U.ru_stime.tv_usec) / 1e3;
  }
  return Ms;
}

std::string readFile(const std::string &Path) {
  std::ifstream F(Path, std::ios::binary);
  if (!F)
    die("cannot read " + Path);
  std::stringstream S;
  S << F.rdbuf();
  return S.str();
}

// The first .entry's name: the kernel to look up.
std::string entryName(const std::string &PTX) {
  size_t At = PTX.find(".entry ");
  if (At == std::string::npos)
    die("the PTX has no .entry");
  At += 7;
  size_t End = PTX.find_first_of("( \n", At);
  return PTX.substr(At, End - At);
}

// Opens the first of Names that loads.
void *openLibrary(std::initializer_list<const char *> Names) {
  for (const char *Name : Names)
    if (void *H = Name ? dlopen(Name, RTLD_NOW | RTLD_LOCAL) : nullptr)
      return H;
  die(std::string("cannot load ") + *(Names.end() - 1));
}

// Sets Fn to Lib's function Name.
template <class F> void bind(void *Lib, F &Fn, const char *Name) {
  void *P = dlsym(Lib, Name);
  if (!P)
    die(std::string("no ") + Name);
  Fn = reinterpret_cast<F>(P);
}

struct Driver {
  decltype(&cuInit) Init;
  decltype(&cuDeviceGet) DeviceGet;
  decltype(&cuDevicePrimaryCtxRetain) PrimaryCtxRetain;
  decltype(&cuCtxSetCurrent) CtxSetCurrent;
  decltype(&cuMemAlloc) MemAlloc;
  decltype(&cuModuleLoadDataEx) ModuleLoadDataEx;
  decltype(&cuModuleGetFunction) ModuleGetFunction;
  Driver() {
    void *H = openLibrary({"libcuda.so.1"});
    bind(H, Init, "cuInit");
    bind(H, DeviceGet, "cuDeviceGet");
    bind(H, PrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(H, CtxSetCurrent, "cuCtxSetCurrent");
    bind(H, MemAlloc, "cuMemAlloc_v2");
    bind(H, ModuleLoadDataEx, "cuModuleLoadDataEx");
    bind(H, ModuleGetFunction, "cuModuleGetFunction");
  }
};

void check(CUresult R, const char *What) {
  if (R != CUDA_SUCCESS)
    die(std::string(What) + " failed with CUresult " + std::to_string(R));
}

// Loads Image (PTX at Level, or a cubin when Level < 0) and looks up Entry.
void load(Driver &D, const std::string &Image, int Level,
          const std::string &Entry) {
  CUjit_option Opt[1] = {CU_JIT_OPTIMIZATION_LEVEL};
  void *Val[1] = {reinterpret_cast<void *>(uintptr_t(Level))};
  CUmodule M;
  check(D.ModuleLoadDataEx(&M, Image.c_str(), Level < 0 ? 0 : 1, Opt, Val),
        "cuModuleLoadDataEx");
  CUfunction F;
  check(D.ModuleGetFunction(&F, M, Entry.c_str()), "cuModuleGetFunction");
}

// nvJitLink, opened at the first use.
struct JitLink {
  using Handle = void *;
  int (*Create)(Handle *, uint32_t, const char **);
  int (*AddData)(Handle, int, const void *, size_t, const char *);
  int (*Complete)(Handle);
  int (*CubinSize)(Handle, size_t *);
  int (*Cubin)(Handle, void *);
  int (*Destroy)(Handle *);
  JitLink() {
    void *H = openLibrary({std::getenv("NVJITLINK"), "libnvJitLink.so.13",
                           "/usr/local/cuda/lib64/libnvJitLink.so.13"});
    bind(H, Create, "__nvJitLinkCreate_13_0");
    bind(H, AddData, "__nvJitLinkAddData_13_0");
    bind(H, Complete, "__nvJitLinkComplete_13_0");
    bind(H, CubinSize, "__nvJitLinkGetLinkedCubinSize_13_0");
    bind(H, Cubin, "__nvJitLinkGetLinkedCubin_13_0");
    bind(H, Destroy, "__nvJitLinkDestroy_13_0");
  }
  std::string cubin(const std::string &PTX, const std::string &Arch,
                    int Level) {
    std::string A = "-arch=" + Arch, O = "-O" + std::to_string(Level);
    const char *Opts[] = {A.c_str(), O.c_str()};
    Handle H;
    if (Create(&H, 2, Opts) ||
        AddData(H, NVJITLINK_INPUT_PTX, PTX.data(), PTX.size(), "ptx") ||
        Complete(H))
      die("nvJitLink failed");
    size_t N = 0;
    CubinSize(H, &N);
    std::string Out(N, '\0');
    Cubin(H, Out.data());
    Destroy(&H);
    return Out;
  }
};

std::string ptxasCubin(const std::string &PTX, const std::string &Arch,
                       int Level) {
  const char *Env = std::getenv("MSTAGE_PTXAS");
  std::string Ptxas = Env && *Env ? Env : "/usr/local/cuda/bin/ptxas";
  char Dir[] = "/tmp/ptx_load.XXXXXX";
  if (!mkdtemp(Dir))
    die("mkdtemp");
  std::string In = std::string(Dir) + "/k.ptx",
              Out = std::string(Dir) + "/k.cubin";
  std::ofstream(In, std::ios::binary) << PTX;
  std::string A = "-arch=" + Arch, O = "-O" + std::to_string(Level);
  pid_t Pid = fork();
  if (Pid == 0) {
    execl(Ptxas.c_str(), "ptxas", A.c_str(), O.c_str(), In.c_str(), "-o",
          Out.c_str(), (char *)nullptr);
    _exit(127);
  }
  int Status = 0;
  waitpid(Pid, &Status, 0);
  if (!WIFEXITED(Status) || WEXITSTATUS(Status))
    die("ptxas failed");
  std::string Cubin = readFile(Out);
  unlink(In.c_str());
  unlink(Out.c_str());
  rmdir(Dir);
  return Cubin;
}

// The PTX's .target: sm_NN.
std::string archOf(const std::string &PTX) {
  size_t At = PTX.find(".target ");
  if (At == std::string::npos)
    die("the PTX has no .target");
  At += 8;
  return PTX.substr(At, PTX.find_first_of(", \n", At) - At);
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 4)
    die("usage: ptx_load WAY LEVEL PTX [TINY_PTX]");
  std::string Way = Argv[1];
  int Level = std::atoi(Argv[2]);
  std::string PTX = readFile(Argv[3]);
  std::string Tiny = Argc > 4 ? readFile(Argv[4]) : "";
  bool Warm = Way.find("-warm") != std::string::npos || Way == "driver-bg";
  if (Warm && Tiny.empty())
    die(Way + " needs TINY_PTX");
  std::string Entry = entryName(PTX), Arch = archOf(PTX);

  Driver D;
  check(D.Init(0), "cuInit");
  CUdevice Dev;
  check(D.DeviceGet(&Dev, 0), "cuDeviceGet");
  CUcontext Ctx;
  check(D.PrimaryCtxRetain(&Ctx, Dev), "cuDevicePrimaryCtxRetain");
  check(D.CtxSetCurrent(Ctx), "cuCtxSetCurrent");
  CUdeviceptr P;
  check(D.MemAlloc(&P, 256), "cuMemAlloc");

  if (Way == "driver-warm")
    load(D, Tiny, Level, entryName(Tiny));
  JitLink *Link = nullptr;
  if (Way == "nvjitlink-warm") {
    Link = new JitLink;
    Link->cubin(Tiny, Arch, Level);
  }

  double Cpu0 = cpuMs();
  auto T0 = Clock::now();
  std::thread Warmer;
  if (Way == "driver" || Way == "driver-warm") {
    load(D, PTX, Level, Entry);
  } else if (Way == "driver-bg") {
    Warmer = std::thread([&] {
      check(D.CtxSetCurrent(Ctx), "cuCtxSetCurrent");
      load(D, Tiny, Level, entryName(Tiny));
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(6));
    load(D, PTX, Level, Entry);
  } else if (Way == "nvjitlink" || Way == "nvjitlink-warm") {
    if (!Link)
      Link = new JitLink;
    load(D, Link->cubin(PTX, Arch, Level), -1, Entry);
  } else if (Way == "ptxas") {
    load(D, ptxasCubin(PTX, Arch, Level), -1, Entry);
  } else {
    die("unknown way " + Way);
  }
  double Wall = msSince(T0), Cpu = cpuMs() - Cpu0;
  if (Warmer.joinable())
    Warmer.join();
  std::printf("ptx-load,%s,%d,%.3f,%.3f\n", Way.c_str(), Level, Wall, Cpu);
  return 0;
}
