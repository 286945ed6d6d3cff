// heat_mpi: a 2-D heat equation (Jacobi iteration) on nx x ny cells, cut
// into slabs of rows, one MPI rank per slab and one GPU per rank.
//
//   mpirun -np 2 heat_mpi [nx ny steps every] [--halo=nccl|mpi] [--plain]
//
// Each step updates every interior cell from its four neighbours; the top
// edge is held at 1, the others at 0. Between steps neighbouring ranks swap
// their edge rows (halos), and every `every` steps the global residual (the
// largest change of a cell) is reduced over all ranks. On a GPU both go
// through NCCL (libnccl.so.2, loaded at run time) on a second mstage stream
// of the rank's device, unless --halo=mpi or NCCL is missing; then, and on
// the CPU back end, the halos go through MPI on host memory. A rank updates
// its edge rows first, and their exchange overlaps the update of the rows
// between them. --plain (one rank) is the same program with no exchange
// code: the single-GPU program to compare with.
//
// Rank 0 prints the residual history and a checksum of the final field on
// stdout: both are exact (a maximum, and a sum of fixed-point values), so
// any number of ranks prints the same lines as one. Timings go to stderr.
#include "Nccl.h"

#include <mpi.h>
#include <mstage.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Options {
  unsigned Nx = 512, Ny = 512, Steps = 500, Every = 100;
  bool Nccl = true;   // on a GPU, when libnccl.so.2 loads
  bool Plain = false; // one rank, no exchange code at all
};

Options parse(int Argc, char **Argv) {
  Options O;
  unsigned *Numbers[] = {&O.Nx, &O.Ny, &O.Steps, &O.Every};
  unsigned Next = 0;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--halo=mpi")
      O.Nccl = false;
    else if (A == "--plain")
      O.Plain = true;
    else if (A == "--halo=nccl")
      O.Nccl = true;
    else if (Next < 4 && std::atol(A.c_str()) > 0)
      *Numbers[Next++] = unsigned(std::atol(A.c_str()));
    else
      throw std::runtime_error("heat_mpi: unexpected argument '" + A +
                               "'; usage: heat_mpi [nx ny steps every] "
                               "[--halo=nccl|mpi] [--plain]");
  }
  return O;
}

// The rows of the slab of rank R among P: ny / P each, the first ny % P
// ranks one more. First is the global row of the slab's first row.
void slab(unsigned Ny, int R, int P, unsigned &First, unsigned &Rows) {
  unsigned Base = Ny / unsigned(P), Extra = Ny % unsigned(P);
  Rows = Base + (unsigned(R) < Extra);
  First = unsigned(R) * Base + std::min(unsigned(R), Extra);
}

// An mstage C call's status: its error as mstage::error.
void checkRt(int Err) {
  if (Err != 0)
    throw mstage::error(mstage_rt_last_error());
}

void checkMpi(int Err, const char *What) {
  if (Err != MPI_SUCCESS)
    throw std::runtime_error(std::string("heat_mpi: ") + What + " failed");
}

// The halo and residual exchanges of one rank, on a stream of their own
// beside the rank's stream S, so that a halo exchange overlaps the update of
// the slab's interior.
class Exchange {
public:
  Exchange(const Options &O, int Rank, int Ranks, mstage::stream_ref S)
      : Rank(Rank), Ranks(Ranks), S(S), Side(S.device()) {
    bool Gpu = std::string(mstage_rt_backend()) == "cuda";
    if (Gpu && O.Nccl && !Nccl.ok() && Rank == 0)
      std::fprintf(stderr,
                   "heat_mpi: NCCL not loaded (%s); halos go "
                   "through MPI on host memory\n",
                   Nccl.why().c_str());
    UseNccl = Gpu && O.Nccl && Nccl.ok();
    if (!UseNccl)
      return;
    // NCCL's cuMem-based P2P transport (NCCL 2.28's default) took 3.4 ms a
    // step here against 0.37 ms without it (2 H200s, 8192 x 16384 cells;
    // docs/multi-gpu.md): off unless the user chose.
    setenv("NCCL_CUMEM_ENABLE", "0", /*overwrite=*/0);
    nccl::UniqueId Id;
    if (Rank == 0)
      Nccl.check(Nccl.GetUniqueId(&Id), "ncclGetUniqueId");
    checkMpi(MPI_Bcast(&Id, sizeof(Id), MPI_BYTE, 0, MPI_COMM_WORLD),
             "MPI_Bcast");
    // NCCL works on the CUDA runtime's current device: the rank's device,
    // whose primary context native_handle() makes current on this thread.
    S.device().native_handle();
    Nccl.check(Nccl.CommInitRank(&Comm, Ranks, Id, Rank), "ncclCommInitRank");
  }
  ~Exchange() {
    if (UseNccl)
      Nccl.CommDestroy(Comm);
  }
  bool nccl() const { return UseNccl; }

  // The exchange's stream waits for the work on S so far.
  void fork() { Side.wait(S.record()); }

  // Swaps the edge rows of U (rows 1 and Rows, each W values) with the
  // neighbours' halo rows (0 and Rows + 1): after S's work up to fork(),
  // and before S's work after join().
  void halos(mstage::device_vector<double> &U, unsigned W, unsigned Rows) {
    double *Base = U.data();
    double *Top = Base, *First = Base + W, *Last = Base + size_t(Rows) * W,
           *Bottom = Base + size_t(Rows + 1) * W;
    if (UseNccl) {
      Nccl.check(Nccl.GroupStart(), "ncclGroupStart");
      if (Rank > 0) {
        Nccl.check(Nccl.Send(First, W, nccl::Float64, Rank - 1, Comm,
                             Side.native_handle()),
                   "ncclSend");
        Nccl.check(Nccl.Recv(Top, W, nccl::Float64, Rank - 1, Comm,
                             Side.native_handle()),
                   "ncclRecv");
      }
      if (Rank + 1 < Ranks) {
        Nccl.check(Nccl.Send(Last, W, nccl::Float64, Rank + 1, Comm,
                             Side.native_handle()),
                   "ncclSend");
        Nccl.check(Nccl.Recv(Bottom, W, nccl::Float64, Rank + 1, Comm,
                             Side.native_handle()),
                   "ncclRecv");
      }
      Nccl.check(Nccl.GroupEnd(), "ncclGroupEnd");
      return;
    }
    // Through host memory: the edge rows come down, MPI swaps them, the
    // halos go up, all in the side stream's order.
    Host.resize(4 * size_t(W));
    double *SendUp = Host.data(), *SendDown = SendUp + W,
           *FromUp = SendDown + W, *FromDown = FromUp + W;
    size_t Bytes = W * sizeof(double);
    checkRt(mstage_rt_copy_to_host_async(SendUp, First, Bytes, Side.get()));
    checkRt(mstage_rt_copy_to_host_async(SendDown, Last, Bytes, Side.get()));
    Side.synchronize();
    int Up = Rank > 0 ? Rank - 1 : MPI_PROC_NULL;
    int Down = Rank + 1 < Ranks ? Rank + 1 : MPI_PROC_NULL;
    checkMpi(MPI_Sendrecv(SendUp, int(W), MPI_DOUBLE, Up, 0, FromDown, int(W),
                          MPI_DOUBLE, Down, 0, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE),
             "MPI_Sendrecv");
    checkMpi(MPI_Sendrecv(SendDown, int(W), MPI_DOUBLE, Down, 1, FromUp, int(W),
                          MPI_DOUBLE, Up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
             "MPI_Sendrecv");
    if (Up != MPI_PROC_NULL)
      checkRt(mstage_rt_copy_to_device_async(Top, FromUp, Bytes, Side.get()));
    if (Down != MPI_PROC_NULL)
      checkRt(
          mstage_rt_copy_to_device_async(Bottom, FromDown, Bytes, Side.get()));
    Side.synchronize(); // Host is reused
  }

  // S's later work waits for the exchange.
  void join() { S.wait(Side.record()); }

  // The largest of every rank's Local[0].
  double max(mstage::device_vector<double> &Local) {
    if (UseNccl) {
      fork();
      Nccl.check(Nccl.AllReduce(Local.data(), Local.data(), 1, nccl::Float64,
                                nccl::Max, Comm, Side.native_handle()),
                 "ncclAllReduce");
      join();
      return Local.get(0);
    }
    double Mine = Local.get(0), All = 0;
    checkMpi(MPI_Allreduce(&Mine, &All, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
             "MPI_Allreduce");
    return All;
  }

private:
  nccl::Library Nccl;
  nccl::Comm Comm = nullptr;
  bool UseNccl = false;
  int Rank, Ranks;
  mstage::stream_ref S;
  mstage::stream Side;
  std::vector<double> Host;
};

int run(int Argc, char **Argv) {
  Options O = parse(Argc, Argv);
  int Rank, Ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Ranks);
  if (O.Ny < unsigned(Ranks))
    throw std::runtime_error("heat_mpi: " + std::to_string(O.Ny) +
                             " rows cannot be cut into " +
                             std::to_string(Ranks) + " slabs");

  // One GPU per rank: the ranks of a node take its devices in turn.
  MPI_Comm Node;
  checkMpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, Rank,
                               MPI_INFO_NULL, &Node),
           "MPI_Comm_split_type");
  int Local;
  MPI_Comm_rank(Node, &Local);
  MPI_Comm_free(&Node);
  std::vector<mstage::device> Devices = mstage::devices();
  const mstage::device &Dev = Devices[unsigned(Local) % Devices.size()];
  mstage::device_guard Guard(Dev);
  mstage::stream_ref S = Dev.current_stream();

  unsigned First, Rows;
  slab(O.Ny, Rank, Ranks, First, Rows);
  const unsigned W = O.Nx + 2; // with the left and right edges
  // Rows + 2 rows: the slab and a halo row above and below. The top edge
  // (the first rank's upper halo) is hot; the rest starts cold.
  std::vector<double> Initial(size_t(Rows + 2) * W, 0.0);
  if (Rank == 0)
    for (unsigned J = 0; J < W; ++J)
      Initial[J] = 1.0;
  mstage::device_vector<double> Cur(Initial), Next(Initial);
  mstage::device_vector<double> RowMax(Rows), Max(1);

  if (O.Plain && Ranks != 1)
    throw std::runtime_error("heat_mpi: --plain is one rank alone, not " +
                             std::to_string(Ranks));
  // --plain makes no exchange at all: the single-GPU program to compare
  // with.
  std::unique_ptr<Exchange> X;
  if (!O.Plain)
    X = std::make_unique<Exchange>(O, Rank, Ranks, S);
  if (Rank == 0) {
    std::printf("heat_mpi: %u x %u cells, %u steps\n", O.Nx, O.Ny, O.Steps);
    std::fprintf(stderr,
                 "heat_mpi: %d rank(s), rank 0 on device %u (%s), halos "
                 "through %s\n",
                 Ranks, Dev.index(), Dev.arch().c_str(),
                 !X          ? "nothing (--plain)"
                 : X->nccl() ? "NCCL"
                             : "MPI");
  }

  // Rows First, First + Step, ... (Count of them) of V from U. Only the
  // width is staged: ranks whose slabs differ by a row share the code.
  auto Update = [](const auto &U, auto &V, unsigned Width, unsigned First,
                   unsigned Step, unsigned Count) {
    unsigned Wd = mstage::stage(Width);
    auto T = mstage::Thread::get().global;
    unsigned J = T.x + 1, I = First + T.y * Step;
    if (T.y < Count && J + 1 < Wd) {
      size_t C = size_t(I) * Wd + J;
      V[C] = 0.25 * (U[C - Wd] + U[C + Wd] + U[C - 1] + U[C + 1]);
    }
  };
  // The whole slab; or, beside a neighbour, its edge rows (1 and Rows),
  // whose exchange then overlaps the update of the rows between them.
  const mstage::dim3 Block(32, 8), EdgeBlock(256, 1);
  const bool Overlap = X && Ranks > 1 && Rows > 2;
  const unsigned Inner = Overlap ? Rows - 2 : Rows;
  auto Jacobi = mstage::kernel(Update,
                               mstage::dim3((O.Nx + Block.x - 1) / Block.x,
                                            (Inner + Block.y - 1) / Block.y),
                               Block);
  auto Edges = mstage::kernel(
      Update, mstage::dim3((O.Nx + EdgeBlock.x - 1) / EdgeBlock.x, 2),
      EdgeBlock);
  // The largest change in each row, then in the slab.
  auto RowChange = mstage::kernel(
      [](const auto &U, const auto &V, auto &Out, unsigned Width) {
        unsigned Wd = mstage::stage(Width);
        unsigned R = mstage::Thread::get().global.x;
        if (R < Out.size()) {
          size_t Base = size_t(R + 1) * Wd;
          double M = 0;
          for (unsigned J = 1; J + 1 < Wd; ++J) {
            double D = V[Base + J] - U[Base + J];
            D = D < 0 ? -D : D;
            M = D > M ? D : M;
          }
          Out[R] = M;
        }
      },
      (Rows + 127) / 128, 128);
  auto Largest = mstage::kernel(
      [](const auto &In, auto &Out) {
        double M = 0;
        for (size_t I = 0; I < In.size(); ++I)
          M = In[I] > M ? In[I] : M;
        Out[0] = M;
      },
      1, 1);

  std::vector<double> History;
  double T0 = 0;
  for (unsigned Step = 1; Step <= O.Steps; ++Step) {
    if (Step == 2) { // from when the specialized kernels are in use
      checkRt(mstage_rt_jit_wait());
      S.synchronize();
      MPI_Barrier(MPI_COMM_WORLD);
      T0 = MPI_Wtime();
    }
    if (Overlap) {
      Edges(Cur, Next, W, 1u, Rows - 1, 2u);
      X->fork();
      Jacobi(Cur, Next, W, 2u, 1u, Inner); // beside the exchange
      X->halos(Next, W, Rows);
      X->join();
    } else {
      Jacobi(Cur, Next, W, 1u, 1u, Rows);
      if (X && Ranks > 1)
        X->fork(), X->halos(Next, W, Rows), X->join();
    }
    if (Step % O.Every == 0 || Step == O.Steps) {
      RowChange(Cur, Next, RowMax, W);
      Largest(RowMax, Max);
      History.push_back(X ? X->max(Max) : Max.get(0));
    }
    std::swap(Cur, Next);
  }
  S.synchronize();
  MPI_Barrier(MPI_COMM_WORLD);
  double Seconds = MPI_Wtime() - T0;

  // The checksum: each interior cell in 32-bit fixed point, summed exactly.
  std::vector<double> Field = Cur.download();
  uint64_t Mine = 0, Sum = 0;
  for (unsigned I = 1; I <= Rows; ++I)
    for (unsigned J = 1; J + 1 < W; ++J)
      Mine += uint64_t(std::llround(Field[size_t(I) * W + J] * 4294967296.0));
  checkMpi(MPI_Reduce(&Mine, &Sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD),
           "MPI_Reduce");
  if (Rank == 0) {
    unsigned Step = 0;
    for (double R : History) {
      Step = std::min(Step + O.Every, O.Steps);
      std::printf("step %u residual %.17g\n", Step, R);
    }
    std::printf("checksum %016llx\n", static_cast<unsigned long long>(Sum));
    double Cells = double(O.Nx) * O.Ny * (O.Steps - 1);
    std::fprintf(stderr,
                 "heat_mpi: %u steps in %.4f s after the first, %.1f Mcells/s "
                 "(%.1f per rank)\n",
                 O.Steps - 1, Seconds, Cells / Seconds / 1e6,
                 Cells / Seconds / 1e6 / Ranks);
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  int Status = 0;
  try {
    Status = run(Argc, Argv);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "%s\n", E.what());
    Status = 1;
  }
  if (Status != 0)
    MPI_Abort(MPI_COMM_WORLD, Status);
  MPI_Finalize();
  return Status;
}
