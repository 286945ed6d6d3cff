//===- graph_replay.cpp - GPU suite: MSTAGE_GRAPHS=auto's replays ---------===//
//
// Issue 36's automatic graph replay, each part in a child process (the
// setting is read once per process):
//  - "heat": a 2-D heat equation on 256x256, two buffers swapped each step,
//    each step's field copied on the device into a third vector (a period of
//    2 launches and 2 copies, replayed with its copies), the largest change
//    (its vector filled with -1 first) and the copy every 100 steps
//    downloaded; 1000 steps (200 with MSTAGE_SUITE_QUICK). Its checksum (the bits of the final grid and of
//    every check) with MSTAGE_GRAPHS=auto equals the one with replay off,
//    and MSTAGE_STATS shows that graphs were replayed; with programmatic
//    launches (MSTAGE_PDL=1), with replay and without, it is the same again;
//  - "heat-edges": the same equation with a step's interior and its fixed
//    edges written by two kernels (bench/HeatKernels.h's), which replay runs
//    on parallel branches (replay/GraphBranches.h; MSTAGE_TRACE says how
//    many nodes run beside the one before them): the same bits with replay
//    off, on, and on with MSTAGE_GRAPH_BRANCHES=0 (a chain);
//  - "fault": a period of two kernels (a heat step, and a kernel that counts
//    its launches in device memory) whose second faults at its 60th launch,
//    inside a replayed graph: synchronize() throws, naming that kernel and a
//    CUDA_ERROR_ code.
// On the CPU back end replay is off: the heat checksums agree there too, and
// the fault part is skipped.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

constexpr const char *Name = "graph_replay";
constexpr unsigned Side = 256, Block = 16;

namespace {

bool has(const std::string &S, const std::string &Part) {
  return S.find(Part) != std::string::npos;
}

uint64_t mix(uint64_t H, const std::vector<float> &V) {
  for (float F : V) {
    uint32_t Bits;
    std::memcpy(&Bits, &F, 4);
    H = (H ^ Bits) * 1099511628211ull;
  }
  return H;
}

auto heatStep() {
  return mstage::kernel(
      [](auto &Out, const auto &In, float Alpha) {
        auto T = mstage::Thread::get();
        unsigned X = T.global.x, Y = T.global.y;
        if (X == 0 || Y == 0 || X >= Side - 1 || Y >= Side - 1)
          return;
        unsigned I = Y * Side + X;
        Out[I] = In[I] + Alpha * (In[I - 1] + In[I + 1] + In[I - Side] +
                                  In[I + Side] - 4 * In[I]);
      },
      mstage::dim3(Side / Block, Side / Block), mstage::dim3(Block, Block));
}

auto maxChange() {
  return mstage::kernel(
      [](auto &Change, const auto &A, const auto &B) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < A.size()) {
          float D = A[I] - B[I];
          Change[I] = D < 0 ? -D : D;
        }
      },
      Side * Side / 256, 256);
}

unsigned steps() { return std::getenv("MSTAGE_SUITE_QUICK") ? 200 : 1000; }

// Prints the checksum of the steps, with a check every 100.
int heatChild() {
  std::vector<float> Init(Side * Side, 0.0f);
  for (unsigned X = 0; X < Side; ++X)
    Init[X] = 100.0f; // a hot edge
  mstage::device_vector<float> A(Init), B(Init), Change(Side * Side),
      Last(Side * Side);
  auto Step = heatStep();
  auto Diff = maxChange();
  uint64_t H = 1469598103934665603ull;
  for (unsigned S = 1; S <= steps(); ++S) {
    if (S % 2)
      Step(B, A, 0.2f);
    else
      Step(A, B, 0.2f);
    Last.copy_from(S % 2 ? B : A);
    if (S % 100 == 0) {
      Change.fill(-1.0f);
      Diff(Change, A, B);
      H = mix(H, Change.download());
      H = mix(H, Last.download());
    }
  }
  H = mix(H, A.download());
  std::printf("CHECKSUM %016llx\n", (unsigned long long)H);
  return 0;
}

// heat's interior (Out from In) and its edges (Out's), as two kernels.
auto interiorStep() {
  return mstage::kernel(
      [](auto &Out, const auto &In) {
        auto T = mstage::Thread::get();
        unsigned X = T.global.x, Y = T.global.y;
        if (X >= 1 && X + 1 < Side && Y >= 1 && Y + 1 < Side)
          Out[Y * Side + X] =
              0.25f * (In[(Y - 1) * Side + X] + In[(Y + 1) * Side + X] +
                       In[Y * Side + X - 1] + In[Y * Side + X + 1]);
      },
      mstage::dim3(Side / Block, Side / Block), mstage::dim3(Block, Block));
}
auto edgeStep() {
  return mstage::kernel(
      [](auto &U) {
        unsigned T = mstage::Thread::get().global.x;
        if (T >= Side)
          return;
        U[T * Side] = 1.0f;
        U[T * Side + Side - 1] = 0.0f;
        if (T > 0) {
          U[T] = 0.0f;
          U[(Side - 1) * Side + T] = 0.0f;
        }
      },
      1, Side);
}

int heatEdgesChild() {
  std::vector<float> Init(Side * Side, 0.5f);
  mstage::device_vector<float> A(Init), B(Init);
  auto Interior = interiorStep();
  auto Edges = edgeStep();
  uint64_t H = 1469598103934665603ull;
  for (unsigned S = 1; S <= steps(); ++S) {
    auto &Old = S % 2 ? A : B;
    auto &New = S % 2 ? B : A;
    Interior(New, Old);
    Edges(New);
    if (S % 100 == 0)
      H = mix(H, New.download());
  }
  std::printf("CHECKSUM %016llx\n", (unsigned long long)H);
  return 0;
}

// Faults at its 60th launch, which runs inside a replayed graph: the
// launches are all equal, so the count is kept in device memory.
auto countingBadKernel() {
  int *Bad = reinterpret_cast<int *>(std::uintptr_t(0x10)); // not device memory
  return mstage::kernel(
      [Bad](auto &Count) {
        if (mstage::Thread::get().global.x != 0)
          return;
        if (++Count[0] == 60)
          Bad[0] = 1;
      },
      1, 32);
}

int faultChild() {
  mstage::device_vector<float> A(Side * Side, 1.0f), B(Side * Side, 1.0f);
  mstage::device_vector<int> Count(1, 0);
  auto Step = heatStep();
  auto Bad = countingBadKernel();
  try {
    for (unsigned I = 0; I < 100; ++I) {
      Step(B, A, 0.2f);
      Bad(Count);
    }
    mstage::current_stream().synchronize();
    std::printf("NOTHROW\n");
  } catch (const mstage::error &E) {
    std::printf("THROWN: %s\n", E.what());
  }
  return 0;
}

std::string checksumOf(const std::string &Output) {
  size_t At = Output.find("CHECKSUM ");
  return At == std::string::npos ? "" : Output.substr(At, 25);
}

int run(int Argc, char **Argv) {
  if (Argc == 3 && std::string(Argv[1]) == "--child")
    return std::string(Argv[2]) == "heat"         ? heatChild()
           : std::string(Argv[2]) == "heat-edges" ? heatEdgesChild()
                                                  : faultChild();
  if (skipWithoutGpu(Name))
    return 0;
  bool OK = true;
  // MSTAGE_JIT=sync: the specialized code from the first step (the generic
  // code is not replayed, and would leave a short run without replays).
  ChildResult Off = runThisProgram(
      {"--child", "heat"}, {"MSTAGE_GRAPHS=off", "MSTAGE_JIT=sync", "MSTAGE_CHECK"});
  ChildResult Auto = runThisProgram({"--child", "heat"},
                                    {"MSTAGE_GRAPHS=auto", "MSTAGE_JIT=sync",
                                     "MSTAGE_STATS=1", "MSTAGE_CHECK"});
  std::string Sum = checksumOf(Off.Output);
  OK &= reportChild(Name, Off.Status == 0 && Auto.Status == 0 && !Sum.empty() &&
                   Sum == checksumOf(Auto.Output),
               "heat 256x256, " + std::to_string(steps()) +
                   " steps: the same bits with and without replay (" + Sum +
                   ")",
               Off.Output + Auto.Output);
  // Programmatic launches (MSTAGE_PDL=1), plain and in replayed graphs.
  for (const char *Graphs : {"MSTAGE_GRAPHS=off", "MSTAGE_GRAPHS=auto"}) {
    ChildResult Pdl = runThisProgram(
        {"--child", "heat"},
        {Graphs, "MSTAGE_PDL=1", "MSTAGE_JIT=sync", "MSTAGE_CHECK"});
    OK &= reportChild(Name,
                      Pdl.Status == 0 && !Sum.empty() &&
                          Sum == checksumOf(Pdl.Output),
                      std::string("heat with MSTAGE_PDL=1 ") + Graphs +
                          ": the same bits as without (" + Sum + ")",
                      Pdl.Output);
  }
  // A step's two kernels on parallel branches, and as a chain.
  ChildResult EdgesOff = runThisProgram(
      {"--child", "heat-edges"},
      {"MSTAGE_GRAPHS=off", "MSTAGE_JIT=sync", "MSTAGE_CHECK"});
  std::string EdgesSum = checksumOf(EdgesOff.Output);
  ChildResult Branches = runThisProgram(
      {"--child", "heat-edges"},
      {"MSTAGE_GRAPHS=auto", "MSTAGE_JIT=sync", "MSTAGE_TRACE=1",
       "MSTAGE_CHECK"});
  for (const ChildResult *R : {&EdgesOff, &Branches})
    OK &= reportChild(Name,
                      EdgesOff.Status == 0 && R->Status == 0 &&
                          !EdgesSum.empty() &&
                          EdgesSum == checksumOf(R->Output),
                      std::string("heat with its edges in a kernel of their "
                                  "own, ") +
                          (R == &EdgesOff ? "replay off" : "parallel branches") +
                          ": the same bits (" + EdgesSum + ")",
                      R->Output);
  ChildResult Chain = runThisProgram(
      {"--child", "heat-edges"},
      {"MSTAGE_GRAPHS=auto", "MSTAGE_GRAPH_BRANCHES=0", "MSTAGE_JIT=sync",
       "MSTAGE_CHECK"});
  OK &= reportChild(Name,
                    Chain.Status == 0 && !EdgesSum.empty() &&
                        EdgesSum == checksumOf(Chain.Output),
                    "the same with MSTAGE_GRAPH_BRANCHES=0 (" + EdgesSum + ")",
                    Chain.Output);
  if (onCpu()) {
    std::printf("SKIP %s: replay and faults need a GPU\n", Name);
    return OK ? 0 : 1;
  }
  OK &= reportChild(Name, has(Auto.Output, "graph replays: ") &&
                   !has(Auto.Output, "graph replays: 0 "),
               "heat: MSTAGE_STATS counts graph replays", Auto.Output);
  OK &= reportChild(Name, has(Branches.Output, " beside the node before them)"),
                    "heat's interior and edges: replayed on parallel branches",
                    Branches.Output);
  ChildResult F = runThisProgram({"--child", "fault"},
                                 {"MSTAGE_GRAPHS=auto", "MSTAGE_JIT=sync",
                                  "MSTAGE_CHECK"},
                                 /*WithStderr=*/false);
  OK &= reportChild(Name, F.Status == 0 && has(F.Output, "THROWN: ") &&
                   has(F.Output, "countingBadKernel") &&
                   has(F.Output, "CUDA_ERROR_"),
               "a fault inside a replayed graph names its kernel", F.Output);
  return OK ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
