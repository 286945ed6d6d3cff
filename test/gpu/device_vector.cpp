//===- device_vector.cpp - GPU suite: device_vector against the CPU --------===//
//
// mstage::device_vector<T> owns device memory across launches:
//  - built from a std::vector (uploaded), it is passed to kernels as the same
//    device memory: each launch sees the address device_vector::data() has,
//    and 10 launches that add to it accumulate in place;
//  - download() gives the CPU reference's values, a const device_vector is a
//    read-only input next to a std::vector output;
//  - upload() replaces the contents, and one of the wrong size throws an
//    mstage::error naming both sizes, leaving the contents as they were;
//  - upload()/download() from a malloc'd table by pointer and count, from a
//    pinned buffer, at a device offset, on a stream and not,
//    in order with a launch on that stream;
//  - a moved-from device_vector is empty, and the moved-to one still works;
//  - an empty device_vector launches fine;
//  - 4000 device_vectors of 64 MiB made and destroyed in turn fit in memory:
//    250 GiB at once would not, on any GPU, so each one is freed (RAII).
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "device_vector";
constexpr unsigned N = 1 << 16, Block = 256;

int fail(const std::string &Why) {
  std::printf("FAIL %s: %s\n", Name, Why.c_str());
  return 1;
}

auto addKernel() {
  return mstage::kernel(
      [](auto &V, auto &Where, int Step) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] += Step;
        if (I == 0)
          Where[0] = reinterpret_cast<std::uintptr_t>(V.data());
      },
      N / Block, Block)
      // It records a device address, which MSTAGE_CHECK=cpu's copy lacks.
      .check_on_cpu(false);
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  std::vector<int> Host(N);
  std::iota(Host.begin(), Host.end(), -1000);
  mstage::device_vector<int> V(Host);
  std::vector<std::uintptr_t> Where(1);
  auto Add = addKernel();
  for (int Step = 1; Step <= 10; ++Step) {
    Add(V, Where, Step);
    if (Where[0] != reinterpret_cast<std::uintptr_t>(V.data()))
      return fail("launch " + std::to_string(Step) +
                  " saw another address than device_vector::data()");
  }
  std::vector<int> Got = V.download();
  for (unsigned I = 0; I < N; ++I)
    if (Got[I] != Host[I] + 55)
      return fail("after 10 launches v[" + std::to_string(I) + "] = " +
                  std::to_string(Got[I]) + ", expected " +
                  std::to_string(Host[I] + 55));

  // A const device_vector is a read-only input.
  const mstage::device_vector<int> &In = V;
  std::vector<long long> Squares(N);
  mstage::kernel(
      [](const auto &In, auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        Out[I] = (long long)In[I] * In[I];
      },
      N / Block, Block)(In, Squares);
  for (unsigned I = 0; I < N; ++I)
    if (Squares[I] != (long long)Got[I] * Got[I])
      return fail("squares[" + std::to_string(I) + "] is wrong");

  // upload() replaces; a wrong size throws and changes nothing.
  V.upload(Host);
  std::string Message;
  try {
    V.upload(std::vector<int>(N + 1));
  } catch (const mstage::error &E) {
    Message = E.what();
  }
  if (Message.find(std::to_string(N + 1)) == std::string::npos ||
      Message.find(std::to_string(N)) == std::string::npos)
    return fail("upload of the wrong size said '" + Message + "'");
  if (V.download() != Host)
    return fail("the contents changed after upload() or a failed upload()");

  // Any host memory, at an offset: a malloc'd table by pointer, a pinned
  // buffer on a stream, read back by pointer after a launch there.
  {
    constexpr unsigned Part = 1000, At = 12345;
    int *Table = static_cast<int *>(std::malloc(Part * sizeof(int)));
    std::vector<int, mstage::pinned_allocator<int>> Pinned(Part);
    for (unsigned I = 0; I < Part; ++I)
      Table[I] = int(7 * I), Pinned[I] = -int(I);
    std::vector<int> Want = Host;
    for (unsigned I = 0; I < Part; ++I)
      Want[At + I] = Table[I], Want[2 * At + I] = -int(I);
    for (int &X : Want)
      X += 1;
    mstage::device_vector<int> P(Host);
    mstage::stream S;
    P.upload(Table, Part, At);
    std::free(Table); // the upload without a stream has finished with it
    P.upload(Pinned.data(), Part, 2 * At, S);
    Add.on(S)(P, Where, 1);
    std::vector<int> Got(N + 1, 99);
    P.download(Got.data() + 1, N, 0, S);
    S.synchronize();
    if (Got[0] != 99 || !std::equal(Want.begin(), Want.end(), Got.begin() + 1))
      return fail("pointer uploads at an offset, a launch and a pointer "
                  "download on one stream differ from the CPU reference");
  }

  // Moving hands the memory over.
  mstage::device_vector<int> W = std::move(V);
  if (V.size() != 0 || V.data() != nullptr || W.size() != N)
    return fail("a moved-from device_vector is not empty");
  Add(W, Where, 1);
  if (W.download()[7] != Host[7] + 1)
    return fail("the moved-to device_vector does not work");

  mstage::device_vector<int> Empty(std::vector<int>{});
  Add(Empty, Where, 1);
  if (!Empty.download().empty())
    return fail("an empty device_vector downloaded elements");

  for (int I = 0; I < 4000; ++I) {
    mstage::device_vector<char> Big(64u << 20);
    if (Big.size() != (64u << 20))
      return fail("a 64 MiB device_vector has the wrong size");
  }
  std::printf("PASS %s: %u ints stay in place over 10 launches, download, "
              "const input, upload and its size check, uploads and downloads "
              "by pointer at offsets, move, empty, 4000 "
              "allocations of 64 MiB freed in turn\n",
              Name, N);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
