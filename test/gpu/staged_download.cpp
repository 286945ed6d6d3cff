//===- staged_download.cpp - GPU suite: downloads through staging chunks -===//
//
// device_vector::download() into a fresh std::vector goes through the
// runtime's two page-locked chunks on a GPU (runtime/HostStaging.h). Checked
// against the values a kernel wrote, bit for bit:
//  - sizes around the staging's edges: empty, one element, just under and at
//    256 KiB, one chunk (4 MiB) exactly and one element more, several chunks
//    of an odd count;
//  - 12-byte elements (a chunk holds whole elements only) and doubles whose
//    bits are NaNs with payloads;
//  - a download right after the kernel that writes the vector, on the
//    vector's own stream, behind a long kernel;
//  - download(std::vector&) into a vector that is larger (the plain path)
//    and smaller (the staged one);
//  - four threads downloading at once (one holds the chunks, the others go
//    the plain way), 25 times each;
//  - the path itself: on a GPU, mstage_rt_download_staged stages 256 KiB and
//    not 256 KiB less 4 bytes, nor on a capturing stream; off the GPU it
//    stages nothing.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char *Name = "staged_download";
constexpr unsigned Block = 256;

struct Triple {
  float X, Y, Z;
};

// Element I's value after a fill with Seed, for each element type.
float valueOf(float *, std::size_t I, unsigned Seed) {
  return float(I % 9973) * 0.5f + float(Seed);
}
Triple valueOf(Triple *, std::size_t I, unsigned Seed) {
  return {float(I) + float(Seed), -float(I), float(I % 7)};
}
// A quiet NaN whose payload is I and Seed (their bits must survive).
double valueOf(double *, std::size_t I, unsigned Seed) {
  std::uint64_t Bits = 0x7ff8000000000000ull |
                       ((std::uint64_t(I) << 8) & 0x0007ffffffffff00ull) |
                       (Seed & 0xffu);
  double D;
  std::memcpy(&D, &Bits, sizeof D);
  return D;
}

template <class T> std::vector<T> expected(std::size_t N, unsigned Seed) {
  std::vector<T> Out(N);
  for (std::size_t I = 0; I < N; ++I)
    Out[I] = valueOf(static_cast<T *>(nullptr), I, Seed);
  return Out;
}

// V's elements set on the GPU to what expected<T>() gives.
template <class T>
void fill(mstage::device_vector<T> &V, unsigned Seed, unsigned Spin = 0) {
  if (V.empty())
    return;
  auto K = mstage::kernel(
      [](auto &Out, unsigned S, unsigned Loops) {
        std::size_t I = mstage::Thread::get().global.x;
        // A long kernel, when asked: the download must wait for it.
        volatile unsigned Sink = 0;
        for (unsigned L = 0; L < Loops; ++L)
          Sink = Sink + L;
        if (I < Out.size())
          Out[I] = valueOf(static_cast<T *>(nullptr), I, S);
      },
      unsigned((V.size() + Block - 1) / Block), Block);
  K(V, Seed, Spin);
}

template <class T>
bool sameBits(const std::vector<T> &A, const std::vector<T> &B) {
  return A.size() == B.size() &&
         (A.empty() ||
          std::memcmp(A.data(), B.data(), A.size() * sizeof(T)) == 0);
}

template <class T>
void checkSize(SuiteChecks &Checks, std::size_t N, const std::string &What) {
  mstage::device_vector<T> V(N);
  fill(V, 3);
  std::vector<T> Got = V.download();
  Checks.report(sameBits(Got, expected<T>(N, 3)),
                What + " (" + std::to_string(N) + " elements of " +
                    std::to_string(sizeof(T)) + " bytes)");
}

int run() {
  SuiteChecks Checks(Name);
  const bool Gpu = mstage_rt_executes() == 1 &&
                   std::string(mstage_rt_backend()) == "cuda";
  const bool Quick = std::getenv("MSTAGE_SUITE_QUICK") != nullptr;
  constexpr std::size_t Chunk = std::size_t(4) << 20;

  checkSize<float>(Checks, 0, "an empty vector");
  checkSize<float>(Checks, 1, "one element");
  checkSize<float>(Checks, (256 << 10) / 4 - 1, "just under 256 KiB");
  checkSize<float>(Checks, (256 << 10) / 4, "256 KiB");
  checkSize<float>(Checks, Chunk / 4, "one chunk exactly");
  checkSize<float>(Checks, Chunk / 4 + 1, "one chunk and one element");
  checkSize<float>(Checks, Quick ? 1500007 : 5000011, "several chunks");
  checkSize<Triple>(Checks, Quick ? 700001 : 1400001,
                    "12-byte elements across chunks");
  checkSize<double>(Checks, Quick ? 600001 : 1200001,
                    "NaNs with payloads, bit for bit");

  { // Behind a long kernel on the vector's stream, read at once.
    mstage::stream S;
    mstage::device_vector<float> V(std::size_t(3) << 20, S);
    fill(V, 1, Quick ? 2000 : 200000);
    fill(V, 7);
    Checks.report(sameBits(V.download(), expected<float>(V.size(), 7)),
                  "a download right after the kernels that write the vector "
                  "on its stream");
  }

  { // Into a vector that is larger (kept) and smaller (replaced).
    mstage::device_vector<float> V(std::size_t(1) << 20);
    fill(V, 5);
    std::vector<float> Large(std::size_t(2) << 20, -1.0f), Small(10, -1.0f);
    V.download(Large);
    V.download(Small);
    Checks.report(sameBits(Large, expected<float>(V.size(), 5)) &&
                      sameBits(Small, expected<float>(V.size(), 5)),
                  "download(std::vector&) into a larger and a smaller vector");
  }

  { // Four threads at once.
    std::atomic<int> Wrong{0};
    std::vector<std::thread> Threads;
    for (unsigned T = 0; T < 4; ++T)
      Threads.emplace_back([&, T] {
        try {
          mstage::stream S;
          mstage::device_vector<float> V((std::size_t(1) << 20) + T * 1000, S);
          fill(V, 10 + T);
          std::vector<float> Want = expected<float>(V.size(), 10 + T);
          for (int R = 0; R < 25; ++R)
            if (!sameBits(V.download(), Want))
              ++Wrong;
        } catch (const std::exception &E) {
          std::printf("thread %u: %s\n", T, E.what());
          ++Wrong;
        }
      });
    for (std::thread &T : Threads)
      T.join();
    Checks.report(Wrong == 0, "four threads downloading 25 times each");
  }

  { // Which downloads are staged.
    mstage::device_vector<float> V(std::size_t(1) << 20);
    fill(V, 2);
    auto staged = [&](std::size_t Bytes, mstage_stream *S) {
      std::vector<float> Out;
      Out.reserve(Bytes / 4);
      int Staged = -1;
      mstage::detail::check(mstage_rt_download_staged(
          V.data(), Bytes, sizeof(float), S,
          [](void *C, const void *P, std::size_t N) {
            auto &O = *static_cast<std::vector<float> *>(C);
            O.insert(O.end(), static_cast<const float *>(P),
                     static_cast<const float *>(P) + N / 4);
          },
          &Out, &Staged));
      std::vector<float> Want = expected<float>(V.size(), 2);
      Want.resize(Staged ? Bytes / 4 : 0);
      return sameBits(Out, Want) ? Staged : -1;
    };
    mstage_stream *Home = mstage::current_stream().get();
    int At = staged(256 << 10, Home), Under = staged((256 << 10) - 4, Home);
    int Captured = -1;
    {
      mstage::stream S;
      mstage::graph G =
          mstage::capture(S, [&] { Captured = staged(1 << 20, S.get()); });
    }
    bool OK = Gpu ? At == 1 && Under == 0 && Captured == 0
                  : At == 0 && Under == 0 && Captured == 0;
    Checks.report(OK, std::string(Gpu ? "on the GPU" : "off the GPU") +
                          ": staged at 256 KiB " + std::to_string(At) +
                          ", under it " + std::to_string(Under) +
                          ", while captured " + std::to_string(Captured));
  }
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
