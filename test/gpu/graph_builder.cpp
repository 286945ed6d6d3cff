//===- graph_builder.cpp - GPU suite: graphs built node by node -----------===//
//
// mstage::graph_builder, as the CUDA tutorial's "Create CUDA Graph from
// Scratch" (kernel nodes A; B and C after A; D after B and C), against the
// same launches run plainly and a host loop:
//  - the diamond with a fill before it and a copy and a host node after it,
//    launched several times on a stream;
//  - update() of a kernel node (cuGraphExecKernelNodeSetParams): another
//    output vector, and another staged factor (another specialization);
//  - a child graph added twice;
//  - one executable graph launched on two streams without a wait between
//    (CUDA orders launches of one executable graph);
//  - a device_vector destroyed, and the builder destroyed, before the graph
//    runs;
//  - a host node that throws: its dependent still runs, and check() after
//    the stream's synchronize rethrows the exception.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>
#include <mstage/graph_builder.hpp>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "graph_builder";
constexpr unsigned Block = 256;
unsigned N = 1 << 20; // MSTAGE_SUITE_QUICK=1: 1 << 12
constexpr int Launches = 5;

SuiteChecks Checks(Name);

unsigned blocks() { return (N + Block - 1) / Block; }

std::string difference(const std::vector<int> &Got,
                       const std::vector<int> &Want, const char *Which) {
  for (size_t I = 0; I < Want.size(); ++I)
    if (Got[I] != Want[I])
      return std::string(Which) + "[" + std::to_string(I) +
             "] = " + std::to_string(Got[I]) + ", expected " +
             std::to_string(Want[I]);
  return "";
}

std::string said(const std::string &D) { return D.empty() ? "" : ": " + D; }

// Out = In * stage(Factor) + I
auto scale() {
  return mstage::kernel(
      "graph_builder::scale",
      [](auto &Out, const auto &In, int Factor) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Out.size())
          Out[I] = In[I] * mstage::stage(Factor) + int(I);
      },
      blocks(), Block);
}

// Out += A + B
auto addInto() {
  return mstage::kernel(
      "graph_builder::add",
      [](auto &Out, const auto &A, const auto &B) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Out.size())
          Out[I] += A[I] + B[I];
      },
      blocks(), Block);
}

void diamond() {
  auto Scale = scale();
  auto Add = addInto();
  std::vector<int> Start(N);
  for (unsigned I = 0; I < N; ++I)
    Start[I] = int(I % 1000) - 500;
  mstage::device_vector<int> A(Start), B(N, 0), C(N, 0), D(N, 0), E(N, 0);
  std::atomic<int> HostRuns{0};
  mstage::graph_builder G;
  auto Reset = G.add_copy(B, A); // B = A each run: A changes
  auto KA = G.add_kernel({Reset}, Scale, A, B, 3);
  auto KB = G.add_kernel({KA}, Scale, B, A, 2);
  auto KC = G.add_kernel({KA}, Scale, C, A, 5);
  auto KD = G.add_kernel({KB, KC}, Add, D, B, C);
  auto Copy = G.add_copy(E, D, {KD});
  G.add_host([&] { ++HostRuns; }, {Copy});
  mstage::graph_exec X = G.instantiate();
  mstage::stream S;
  for (int R = 0; R < Launches; ++R)
    X.launch(S);
  S.synchronize();

  // The same launches, plainly, on other vectors.
  mstage::device_vector<int> PA(Start), PB(N, 0), PC(N, 0), PD(N, 0);
  for (int R = 0; R < Launches; ++R) {
    PB.copy_from(PA);
    Scale(PA, PB, 3);
    Scale(PB, PA, 2);
    Scale(PC, PA, 5);
    Add(PD, PB, PC);
  }
  // And on the host.
  std::vector<int> HA = Start, HB(N), HC(N), HD(N, 0);
  for (int R = 0; R < Launches; ++R)
    for (unsigned I = 0; I < N; ++I) {
      HB[I] = HA[I];
      HA[I] = HB[I] * 3 + int(I);
      HB[I] = HA[I] * 2 + int(I);
      HC[I] = HA[I] * 5 + int(I);
      HD[I] += HB[I] + HC[I];
    }
  std::vector<int> GotD = D.download();
  std::string Diff = difference(GotD, HD, "d (host loop)");
  if (Diff.empty())
    Diff = difference(GotD, PD.download(), "d (plain launches)");
  if (Diff.empty())
    Diff = difference(E.download(), HD, "e");
  if (Diff.empty())
    Diff = difference(A.download(), HA, "a");
  if (Diff.empty() && HostRuns != Launches)
    Diff = "the host node ran " + std::to_string(HostRuns.load()) + " times";
  Checks.report(Diff.empty(), "the tutorial's diamond (A; B, C after A; D "
                              "after both) with copy and host nodes, " +
                                  std::to_string(Launches) +
                                  " launches, equals plain launches" +
                                  said(Diff));
}

void update() {
  auto Scale = scale();
  mstage::device_vector<int> In(N, 2), Out(N, 0), Other(N, 0);
  mstage::graph_builder G;
  auto K = G.add_kernel(Scale, Out, In, 7);
  mstage::graph_exec X = G.instantiate();
  X.launch();
  G.update(X, K, Scale, Other, In, 9); // another vector and specialization
  X.launch();
  mstage::device_vector<int> Plain7(N, 0), Plain9(N, 0);
  Scale(Plain7, In, 7);
  Scale(Plain9, In, 9);
  std::vector<int> Want7(N), Want9(N);
  for (unsigned I = 0; I < N; ++I) {
    Want7[I] = 2 * 7 + int(I);
    Want9[I] = 2 * 9 + int(I);
  }
  std::string D = difference(Out.download(), Want7, "out");
  if (D.empty())
    D = difference(Other.download(), Want9, "other");
  if (D.empty())
    D = difference(Plain9.download(), Want9, "plain 9");
  if (D.empty())
    D = difference(Plain7.download(), Want7, "plain 7");
  Checks.report(D.empty(), "update() of a kernel node's vector and staged "
                           "factor in the executable graph" +
                               said(D));
}

auto increment() {
  return mstage::kernel(
      "graph_builder::inc",
      [](auto &V, int By) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] += By;
      },
      blocks(), Block);
}

void childAndStreams() {
  auto Inc = increment();
  mstage::device_vector<int> V(N, 0);
  mstage::graph_builder Child;
  auto C1 = Child.add_kernel(Inc, V, 1);
  Child.add_kernel({C1}, Inc, V, 2);
  mstage::graph_builder Parent;
  auto P1 = Parent.add_graph(Child);
  Parent.add_graph(Child, {P1});
  mstage::graph_exec X = Parent.instantiate();
  mstage::stream S1, S2;
  X.launch(S1);
  X.launch(S2); // no wait between: CUDA orders them
  S1.synchronize();
  S2.synchronize();
  std::string D = difference(V.download(), std::vector<int>(N, 12), "v");
  Checks.report(D.empty(), "a child graph added twice, the graph launched on "
                           "two streams without a wait" +
                               said(D));
}

void lifetimes() {
  mstage::device_vector<int> Out(N, 0);
  mstage::graph_exec X;
  {
    auto In = std::make_unique<mstage::device_vector<int>>(N, 5);
    auto Inc = increment();
    mstage::graph_builder G;
    auto Copy = G.add_copy(Out, *In);
    G.add_kernel({Copy}, Inc, Out, 1);
    In.reset();
    X = G.instantiate();
  }
  mstage::device_vector<int> Later(N, -1);
  X.launch();
  std::string D = difference(Out.download(), std::vector<int>(N, 6), "out");
  if (D.empty())
    D = difference(Later.download(), std::vector<int>(N, -1), "later");
  Checks.report(D.empty(), "a device_vector and the builder destroyed before "
                           "the graph runs" +
                               said(D));
}

void throwingHost() {
  auto Inc = increment();
  mstage::device_vector<int> V(N, 0);
  std::atomic<int> After{0};
  mstage::graph_builder G;
  auto T = G.add_host([] { throw std::runtime_error("host node failed"); });
  G.add_kernel({T}, Inc, V, 1);
  G.add_host([&] { ++After; }, {T});
  mstage::graph_exec X = G.instantiate();
  mstage::stream S;
  std::string Thrown;
  try {
    X.launch(S);
    S.synchronize();
    X.check();
  } catch (const std::runtime_error &E) {
    Thrown = E.what();
  }
  std::string D = difference(V.download(), std::vector<int>(N, 1), "v");
  bool OK = Thrown == "host node failed" && After == 1 && D.empty();
  Checks.report(OK, "a host node that throws: its dependents ran (" +
                        std::to_string(After.load()) +
                        " host), check() rethrew '" + Thrown + "'" + said(D));
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  if (const char *Quick = std::getenv("MSTAGE_SUITE_QUICK"); Quick && *Quick)
    N = 1 << 12;
  diamond();
  update();
  childAndStreams();
  lifetimes();
  throwingHost();
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
