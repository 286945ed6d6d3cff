//===- programmatic_launch.cpp - GPU suite: MSTAGE_PDL launches -----------===//
//
// Programmatic Dependent Launch (MSTAGE_PDL=1, sm_90 and newer): each JIT
// specialization waits at its entry for the kernel before it, so the next
// kernel may start while that one finishes. Each part runs in child
// processes (the setting is read once per process) with MSTAGE_PDL=0,
// MSTAGE_PDL=1, and MSTAGE_PDL=1 with MSTAGE_GRAPHS=auto (programmatic edges
// in the replayed graphs), and each result must equal the CPU's, computed
// here:
//  - "chain": 32 kernels over 4M words, each reading the word the previous
//    kernel wrote at the mirrored index, so the first blocks of each kernel
//    read what the last blocks of the one before wrote (a kernel that did
//    not wait would read the value before);
//  - "pingpong": 400 steps of two small kernels, each reading its
//    neighbours in the buffer the other one wrote (launch-bound: where the
//    launches overlap most).
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

constexpr const char *Name = "programmatic_launch";

namespace {

bool quick() { return std::getenv("MSTAGE_SUITE_QUICK") != nullptr; }
uint32_t chainWords() { return quick() ? 1u << 20 : 1u << 22; }
constexpr unsigned ChainKernels = 32, PingWords = 1 << 14;
unsigned pingSteps() { return quick() ? 100 : 400; }

uint64_t checksum(const std::vector<uint32_t> &V) {
  uint64_t H = 1469598103934665603ull;
  for (uint32_t W : V)
    H = (H ^ W) * 1099511628211ull;
  return H;
}

uint32_t initial(uint32_t I) { return I * 2654435761u + 12345u; }

// The CPU's results, as the kernels below compute them.
std::vector<uint32_t> chainOnCpu() {
  uint32_t N = chainWords();
  std::vector<uint32_t> A(N), B(N);
  for (uint32_t I = 0; I < N; ++I)
    A[I] = initial(I);
  for (unsigned K = 0; K < ChainKernels; ++K) {
    std::vector<uint32_t> &In = K % 2 ? B : A, &Out = K % 2 ? A : B;
    for (uint32_t I = 0; I < N; ++I)
      Out[I] = In[N - 1 - I] * 2654435761u + K;
  }
  return ChainKernels % 2 ? B : A;
}

std::vector<uint32_t> pingpongOnCpu() {
  std::vector<uint32_t> A(PingWords), B(PingWords);
  for (uint32_t I = 0; I < PingWords; ++I)
    A[I] = initial(I);
  for (unsigned S = 0; S < pingSteps(); ++S) {
    for (uint32_t I = 0; I < PingWords; ++I)
      B[I] = A[I] + A[(I + 1) % PingWords];
    for (uint32_t I = 0; I < PingWords; ++I)
      A[I] = B[I] ^ B[(I + PingWords / 2) % PingWords];
  }
  return A;
}

std::vector<uint32_t> chainOnGpu() {
  uint32_t N = chainWords();
  std::vector<uint32_t> Init(N);
  for (uint32_t I = 0; I < N; ++I)
    Init[I] = initial(I);
  mstage::device_vector<uint32_t> A(Init), B(N);
  auto Mirror = mstage::kernel(
      [](auto &Out, const auto &In, uint32_t K) {
        uint32_t I = mstage::Thread::get().global.x;
        uint32_t N = uint32_t(In.size());
        if (I < N)
          Out[I] = In[N - 1 - I] * 2654435761u + K;
      },
      N / 256, 256);
  for (unsigned K = 0; K < ChainKernels; ++K)
    K % 2 ? Mirror(A, B, K) : Mirror(B, A, K);
  return (ChainKernels % 2 ? B : A).download();
}

std::vector<uint32_t> pingpongOnGpu() {
  std::vector<uint32_t> Init(PingWords);
  for (uint32_t I = 0; I < PingWords; ++I)
    Init[I] = initial(I);
  mstage::device_vector<uint32_t> A(Init), B(PingWords);
  auto Sum = mstage::kernel(
      [](auto &Out, const auto &In) {
        uint32_t I = mstage::Thread::get().global.x;
        Out[I] = In[I] + In[(I + 1) % PingWords];
      },
      PingWords / 256, 256);
  auto Fold = mstage::kernel(
      [](auto &Out, const auto &In) {
        uint32_t I = mstage::Thread::get().global.x;
        Out[I] = In[I] ^ In[(I + PingWords / 2) % PingWords];
      },
      PingWords / 256, 256);
  for (unsigned S = 0; S < pingSteps(); ++S) {
    Sum(B, A);
    Fold(A, B);
  }
  return A.download();
}

std::string checksumLine(uint64_t H) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "CHECKSUM %016llx", (unsigned long long)H);
  return Text;
}

int run(int Argc, char **Argv) {
  if (Argc == 3 && std::string(Argv[1]) == "--child") {
    bool Chain = std::string(Argv[2]) == "chain";
    std::printf("%s\n",
                checksumLine(checksum(Chain ? chainOnGpu() : pingpongOnGpu()))
                    .c_str());
    return 0;
  }
  if (skipWithoutGpu(Name))
    return 0;
  bool OK = true;
  const std::vector<std::vector<std::string>> Settings = {
      {"MSTAGE_PDL=0", "MSTAGE_GRAPHS=off"},
      {"MSTAGE_PDL=1", "MSTAGE_GRAPHS=off"},
      {"MSTAGE_PDL=1", "MSTAGE_GRAPHS=auto"}};
  for (const char *Part : {"chain", "pingpong"}) {
    std::string Want = checksumLine(checksum(
        std::string(Part) == "chain" ? chainOnCpu() : pingpongOnCpu()));
    for (const std::vector<std::string> &Env : Settings) {
      std::vector<std::string> With = Env;
      // The specialized code (with its wait) from the first launch.
      With.push_back("MSTAGE_JIT=sync");
      ChildResult C = runThisProgram({"--child", Part}, With);
      OK &= reportChild(Name,
                        C.Status == 0 &&
                            C.Output.find(Want) != std::string::npos,
                        std::string(Part) + " with " + Env[0] + " " + Env[1] +
                            ": the CPU's bits (" + Want + ")",
                        C.Output);
    }
  }
  return OK ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
