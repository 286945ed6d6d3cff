// The paper's n-body simulation (Listing5.h) on every GPU of one process:
// the bodies are cut into slices, one per device, each device updates its
// slice against all bodies, and after each step every device gathers the
// other slices' new positions by peer copies (copy_from between devices).
//
//   nbody_multi_gpu [n steps] [--devices=D] [--slices=S] [--plain]
//                   [--no-check]
//
// --devices=D uses the first D visible devices (default: all); --slices=S
// cuts the bodies into S slices, slice s on device s % D (default: one per
// device), each with its own copy of the positions, so that the gather is
// exercised with one device too (the CPU back end). --plain runs the paper's
// kernel unchanged on one device: the same program with no multi-GPU code, to
// compare with. Unless --no-check (for timings), the split is then checked
// against --plain: it prints PASS when the positions agree.
//
// It prints a checksum of the final positions' bits on stdout: a slice
// computes each body as the paper's kernel does, so every split prints the
// same as --plain. Timings go to stderr.
#include "Listing5.h"
#include "NbodyReference.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
  size_t N = 4096;
  unsigned Steps = 10, Devices = 0, Slices = 0;
  bool Plain = false, Check = true;
};

Options parse(int Argc, char **Argv) {
  Options O;
  unsigned Numbers = 0;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](const char *Flag) -> long {
      size_t L = std::strlen(Flag);
      return A.compare(0, L, Flag) == 0 ? std::atol(A.c_str() + L) : -1;
    };
    if (A == "--plain")
      O.Plain = true;
    else if (A == "--no-check")
      O.Check = false;
    else if (Value("--devices=") > 0)
      O.Devices = unsigned(Value("--devices="));
    else if (Value("--slices=") > 0)
      O.Slices = unsigned(Value("--slices="));
    else if (Numbers == 0 && std::atol(A.c_str()) > 0)
      O.N = size_t(std::atol(A.c_str())), ++Numbers;
    else if (Numbers == 1 && std::atol(A.c_str()) > 0)
      O.Steps = unsigned(std::atol(A.c_str())), ++Numbers;
    else
      throw std::runtime_error(
          "nbody_multi_gpu: unexpected argument '" + A +
          "'; usage: nbody_multi_gpu [n steps] [--devices=D] [--slices=S] "
          "[--plain] [--no-check]");
  }
  return O;
}

constexpr unsigned BlockSize = 256;

// Listing 5 for the bodies [First, First + Vel.size()) of Pos: their new
// positions go to the same places of NPos.
auto sliceKernel() {
  return [eps2 = 0.00125f](const auto &Pos, auto &NPos, auto &Vel,
                           unsigned First) {
    auto Idx = Thread::get().global.x;
    bool Disabled = Idx >= stage(Vel.size());
    data_t P, V;
    if (!Disabled)
      P = Pos[First + Idx];
    data_t A = {0.0f, 0.0f, 0.0f, 0.0f};
    data_t R = {0.0f, 0.0f, 0.0f, 0.0f};
    for_each(
        Pos,
        [&](auto Elem) {
          R.x = P.x - Elem.x;
          R.y = P.y - Elem.y;
          R.z = P.z - Elem.z;
          R.w = 1.0f / std::sqrt(sq(R.x) + sq(R.y) + sq(R.z) + eps2);
          A.w = G * Elem.w * cu(R.w);
          A.x += A.w * R.x;
          A.y += A.w * R.y;
          A.z += A.w * R.z;
        },
        Staged{});
    if (!Disabled)
      V = Vel[Idx];
    P.x += V.x * dt + A.x * 0.5f * sq(dt);
    P.y += V.y * dt + A.y * 0.5f * sq(dt);
    P.z += V.z * dt + A.z * 0.5f * sq(dt);
    V.x += A.x * dt;
    V.y += A.y * dt;
    V.z += A.z * dt;
    if (!Disabled) {
      Vel[Idx] = V;
      NPos[First + Idx] = P;
    }
  };
}

using Clock = std::chrono::steady_clock;

// The positions after O.Steps steps, and the time of the steps after the
// first (which compiles).
struct Result {
  std::vector<data_t> Pos;
  double Seconds = 0;
};

// The paper's kernel as it is, on the current device.
Result runPlain(const Options &O, const std::vector<data_t> &Pos0,
                const std::vector<data_t> &Vel0) {
  mstage::device_vector<data_t> Pos(Pos0), NPos(O.N), Vel(Vel0);
  auto K = kernel(nbodyKernel(Staged{}), (O.N + BlockSize - 1) / BlockSize,
                  BlockSize, BlockSize * sizeof(data_t));
  Clock::time_point T0;
  for (unsigned Step = 1; Step <= O.Steps; ++Step) {
    if (Step == 2) {
      mstage::synchronize();
      T0 = Clock::now();
    }
    K(Pos, NPos, Vel);
    std::swap(Pos, NPos);
  }
  mstage::synchronize();
  Result R;
  R.Seconds = std::chrono::duration<double>(Clock::now() - T0).count();
  R.Pos = Pos.download();
  return R;
}

// A slice: its bodies' velocities, and its own copy of all positions (this
// step's and the next) on its device.
struct Slice {
  mstage::device Dev;
  unsigned First, Count;
  mstage::device_vector<data_t> Vel, Pos[2];
  mstage::Kernel<decltype(sliceKernel())> K;
};

Result runSplit(const Options &O, const std::vector<mstage::device> &Devices,
                unsigned NumSlices, const std::vector<data_t> &Pos0,
                const std::vector<data_t> &Vel0) {
  std::vector<Slice> Slices;
  for (unsigned S = 0; S < NumSlices; ++S) {
    size_t First = O.N * S / NumSlices, End = O.N * (S + 1) / NumSlices;
    unsigned Count = unsigned(End - First);
    const mstage::device &Dev = Devices[S % Devices.size()];
    mstage::device_guard Guard(Dev);
    std::vector<data_t> Vel(Vel0.begin() + First, Vel0.begin() + End);
    Slices.push_back(Slice{Dev,
                           unsigned(First),
                           Count,
                           mstage::device_vector<data_t>(Vel),
                           {mstage::device_vector<data_t>(Pos0),
                            mstage::device_vector<data_t>(O.N)},
                           kernel(sliceKernel(),
                                  unsigned((Count + BlockSize - 1) / BlockSize),
                                  BlockSize, BlockSize * sizeof(data_t))});
  }

  Clock::time_point T0;
  unsigned Cur = 0;
  for (unsigned Step = 1; Step <= O.Steps; ++Step) {
    if (Step == 2) {
      mstage::synchronize();
      T0 = Clock::now();
    }
    unsigned Next = 1 - Cur;
    for (Slice &S : Slices)
      if (S.Count != 0)
        S.K.on(S.Dev)(S.Pos[Cur], S.Pos[Next], S.Vel, S.First);
    // Every slice gathers the others' new positions, each copy after the
    // kernel that wrote them (a peer copy between two devices).
    for (Slice &To : Slices)
      for (const Slice &From : Slices)
        if (&From != &To)
          To.Pos[Next].copy_from(From.Pos[Next], From.First, From.Count,
                                 From.First);
    Cur = Next;
  }
  mstage::synchronize();
  Result R;
  R.Seconds = std::chrono::duration<double>(Clock::now() - T0).count();
  R.Pos = Slices[0].Pos[Cur].download();
  return R;
}

uint64_t checksum(const std::vector<data_t> &Pos) {
  uint64_t H = 1469598103934665603ull; // FNV-1a over the bits
  for (const data_t &P : Pos) {
    const auto *B = reinterpret_cast<const unsigned char *>(&P);
    for (size_t I = 0; I < sizeof(P); ++I)
      H = (H ^ B[I]) * 1099511628211ull;
  }
  return H;
}

double worstDifference(const std::vector<data_t> &A,
                       const std::vector<data_t> &B) {
  double Worst = 0;
  for (size_t I = 0; I < A.size(); ++I) {
    const float X[] = {A[I].x, A[I].y, A[I].z}, Y[] = {B[I].x, B[I].y, B[I].z};
    for (int C = 0; C < 3; ++C) {
      double D = std::fabs(double(X[C]) - Y[C]) /
                 std::max(1e-3, std::fabs(double(Y[C])));
      if (!(D <= Worst))
        Worst = std::isnan(D) ? INFINITY : D;
    }
  }
  return Worst;
}

void report(const char *What, const Options &O, const Result &R) {
  std::printf("checksum %016llx\n",
              static_cast<unsigned long long>(checksum(R.Pos)));
  double Steps = O.Steps - 1;
  if (Steps > 0)
    std::fprintf(stderr,
                 "nbody_multi_gpu: %s: %u steps in %.4f s after the first, "
                 "%.3f ms per step, %.1f G interactions/s\n",
                 What, O.Steps - 1, R.Seconds, R.Seconds / Steps * 1e3,
                 double(O.N) * double(O.N) * Steps / R.Seconds / 1e9);
}

int run(int Argc, char **Argv) {
  Options O = parse(Argc, Argv);
  std::vector<mstage::device> All = mstage::devices();
  if (O.Devices > All.size())
    throw std::runtime_error(
        "nbody_multi_gpu: --devices=" + std::to_string(O.Devices) +
        ", but only " + std::to_string(All.size()) + " device(s) are visible");
  std::vector<mstage::device> Devices(
      All.begin(), All.begin() + (O.Devices ? O.Devices : All.size()));
  unsigned Slices = O.Slices ? O.Slices : unsigned(Devices.size());
  if (Slices > O.N)
    throw std::runtime_error("nbody_multi_gpu: " + std::to_string(O.N) +
                             " bodies cannot be cut into " +
                             std::to_string(Slices) + " slices");

  std::vector<data_t> Pos0, Vel0;
  randomBodies(O.N, Pos0, Vel0);
  std::printf("nbody_multi_gpu: %zu bodies, %u steps\n", O.N, O.Steps);
  if (O.Plain) {
    std::fprintf(stderr, "nbody_multi_gpu: the paper's kernel on device %u\n",
                 mstage::device::current().index());
    report("plain", O, runPlain(O, Pos0, Vel0));
    return 0;
  }
  std::fprintf(stderr, "nbody_multi_gpu: %u slice(s) on %zu device(s) (%s)\n",
               Slices, Devices.size(), Devices[0].arch().c_str());
  Result Split = runSplit(O, Devices, Slices, Pos0, Vel0);
  if (mstage_rt_executes() != 1) {
    std::printf("nbody_multi_gpu: compiled to PTX only, result not checked\n");
    return 0;
  }
  report("split", O, Split);
  if (!O.Check)
    return 0;
  Result Plain = runPlain(O, Pos0, Vel0);
  double Worst = worstDifference(Split.Pos, Plain.Pos);
  bool Same = checksum(Split.Pos) == checksum(Plain.Pos);
  std::printf("against the paper's kernel on one device: %s, worst relative "
              "difference %.3g\n",
              Same ? "the same bits" : "different bits", Worst);
  bool OK = Worst < 1e-5;
  std::printf("nbody_multi_gpu: %s\n", OK ? "PASS" : "FAIL");
  return OK ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  try {
    return run(Argc, Argv);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "%s\n", E.what());
    return 1;
  }
}
