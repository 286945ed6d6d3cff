//===- memory.cpp - GPU suite: device, pinned and managed memory -----------===//
//
// Every device_vector operation, and the other kinds of memory a kernel
// takes, against a CPU reference:
//  - device_vector(n, value), get(i), download(range, offset) over ranges
//    that end at the end (and an empty one there), and ranges out of bounds
//    and get(size()), which throw naming the sizes;
//  - fill() of elements of 1, 2, 4, 8, 12 (three floats) and 16 bytes, read
//    back by download() and by a kernel;
//  - copy_from(), and one of the wrong size, which throws;
//  - copy_from() between overlapping ranges of one vector, shifted by one
//    element and by a third either way, directly, on a stream and captured
//    into a graph: memmove, against std::memmove on the host;
//  - resize() up and down keeping the first elements;
//  - upload() and download() on a stream, from and to pinned memory;
//  - pinned_vector kernel arguments: const (input) and non-const (its
//    results come back);
//  - managed_vector: filled on the host, written by a kernel, read on the
//    host after synchronize, with prefetch_to_device/prefetch_to_host;
//  - std::vector arguments in a loop of 50 launches.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr const char *Name = "memory";
constexpr unsigned Block = 256;
unsigned N = 1 << 18; // MSTAGE_SUITE_QUICK=1: 1000 (not a multiple of 256)

SuiteChecks Checks(Name);

unsigned blocks() { return (N + Block - 1) / Block; }

template <class T>
std::string difference(const T *Got, const T *Want, size_t N,
                       const std::string &Which) {
  for (size_t I = 0; I < N; ++I)
    if (std::memcmp(&Got[I], &Want[I], sizeof(T)) != 0)
      return Which + ": element " + std::to_string(I) + " differs";
  return "";
}
template <class V, class W>
std::string difference(const V &Got, const W &Want, const std::string &Which) {
  if (Got.size() != Want.size())
    return Which + ": size " + std::to_string(Got.size()) + ", expected " +
           std::to_string(Want.size());
  return difference(Got.data(), Want.data(), Got.size(), Which);
}

std::string thrown(const std::function<void()> &F) {
  try {
    F();
  } catch (const mstage::error &E) {
    return E.what();
  }
  return "";
}

bool has(const std::string &S, const std::string &Part) {
  return S.find(Part) != std::string::npos;
}

void constructGetDownload() {
  mstage::device_vector<int> V(N, -17);
  std::vector<int> Want(N, -17);
  std::string D = difference(V.download(), Want, "device_vector(n, value)");
  // A kernel writes i * 3 so that each element is distinct.
  mstage::kernel(
      [](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] = int(I) * 3;
      },
      blocks(), Block)(V);
  for (unsigned I = 0; I < N; ++I)
    Want[I] = int(I) * 3;
  for (size_t I : {size_t(0), size_t(1), size_t(N / 2), size_t(N - 1)})
    if (D.empty() && V.get(I) != Want[I])
      D = "get(" + std::to_string(I) + ") = " + std::to_string(V.get(I));
  // Ranges: the head, the middle, the tail up to the end, empty at the end.
  struct Range {
    size_t Offset, Count;
  };
  for (Range R : {Range{0, 10}, Range{N / 3, 100}, Range{N - 7, 7},
                  Range{0, N}, Range{N, 0}}) {
    std::vector<int> Out(R.Count, 1);
    V.download(std::span<int>(Out), R.Offset);
    if (D.empty())
      D = difference(Out.data(), Want.data() + R.Offset, R.Count,
                     "download(span of " + std::to_string(R.Count) +
                         ", offset " + std::to_string(R.Offset) + ")");
  }
  std::vector<int> Out(8, 1);
  std::string Past = thrown([&] { V.download(std::span<int>(Out), N - 4); });
  std::string Beyond =
      thrown([&] { V.download(std::span<int>(Out.data(), 0), N + 1); });
  std::string Get = thrown([&] { (void)V.get(N); });
  bool Throws = has(Past, "mstage: device_vector::download of 8 elements "
                          "from offset " +
                              std::to_string(N - 4)) &&
                has(Past, std::to_string(N)) &&
                has(Beyond, "from offset " + std::to_string(N + 1)) &&
                has(Get, "mstage: device_vector::get(" + std::to_string(N) +
                             ") of a device_vector of " + std::to_string(N));
  bool Kept = Out == std::vector<int>(8, 1);
  Checks.report(D.empty() && Throws && Kept,
         "device_vector(n, value), get(i), download(span, offset) to the "
         "end; out of range: '" +
             Past + "', '" + Beyond + "', '" + Get + "'" +
             (Kept ? "" : "; a failed download wrote") +
             (D.empty() ? std::string() : "; " + D));
}

struct Three {
  float X, Y, Z;
};
struct Sixteen {
  std::uint32_t A, B, C, D;
};
static_assert(sizeof(Three) == 12 && sizeof(Sixteen) == 16);

// Fills n elements with Value and checks them by download() and by a kernel
// that counts the elements equal to Value (bytewise).
template <class T> std::string fillOne(const T &Value, const T &Other) {
  mstage::device_vector<T> V(N, Other);
  V.fill(Value);
  std::string D =
      difference(V.download(), std::vector<T>(N, Value),
                 "fill of " + std::to_string(sizeof(T)) + "-byte elements");
  std::vector<unsigned> Equal(1, 0);
  mstage::kernel(
      [Value](const auto &V, auto &Equal) {
        unsigned I = mstage::Thread::get().global.x;
        if (I >= V.size())
          return;
        const unsigned char *A = reinterpret_cast<const unsigned char *>(&V[I]);
        const unsigned char *B = reinterpret_cast<const unsigned char *>(&Value);
        for (unsigned J = 0; J < sizeof(T); ++J)
          if (A[J] != B[J])
            return;
        mstage::atomic_ref<unsigned>(Equal[0]).fetch_add(1u);
      },
      blocks(), Block)(std::as_const(V), Equal);
  if (D.empty() && Equal[0] != N)
    D = "a kernel sees " + std::to_string(Equal[0]) + " of " +
        std::to_string(N) + " " + std::to_string(sizeof(T)) +
        "-byte elements filled";
  // On a stream, and a part that the fill must not overrun.
  mstage::stream S;
  V.fill(Other, S);
  S.synchronize();
  if (D.empty())
    D = difference(V.download(), std::vector<T>(N, Other),
                   "fill on a stream of " + std::to_string(sizeof(T)) +
                       "-byte elements");
  return D;
}

void fills() {
  std::string D = fillOne<std::uint8_t>(0xa5, 0x11);
  if (D.empty())
    D = fillOne<std::uint16_t>(0xbeef, 0x1234);
  if (D.empty())
    D = fillOne<std::uint32_t>(0xdeadbeefu, 7u);
  if (D.empty())
    D = fillOne<std::uint64_t>(0x0123456789abcdefull, 9ull);
  if (D.empty())
    D = fillOne<Three>({1.5f, -2.25f, 3e10f}, {0.f, 0.f, 0.f});
  if (D.empty())
    D = fillOne<Sixteen>({1u, 0xffffffffu, 0x80000000u, 42u}, {5u, 6u, 7u, 8u});
  Checks.report(D.empty(), "fill of 1-, 2-, 4-, 8-, 12- and 16-byte elements" +
                        (D.empty() ? std::string() : ": " + D));
}

std::vector<double> sequence(size_t N, double Start) {
  std::vector<double> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = Start + 0.5 * double(I);
  return V;
}

void copyAndResize() {
  std::vector<double> Host = sequence(N, -3);
  mstage::device_vector<double> A(Host), B(N, 0.0);
  B.copy_from(A);
  std::string D = difference(B.download(), Host, "copy_from");
  mstage::device_vector<double> Small(N - 1);
  std::string Wrong = thrown([&] { Small.copy_from(A); });
  bool Throws = has(Wrong, "mstage: device_vector::copy_from of " +
                               std::to_string(N) + " elements into " +
                               std::to_string(N - 1));
  mstage::stream S;
  mstage::device_vector<double> C(N, 1.0);
  C.copy_from(A, S);
  S.synchronize();
  if (D.empty())
    D = difference(C.download(), Host, "copy_from on a stream");
  // resize: up keeps all N, down keeps the first N / 3.
  A.resize(2 * N);
  std::vector<double> Got = A.download();
  if (D.empty() && Got.size() != 2 * N)
    D = "resize up: size " + std::to_string(Got.size());
  if (D.empty())
    D = difference(Got.data(), Host.data(), N, "resize up");
  A.resize(N / 3);
  if (D.empty())
    D = difference(A.download(),
                   std::vector<double>(Host.begin(), Host.begin() + N / 3),
                   "resize down");
  A.resize(0);
  if (D.empty() && (A.size() != 0 || !A.download().empty()))
    D = "resize(0) left elements";
  Checks.report(D.empty() && Throws,
         "copy_from, copy_from of the wrong size ('" + Wrong +
             "'), resize up, down and to 0" +
             (D.empty() ? std::string() : "; " + D));
}

// copy_from of one vector into itself, overlapping: memmove.
void overlappingCopies() {
  std::vector<unsigned> Start(N);
  for (unsigned I = 0; I < N; ++I)
    Start[I] = I;
  struct Move {
    size_t From, Count, To;
  };
  const size_t Third = N / 3;
  const Move Moves[] = {{0, N - 1, 1},        {1, N - 1, 0},
                        {0, N - Third, Third}, {Third, N - Third, 0},
                        {5, Third, 5},         {N / 4, N / 2, N / 4 + 7}};
  std::string D;
  mstage::stream S;
  for (const Move &M : Moves)
    for (int How = 0; How < 3 && D.empty(); ++How) {
      std::vector<unsigned> Want = Start;
      std::memmove(Want.data() + M.To, Want.data() + M.From,
                   M.Count * sizeof(unsigned));
      mstage::device_vector<unsigned> V(Start);
      if (How == 0) {
        V.copy_from(V, M.From, M.Count, M.To);
      } else if (How == 1) {
        V.use_on(S);
        V.copy_from(V, M.From, M.Count, M.To, S);
        S.synchronize();
      } else {
        V.use_on(S);
        mstage::graph G = mstage::capture(
            S, [&] { V.copy_from(V, M.From, M.Count, M.To, S); });
        G.launch(S);
        S.synchronize();
      }
      D = difference(V.download(), Want,
                     std::string(How == 0   ? "directly"
                                 : How == 1 ? "on a stream"
                                            : "captured") +
                         ", " + std::to_string(M.Count) + " elements from " +
                         std::to_string(M.From) + " to " +
                         std::to_string(M.To));
    }
  Checks.report(D.empty(), "copy_from between overlapping ranges of one vector is "
                    "memmove (directly, on a stream, captured)" +
                        (D.empty() ? std::string() : "; " + D));
}

void streamCopies() {
  mstage::stream S;
  mstage::pinned_vector<float> In(N), Out(N, 0.f);
  for (unsigned I = 0; I < N; ++I)
    In[I] = float(I % 1000) * 0.25f;
  mstage::device_vector<float> V(N);
  V.upload(In, S);
  mstage::kernel(
      [](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] = V[I] * 2.f + 1.f;
      },
      blocks(), Block)
      .on(S)(V);
  V.download(Out, S);
  std::vector<float> Part(5, 0.f);
  V.download(std::span<float>(Part), N - 5, S);
  S.synchronize();
  std::vector<float> Want(N);
  for (unsigned I = 0; I < N; ++I)
    Want[I] = In[I] * 2.f + 1.f;
  std::string D = difference(Out, Want, "download(pinned, s)");
  if (D.empty())
    D = difference(Part.data(), Want.data() + N - 5, 5,
                   "download(span, offset, s)");
  Checks.report(D.empty(), "upload, a kernel and downloads on one stream, "
                    "pinned memory" +
                        (D.empty() ? std::string() : ": " + D));
}

void pinnedArguments() {
  mstage::pinned_vector<int> In(N), Out(N, 0);
  for (unsigned I = 0; I < N; ++I)
    In[I] = int(I % 4096) - 2048;
  auto Square = mstage::kernel(
      [](const auto &In, auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Out.size())
          Out[I] += In[I] * In[I];
      },
      blocks(), Block);
  Square(std::as_const(In), Out);
  Square(std::as_const(In), Out); // returns with Out copied back
  std::vector<int> Want(N);
  for (unsigned I = 0; I < N; ++I)
    Want[I] = 2 * In[I] * In[I];
  std::string D = difference(Out, Want, "pinned_vector result");
  // The const input is still as it was.
  if (D.empty() && In[N - 1] != int((N - 1) % 4096) - 2048)
    D = "the const pinned_vector changed";
  Checks.report(D.empty(), "pinned_vector arguments: const in, non-const out" +
                        (D.empty() ? std::string() : ": " + D));
}

void managed() {
  mstage::managed_vector<long long> M(N, 3);
  for (unsigned I = 0; I < N; I += 2)
    M[I] = -(long long)I;
  std::vector<long long> Want(M.begin(), M.end());
  M.prefetch_to_device();
  auto Update = mstage::kernel(
      [](auto &M) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < M.size())
          M[I] = M[I] * 7 + I;
      },
      blocks(), Block);
  Update(M);
  // A managed_vector orders nothing by itself: s waits for the first launch.
  mstage::stream S;
  S.wait(mstage::current_stream().record());
  Update.on(S)(M);
  M.prefetch_to_host(S);
  S.synchronize();
  for (unsigned I = 0; I < N; ++I)
    Want[I] = (Want[I] * 7 + I) * 7 + I;
  std::string D = difference(std::vector<long long>(M.begin(), M.end()), Want,
                             "managed_vector");
  // A const managed_vector is an input.
  std::vector<long long> Sum(1, 0);
  const mstage::managed_vector<long long> &In = M;
  mstage::kernel(
      [](const auto &In, auto &Sum) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < In.size())
          mstage::atomic_ref<long long>(Sum[0]).fetch_add(In[I]);
      },
      blocks(), Block)(In, Sum);
  long long WantSum = 0;
  for (long long W : Want)
    WantSum += W;
  if (D.empty() && Sum[0] != WantSum)
    D = "a kernel sums " + std::to_string(Sum[0]) + ", expected " +
        std::to_string(WantSum);
  Checks.report(D.empty(), "managed_vector: host writes, kernel writes, prefetch, "
                    "host reads" +
                        (D.empty() ? std::string() : ": " + D));
}

void vectorsInALoop() {
  std::vector<unsigned> Acc(N, 0), Want(N, 0);
  std::vector<unsigned> In(N);
  auto Add = mstage::kernel(
      [](const auto &In, auto &Acc, unsigned R) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Acc.size())
          Acc[I] += In[I] ^ R;
      },
      blocks(), Block);
  for (unsigned R = 0; R < 50; ++R) {
    for (unsigned I = 0; I < N; ++I)
      In[I] = I * R + 1; // changed right after each launch returns
    Add(std::as_const(In), Acc, R);
    for (unsigned I = 0; I < N; ++I)
      Want[I] += (I * R + 1) ^ R;
  }
  std::string D = difference(Acc, Want, "accumulated");
  Checks.report(D.empty(), "std::vector arguments in a loop of 50 launches" +
                        (D.empty() ? std::string() : ": " + D));
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  if (const char *Quick = std::getenv("MSTAGE_SUITE_QUICK"); Quick && *Quick)
    N = 1000;
  constructGetDownload();
  fills();
  copyAndResize();
  overlappingCopies();
  streamCopies();
  pinnedArguments();
  managed();
  vectorsInALoop();
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
