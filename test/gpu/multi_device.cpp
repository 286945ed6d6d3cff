//===- multi_device.cpp - GPU suite: several devices in one process --------===//
//
// On a machine with two or more GPUs (one GPU: the parts that need two are
// SKIPped; the CPU back end has one device):
//  - devices() lists the GPUs with their properties, device 0 is current,
//    and native_handle() is CUDA's ordinal;
//  - per device: a stream, a device_vector and a launch with k.on(stream)
//    and k.on(dev) run there (pointer and stream on the device), and the
//    results match a CPU reference;
//  - the specialization is compiled once: the second device's first launch
//    finds its code in the memory cache (and loads it there);
//  - copy_from between two devices' vectors (a peer copy), in order after
//    the source device's kernel and before the destination's, every time
//    (ranged copies after a slow kernel, three rounds);
//  - a kernel on device 1 reading device 0's memory with peer access works;
//  - in a child with MSTAGE_PEER_ACCESS=0: the same copy is staged through
//    the host and is right, and the same launch fails naming both devices;
//  - in a child with MSTAGE_VISIBLE_DEVICES=1: one device, CUDA's ordinal 1.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr const char *Name = "multi_device";
unsigned N = 1 << 22; // MSTAGE_SUITE_QUICK=1: 1 << 12

SuiteChecks Checks(Name);

void skip(const std::string &What) {
  std::printf("SKIP %s: %s\n", Name, What.c_str());
}

// x[i] = x[i] * 3 + add, on the kernel's stream.
auto Scale = mstage::kernel(
    [](auto &X, unsigned Add) {
      for (size_t I : mstage::grid_stride_range(size_t(0), X.size()))
        X[I] = X[I] * 3 + Add;
    },
    256, 256);

// out[i] = a[i] + b[i]; a and b may be other devices' memory.
auto Sum = mstage::kernel(
    [](auto &Out, const auto &A, const auto &B) {
      for (size_t I : mstage::grid_stride_range(size_t(0), Out.size()))
        Out[I] = A[I] + B[I];
    },
    256, 256);

// Scale, Rounds times over: a kernel long enough that a copy not ordered
// after it would read the data before it is done.
constexpr unsigned Rounds = 256;
auto Slow = mstage::kernel(
    [](auto &X, unsigned Add) {
      for (size_t I : mstage::grid_stride_range(size_t(0), X.size())) {
        unsigned V = X[I];
        for (unsigned R = 0; R < Rounds; ++R)
          V = V * 3 + Add;
        X[I] = V;
      }
    },
    256, 256);

std::vector<unsigned> initial(unsigned Seed) {
  std::vector<unsigned> V(N);
  for (unsigned I = 0; I < N; ++I)
    V[I] = I * 2654435761u + Seed;
  return V;
}

std::vector<unsigned> scaled(std::vector<unsigned> V, unsigned Add) {
  for (unsigned &X : V)
    X = X * 3 + Add;
  return V;
}

std::vector<unsigned> slowed(std::vector<unsigned> V, unsigned Add) {
  for (unsigned R = 0; R < Rounds; ++R)
    V = scaled(std::move(V), Add);
  return V;
}

// The child runs: "peer-off" (MSTAGE_PEER_ACCESS=0) and "visible"
// (MSTAGE_VISIBLE_DEVICES=1) print what the parent checks.
int child(const char *Mode) {
  std::vector<mstage::device> All = mstage::devices();
  if (std::strcmp(Mode, "visible") == 0) {
    std::printf("count %zu ordinal %d\n", All.size(), All[0].native_handle());
    return 0;
  }
  mstage::device_vector<unsigned> A(initial(1));
  mstage::stream S1(All[1]);
  mstage::device_vector<unsigned> B(N, S1), Out(N, S1);
  B.copy_from(A); // staged through the host
  std::printf("staged copy %s\n",
              B.download() == initial(1) ? "right" : "wrong");
  try {
    Sum.on(S1)(Out, A, B);
    S1.synchronize();
    std::printf("no error\n");
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  return 0;
}

int run(int Argc, char **Argv) {
  if (Argc == 3 && std::strcmp(Argv[1], "--child") == 0)
    return child(Argv[2]);
  if (skipWithoutGpu(Name))
    return 0;
  if (const char *Q = std::getenv("MSTAGE_SUITE_QUICK"); Q && *Q == '1')
    N = 1 << 12;

  std::vector<mstage::device> All = mstage::devices();
  bool Listed = !All.empty() && mstage::device::current() == All[0];
  for (const mstage::device &D : All) {
    std::printf("# device %u: %s (%s), %u multiprocessors, %zu MiB, bus %s, "
                "CUDA ordinal %d\n",
                D.index(), D.name().c_str(), D.arch().c_str(),
                D.multiprocessors(), D.total_memory() >> 20,
                D.pci_bus_id().c_str(), D.native_handle());
    Listed = Listed && D.multiprocessors() > 0 &&
             (onCpu() || (D.total_memory() > 0 && D.native_handle() >= 0 &&
                          D.native_context()));
  }
  Checks.report(Listed, "devices() lists " + std::to_string(All.size()) +
                     " device(s), device 0 current, with their properties");

  // Per device: its stream, memory and launches.
  std::vector<mstage::stream> Streams;
  std::vector<mstage::device_vector<unsigned>> Data;
  std::vector<std::vector<unsigned>> Hosts; // read by the uploads meanwhile
  for (const mstage::device &D : All) {
    Streams.emplace_back(D);
    Data.emplace_back(N, Streams.back());
    Hosts.push_back(initial(D.index()));
  }
  for (size_t I = 0; I < All.size(); ++I)
    Data[I].upload(Hosts[I], Streams[I]);
  double SecondSource = -1;
  for (size_t I = 0; I < All.size(); ++I) {
    Scale.on(Streams[I])(Data[I], 7u);
    // Device 0's first launch may run the generic code and queue the
    // compile: wait for it, then device 1 must find that code in memory.
    if (I == 0)
      mstage::detail::check(mstage_rt_jit_wait());
    if (I == 1)
      SecondSource = mstage_rt_last_launch_source(nullptr);
    Scale.on(All[I])(Data[I], 1u); // the device's current stream
  }
  bool PerDevice = true;
  std::string Why;
  for (size_t I = 0; I < All.size(); ++I) {
    bool OnIt = Streams[I].device() == All[I] &&
                Data[I].device_index() == All[I].index() &&
                unsigned(mstage_rt_pointer_device(Data[I].data())) ==
                    All[I].index();
    bool Right = Data[I].download() == scaled(scaled(initial(I), 7), 1);
    if (!OnIt || !Right)
      Why += " device " + std::to_string(I) + (OnIt ? "" : " placement") +
             (Right ? "" : " result");
    PerDevice = PerDevice && OnIt && Right;
  }
  Checks.report(PerDevice, "a stream, a device_vector and launches per device" + Why);

  if (All.size() < 2) {
    skip("peer copies, peer launches, MSTAGE_PEER_ACCESS=0 and "
         "MSTAGE_VISIBLE_DEVICES need 2 GPUs");
    return Checks.failed() ? 1 : 0;
  }
  Checks.report(SecondSource == 0,
         "the second device's first launch found the code in memory "
         "(compiled once, loaded per device): source " +
             std::to_string(int(SecondSource)));

  // A peer copy, ordered after device 0's kernel and before device 1's.
  mstage::device_vector<unsigned> A(N, All[0]), B(N, All[1]);
  A.upload(initial(5));
  Scale.on(All[0])(A, 2u);
  B.copy_from(A);
  Scale.on(All[1])(B, 3u);
  Checks.report(B.download() == scaled(scaled(initial(5), 2), 3),
         "copy_from device 0 to device 1 between their kernels");

  // Every copy waits for the source device's latest kernel, not only the
  // first copy on that stream: a slow kernel, then each half of A copied
  // into the other half of B, three times.
  bool Ordered = true;
  std::vector<unsigned> WantA = initial(6), WantB(N);
  mstage::device_vector<unsigned> A2(WantA), B2(N, All[1]);
  for (int Round = 0; Round < 3; ++Round) {
    Slow.on(All[0])(A2, unsigned(Round));
    WantA = slowed(WantA, unsigned(Round));
    B2.copy_from(A2, 0, N / 2, N - N / 2);
    B2.copy_from(A2, N / 2, N - N / 2, 0);
    std::copy(WantA.begin(), WantA.begin() + N / 2, WantB.end() - N / 2);
    std::copy(WantA.begin() + N / 2, WantA.end(), WantB.begin());
    Ordered = Ordered && B2.download() == WantB;
  }
  Checks.report(Ordered, "each ranged copy_from from device 0 to device 1 waits "
                  "for device 0's latest kernel");

  bool Peer = All[1].can_access_peer(All[0]);
  std::printf("# device 1 %s peer access to device 0\n",
              Peer ? "has" : "has no");
  if (Peer) {
    mstage::device_vector<unsigned> Out(N, All[1]);
    Sum.on(All[1])(Out, A, B); // A is device 0's
    std::vector<unsigned> Want = scaled(initial(5), 2), Bs = B.download();
    for (unsigned I = 0; I < N; ++I)
      Want[I] += Bs[I];
    Checks.report(Out.download() == Want,
           "a kernel on device 1 reads device 0's memory by peer access");
  } else {
    skip("no peer access between devices 0 and 1");
  }

  ChildResult Child = runThisProgram({"--child", "peer-off"},
                                     {"MSTAGE_PEER_ACCESS=0"}, true);
  const std::string &Out = Child.Output;
  Checks.report(Child.Status == 0 &&
             Out.find("staged copy right") != std::string::npos,
         "MSTAGE_PEER_ACCESS=0: copy_from is staged through the host");
  Checks.report(Out.find("argument 2 is memory of device 0 (") != std::string::npos &&
             Out.find("but the kernel runs on device 1 (") !=
                 std::string::npos &&
             Out.find("no peer access") != std::string::npos,
         "MSTAGE_PEER_ACCESS=0: a launch mixing two devices' memory is an "
         "error naming both:\n" +
             Out);
  Child = runThisProgram({"--child", "visible"}, {"MSTAGE_VISIBLE_DEVICES=1"},
                         true);
  Checks.report(Child.Status == 0 &&
             Child.Output.find("count 1 ordinal 1") != std::string::npos,
         "MSTAGE_VISIBLE_DEVICES=1: one device, CUDA's device 1: " +
             Child.Output);
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
