// mstage's side of issue 33's large-stencil benchmark: four kernels of
// 1,500 to 2,500 lines of generated stencil arithmetic (StencilKernels.h,
// from bench/gen_stencil.py) on two grid sizes (StencilReference.h), as
// seismic and weather codes have. Each kernel stages, through its policy,
// the grid's edge (so every neighbour's offset is a constant) and the time
// step; side "mstage" is staged, "unstaged" leaves them run-time values as
// nvcc's kernels (bench/cuda/stencil_baseline.cu) have them.
//
//   mstage_stencil [--mode run|jit|kernels] [--n N] [--steps S] [--reps R]
//
//   run      the application, staged: STEPS steps on both grids (8
//            specializations), with the default launch policy. Its first and
//            last steps are checked launch by launch against the CPU.
//            Prints jit-cold,MODE,stencil-run,ms (from before the first
//            launch, the context made) and checksum,stencil,mstage,N,SUM.
//   jit      the cold JIT of all 8 staged specializations: prepare() of
//            each, then jit_wait(). Prints jit-cold,MODE,stencil-jit-all,ms
//            (MODE-threadsN with MSTAGE_JIT_THREADS=N).
//            Run it on an empty cache (CUDA_CACHE_DISABLE=1 and an empty
//            MSTAGE_CACHE_DIR, or MSTAGE_CACHE=memory).
//   kernels  each kernel's time, staged and unstaged, on the fine grid
//            (bench.csv rows stencil,SIDE-kK,...), each checked first;
//            with MSTAGE_PTXAS_FAST_COMPILE=LEVEL, SIDE is SIDE-ofc-LEVEL.
//
// On the CPU back end (a small --n) the checks cover every point; in
// PTX-only mode (MSTAGE_BACKEND=ptx) the run mode compiles every
// specialization once and checks nothing.
#include "StencilReference.h"

#include "PortsMstage.h"

#include <chrono>
#include <utility>

using namespace mstage;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T0).count();
}

const char *jitMode() {
  const char *M = std::getenv("MSTAGE_JIT");
  return M && *M ? M : "async";
}

template <int K, class Stage> auto stencilKernel(Stage stage) {
  return [=](auto &out, const auto &u, const auto &v, int nArg, float dtArg) {
    const int n = stage(nArg);
    const float dt = stage(dtArg);
    const long i = long(Thread::get().global.x);
    if (i < long(n) * n * n)
      out[i] = stencil::valueAt<K>(u, v, i, n, dt);
  };
}

// One grid's three buffers and its four kernels.
template <class Stage> struct Grid {
  int N;
  device_vector<float> Buf[3];
  int Prev = 0, Cur = 1, Next = 2;
  decltype(kernel(stencilKernel<0>(Stage()), 1u, 1u)) K0;
  decltype(kernel(stencilKernel<1>(Stage()), 1u, 1u)) K1;
  decltype(kernel(stencilKernel<2>(Stage()), 1u, 1u)) K2;
  decltype(kernel(stencilKernel<3>(Stage()), 1u, 1u)) K3;

  explicit Grid(int N)
      : N(N), Buf{device_vector<float>(stencil::initialField(N, 0)),
                  device_vector<float>(stencil::initialField(N, 1)),
                  device_vector<float>(stencil::points(N))},
        K0(kernel(stencilKernel<0>(Stage()), stencil::blocksFor(N),
                  stencil::kBlock)),
        K1(kernel(stencilKernel<1>(Stage()), stencil::blocksFor(N),
                  stencil::kBlock)),
        K2(kernel(stencilKernel<2>(Stage()), stencil::blocksFor(N),
                  stencil::kBlock)),
        K3(kernel(stencilKernel<3>(Stage()), stencil::blocksFor(N),
                  stencil::kBlock)) {}

  // Calls F(kernel) with kernel K of this grid.
  template <class F> void withKernel(int K, F &&Fn) {
    switch (K) {
    case 0:
      return Fn(K0);
    case 1:
      return Fn(K1);
    case 2:
      return Fn(K2);
    default:
      return Fn(K3);
    }
  }

  // next = kernel_K(cur, prev), then the buffers rotate; with Check, the
  // launch is compared with the CPU.
  void apply(int K, bool Check, const char *Side) {
    stencil::RunPhases &P = stencil::runPhases();
    std::vector<float> U, V, Got;
    if (Check) {
      stencil::timed(P.WaitMs, [] { current_stream().synchronize(); });
      stencil::timed(P.DownloadMs, [&] {
        U = Buf[Cur].download();
        V = Buf[Prev].download();
      });
    }
    stencil::timed(P.LaunchMs, [&] {
      withKernel(K, [&](auto &Kernel) {
        Kernel(Buf[Next], std::as_const(Buf[Cur]), std::as_const(Buf[Prev]), N,
               stencil::kDt);
      });
    });
    if (Check) {
      stencil::timed(P.WaitMs, [] { current_stream().synchronize(); });
      stencil::timed(P.DownloadMs, [&] { Got = Buf[Next].download(); });
      stencil::timed(P.CheckMs,
                     [&] { stencil::checkLaunch(K, N, U, V, Got, Side); });
    }
    Prev = std::exchange(Cur, std::exchange(Next, Prev));
  }

  void prepare(int K) {
    withKernel(K, [&](auto &Kernel) {
      Kernel.prepare(Buf[Next], std::as_const(Buf[Cur]),
                     std::as_const(Buf[Prev]), N, stencil::kDt);
    });
  }
};

void run(const stencil::Options &O, bool Runs) {
  current_stream().synchronize(); // the context, as nvcc's program makes it
                                  // first
  stencil::markProcess("mstage", "context");
  std::vector<int> Sizes = stencil::gridSizes(O.N);
  Grid<Staged> Fine(Sizes[0]), Coarse(Sizes[1]);
  current_stream().synchronize(); // the context and the fields are ready
  stencil::markProcess("mstage", "run start");
  auto T0 = Clock::now();
  for (int Step = 0; Step < O.Steps; ++Step) {
    bool Check = Runs && (Step == 0 || Step == O.Steps - 1);
    for (int K = 0; K < stencil::kKernels; ++K) {
      Fine.apply(K, Check, "mstage");
      Coarse.apply(K, Check, "mstage");
    }
    if (!Runs)
      break; // PTX-only: each specialization compiled once
  }
  current_stream().synchronize();
  double Ms = msSince(T0);
  stencil::markProcess("mstage", "run end");
  if (!Runs)
    return;
  std::printf("jit-cold,%s,stencil-run-%d-%d,%.3f\n", jitMode(), O.N, O.Steps,
              Ms);
  stencil::printPhases(jitMode(), Ms);
  ports::printChecksum("stencil", "mstage", size_t(O.N),
                       stencil::checksum(Fine.Buf[Fine.Cur].download()));
  std::fprintf(stderr, "PASS stencil run (%s)\n", jitMode());
}

void jitAll(const stencil::Options &O) {
  std::vector<int> Sizes = stencil::gridSizes(O.N);
  Grid<Staged> Fine(Sizes[0]), Coarse(Sizes[1]);
  current_stream().synchronize();
  auto T0 = Clock::now();
  for (int K = 0; K < stencil::kKernels; ++K) {
    Fine.prepare(K);
    Coarse.prepare(K);
  }
  jit_wait();
  // MSTAGE_JIT_THREADS=1: one compile at a time, each one's own speed.
  const char *Threads = std::getenv("MSTAGE_JIT_THREADS");
  std::string Variant = jitMode();
  if (Threads && *Threads)
    Variant += std::string("-threads") + Threads;
  std::printf("jit-cold,%s,stencil-jit-all,%.3f\n", Variant.c_str(),
              msSince(T0));
}

// The side's name; with MSTAGE_PTXAS_FAST_COMPILE=LEVEL, SIDE-ofc-LEVEL.
template <class Stage> std::string sideWithPtxas() {
  std::string Side = ports::sideName<Stage>();
  const char *Fast = std::getenv("MSTAGE_PTXAS_FAST_COMPILE");
  if (Fast && *Fast && std::strcmp(Fast, "off") && std::strcmp(Fast, "0"))
    Side += std::string("-ofc-") + Fast;
  return Side;
}

template <class Stage> void timeKernels(const stencil::Options &O) {
  const std::string SideName = sideWithPtxas<Stage>();
  const char *Side = SideName.c_str();
  Grid<Stage> G(O.N);
  for (int K = 0; K < stencil::kKernels; ++K) {
    G.apply(K, /*Check=*/true, Side);
    jit_wait();
    G.apply(K, /*Check=*/true, Side); // the specialization
    std::vector<double> Ms;
    for (int R = 0; R < O.Reps; ++R)
      G.withKernel(K, [&](auto &Kernel) {
        Ms.push_back(ports::timedLaunch(
            Kernel, G.Buf[G.Next], std::as_const(G.Buf[G.Cur]),
            std::as_const(G.Buf[G.Prev]), G.N, stencil::kDt));
      });
    ports::printRow("stencil", std::string(Side) + "-k" + std::to_string(K),
                    size_t(O.N), stencil::kBlock, stencil::blocksFor(O.N),
                    ports::median(Ms), ports::minimum(Ms),
                    3.0 * double(stencil::points(O.N) * sizeof(float)));
  }
}

} // namespace

int main(int Argc, char **Argv) {
  stencil::markProcess("mstage", "main");
  stencil::Options O = stencil::parseOptions(
      Argc, Argv,
      "mstage_stencil [--mode run|jit|kernels] [--n N] [--steps S] [--reps R]");
  if (O.Mode == "jit")
    jitAll(O);
  else if (O.Mode == "run") {
    bool Runs = ports::requireExecution("mstage_stencil");
    // The application is timed as nvcc's is, from outside: requireExecution
    // turned on the runtime's per-launch timing, whose events make each
    // launch wait for its kernel (82 of a warm run's 553 ms on an H200).
    mstage_rt_time_launches(0);
    run(O, Runs);
    stencil::markProcess("mstage", "main end", /*Last=*/true);
  } else if (ports::requireExecution("mstage_stencil")) {
    ports::printHeader();
    timeKernels<Staged>(O);
    timeKernels<Unstaged>(O);
  }
  return 0;
}
