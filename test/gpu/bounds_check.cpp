//===- bounds_check.cpp - GPU suite: bounds checks in kernels --------------===//
//
// Built with MSTAGE_BOUNDS_CHECK=1. First, checked accesses that stay in
// bounds (a gather through vector_view, mdspan and a shared_arena) give the
// CPU reference's result. Then the program runs itself (--child MODE) for
// each kind of failure and checks that the child failed and printed the
// file:line of the access, the index and the size, and, on the GPU, that the
// launch failed with CUDA_ERROR_ASSERT and the kernel's name (on the CPU
// back end: that the process aborted, naming the kernel, block and thread):
//   vector  thread 40 reads in[70] of 64 elements;
//   mdspan  thread 5 reads m(5, 9) of an 8 x 8 mdspan;
//   shared  the arena takes 200 floats of a 512-byte launch;
//   barrier the threads of warps 2 and 3 return before a block barrier: it
//           reports that 64 of the block's 128 threads reached it;
//   host    the host reads a vector_view out of bounds (runs without a GPU).
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "bounds_check";

int childVector() {
  std::vector<int> In(64, 1), Out(64);
  constexpr int Line = __LINE__ + 6; // the access below
  std::printf("line %d\n", Line);
  std::fflush(stdout); // before a failed check aborts
  mstage::kernel(
      [](const auto &In, auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        Out[I] = In[I == 40 ? I + 30 : I];
      },
      1, 64)(In, Out);
  return 0;
}

int childMdspan() {
  std::vector<int> In(64, 1), Out(64);
  constexpr int Line = __LINE__ + 7; // the access below
  std::printf("line %d\n", Line);
  std::fflush(stdout); // before a failed check aborts
  mstage::kernel(
      [](const auto &In, auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        mstage::mdspan M(In.data(), 8, 8);
        Out[I] = M(I % 8, I == 5 ? 9u : I / 8);
      },
      1, 64)(In, Out);
  return 0;
}

int childShared() {
  std::vector<float> Out(32);
  constexpr int Line = __LINE__ + 6; // the take below
  std::printf("line %d\n", Line);
  std::fflush(stdout); // before a failed check aborts
  mstage::kernel(
      [](auto &Out) {
        mstage::shared_arena Arena;
        auto S = Arena.take<float>(200);
        unsigned T = mstage::Thread::get().index.x;
        S[T] = float(T);
        Out[T] = S[T];
      },
      1, 32, 512)(Out);
  return 0;
}

int childBarrier() {
  std::vector<int> Out(128);
  constexpr int Line = __LINE__ + 9; // the barrier below
  std::printf("line %d\n", Line);
  std::fflush(stdout);
  mstage::kernel(
      [](auto &Out) {
        unsigned T = mstage::Thread::get().index.x;
        if (T >= 64)
          return;
        Out[T] = int(T);
        mstage::Block::get().synchronize();
        Out[T] += Out[63 - T];
      },
      1, 128)(Out);
  return 0;
}

int childHost() {
  std::vector<int> H(4, 0);
  mstage::vector_view<int> V(H.data(), H.size());
  constexpr int Line = __LINE__ + 3; // the access below
  std::printf("line %d\n", Line);
  std::fflush(stdout); // before a failed check aborts
  return V[H.size() + 1];
}

// Runs the child for Mode and checks its output for each of Want (with
// "@LINE" replaced by the line the child printed).
bool expectFailure(const std::string &Mode, std::vector<std::string> Want) {
  ChildResult C = runThisProgram({"--child", Mode});
  const std::string &T = C.Output;
  std::size_t At = T.find("line ");
  std::string Line =
      At == std::string::npos ? "?" : std::to_string(std::stoi(T.substr(At + 5)));
  bool OK = C.Status != 0;
  for (std::string &W : Want) {
    std::size_t P = W.find("@LINE");
    if (P != std::string::npos)
      W.replace(P, 5, Line);
    OK = OK && T.find(W) != std::string::npos;
  }
  if (!OK)
    std::printf("FAIL %s: child '%s' exited with %d and printed:\n%s\n", Name,
                Mode.c_str(), C.Status, T.c_str());
  return OK;
}

// Checked accesses in bounds change nothing: a gather through a vector_view,
// an mdspan and a shared_arena against the CPU's.
bool inBoundsMatches() {
  constexpr unsigned Block = 128, Blocks = 40;
  std::mt19937 Gen(99);
  std::vector<int> In(Block * Blocks), Idx(In.size()), Out(In.size(), -1);
  for (std::size_t I = 0; I < In.size(); ++I) {
    In[I] = int(Gen() % 100000);
    Idx[I] = int(Gen() % In.size());
  }
  mstage::kernel(
      [](const auto &In, const auto &Idx, auto &Out) {
        auto Sm = mstage::shared_arena().take<int>(Block);
        unsigned T = mstage::Thread::get().index.x;
        std::size_t G = mstage::Thread::get().global.x;
        Sm[T] = In[Idx[G]];
        mstage::Block::get().synchronize();
        mstage::mdspan M(In.data(), In.size() / Block, std::size_t(Block));
        Out[G] = Sm[(T + 1) % Block] + M(G / Block, T);
      },
      Blocks, Block, Block * sizeof(int))(In, Idx, Out);
  for (std::size_t G = 0; G < In.size(); ++G) {
    std::size_t Base = G / Block * Block;
    int Want = In[Idx[Base + (G % Block + 1) % Block]] + In[G];
    if (Out[G] != Want) {
      std::printf("FAIL %s: out[%zu] = %d, expected %d\n", Name, G, Out[G],
                  Want);
      return false;
    }
  }
  return true;
}

int run(int Argc, char **Argv) {
  if (Argc == 3 && std::string(Argv[1]) == "--child") {
    std::string Mode = Argv[2];
    if (Mode == "vector")
      return childVector();
    if (Mode == "mdspan")
      return childMdspan();
    if (Mode == "shared")
      return childShared();
    if (Mode == "barrier")
      return childBarrier();
    return childHost();
  }
  // The host's check needs no GPU.
  if (!expectFailure("host",
                     {"bounds_check.cpp:@LINE: ",
                      "index 5 is out of bounds for vector_view of size 4"}))
    return 1;
  if (skipWithoutGpu(Name))
    return 0;
  if (!inBoundsMatches())
    return 1;
  // On the GPU the launch fails with CUDA_ERROR_ASSERT; on the CPU the check
  // aborts the process, as on the host, and says where.
  bool Cpu = onCpu();
  const std::string Kernel = Cpu ? "mstage: in kernel '(anonymous namespace)::"
                                 : "mstage: kernel '(anonymous namespace)::";
  auto Stop = [&](const char *Thread) {
    return Cpu ? std::string("on the CPU, block (0, 0, 0), thread ") + Thread
               : std::string("CUDA_ERROR_ASSERT");
  };
  bool OK =
      expectFailure("vector",
                    {"bounds_check.cpp:@LINE: ",
                     "index 70 is out of bounds for vector_view of size 64",
                     Stop("(40, 0, 0)"), Kernel + "childVector::kernel_L"}) &&
      expectFailure("mdspan",
                    {"bounds_check.cpp:@LINE: ",
                     "index 9 is out of bounds for mdspan extent 1 of size 8",
                     Stop("(5, 0, 0)"), Kernel + "childMdspan::kernel_L"}) &&
      expectFailure("shared",
                    {"bounds_check.cpp:@LINE: ",
                     "the kernel needs 800 bytes of dynamic shared memory, "
                     "the launch gave 512",
                     Stop("("), Kernel + "childShared::kernel_L"}) &&
      expectFailure("barrier",
                    {"bounds_check.cpp:@LINE: ",
                     "divergent barrier: 64 of the block's 128 threads "
                     "reached it",
                     Stop("("), Kernel + "childBarrier::kernel_L"});
  if (!OK)
    return 1;
  std::printf("PASS %s: in-bounds results match the CPU; out-of-bounds "
              "accesses report file:line, index and size on the %s and "
              "the host; a divergent barrier reports its thread count\n",
              Name, Cpu ? "CPU back end (which aborts)" : "device");
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
