// Careless uses of mstage::graph_builder: each is an mstage::error that
// says what is wrong and changes nothing, and the builder works afterwards.
//  - an edge that closes a cycle names the cycle; a node after itself;
//  - a dependency on a node of another builder, and on a default graph_node;
//  - update() with another kernel, of a node that is not a kernel node, and
//    of a node added after the instantiation;
//  - a host node that throws: its dependents still run, and launch() (or,
//    on a GPU, check() after a synchronize) rethrows it once;
//  - an exception in a node's function: no node is added;
//  - an empty graph instantiates and launches, doing nothing.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <mstage/graph_builder.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

template <class F> static std::string attempt(F &&Run) {
  try {
    Run();
  } catch (const mstage::error &E) {
    return E.what();
  } catch (const std::exception &E) {
    return std::string("std::exception: ") + E.what();
  }
  return "no error";
}

int main() {
  mstage::device_vector<int> V(32, 0);
  auto Inc = mstage::kernel(
      [](auto &V, int By) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] += mstage::stage(By);
      },
      1, 32);
  auto Dec = mstage::kernel(
      [](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] -= 1;
      },
      1, 32);

  mstage::graph_builder G;
  auto A = G.add_kernel(Inc, V, 1);
  auto B = G.add_kernel({A}, Inc, V, 2);
  auto C = G.add_host([] {}, {B});
  std::printf("cycle: %s\n",
              attempt([&] { G.add_dependency(C, A); }).c_str());
  // CHECK: cycle: mstage: graph_builder: add_dependency: node 0 (kernel '{{.*}}') after node 2 (host function) would make a cycle: node 0 (kernel '{{.*}}') -> node 1 (kernel '{{.*}}') -> node 2 (host function) -> node 0
  std::printf("self: %s\n", attempt([&] { G.add_dependency(B, B); }).c_str());
  // CHECK: self: mstage: graph_builder: add_dependency: node 1 {{.*}} would make a cycle: node 1 (kernel '{{.*}}') -> node 1
  std::printf("again: %s\n", attempt([&] { G.add_dependency(A, C); }).c_str());
  // CHECK: again: no error

  mstage::graph_builder Other;
  auto O = Other.add_host([] {});
  std::printf("other graph: %s\n",
              attempt([&] { G.add_kernel({O}, Inc, V, 1); }).c_str());
  // CHECK: other graph: mstage: graph_builder: a dependency: node 0 belongs to graph [[OTHER:[0-9]+]], not to graph {{[0-9]+}}; a node depends only on nodes of its own graph
  std::printf("other edge: %s\n",
              attempt([&] { G.add_dependency(O, A); }).c_str());
  // CHECK: other edge: mstage: graph_builder: add_dependency: node 0 belongs to graph [[OTHER]]
  std::printf("default node: %s\n", attempt([&] {
                G.add_host([] {}, {mstage::graph_node()});
              }).c_str());
  // CHECK: default node: mstage: graph_builder: a dependency: a node that was never added
  std::printf("nodes %zu\n", G.size());
  // CHECK: nodes 3

  mstage::graph_exec X = G.instantiate();
  std::printf("another kernel: %s\n",
              attempt([&] { G.update(X, A, Dec, V); }).c_str());
  // CHECK: another kernel: mstage: graph_builder: update of node 0 (kernel '{{.*}}'): it launches '{{.*}}'; a kernel node keeps its kernel
  std::printf("host node: %s\n",
              attempt([&] { G.update(X, C, Inc, V, 1); }).c_str());
  // CHECK: host node: mstage: graph_builder: update: node 2 (host function) is not a kernel node
  auto Late = G.add_kernel(Inc, V, 5);
  std::printf("added later: %s\n",
              attempt([&] { G.update(X, Late, Inc, V, 5); }).c_str());
  // CHECK: added later: mstage: graph_builder: update: node 3 (kernel '{{.*}}') was added after the executable graph was instantiated
  X.launch();
  std::printf("after the errors: %d\n", V.get(0)); // 1 + 2
  // CHECK: after the errors: 3

  // A host node that throws.
  {
    int Ran = 0;
    mstage::graph_builder H;
    auto T = H.add_host([] { throw std::runtime_error("host node failed"); });
    H.add_host([&] { ++Ran; }, {T});
    mstage::graph_exec HX = H.instantiate();
    // The same on a GPU, where the host node runs after launch() returns.
    std::string Thrown = attempt([&] {
      HX.launch();
      mstage::synchronize();
      HX.check();
    });
    std::printf("throwing host node: %s, dependent ran %d\n", Thrown.c_str(),
                Ran);
    std::printf("checked again: %s\n", attempt([&] { HX.check(); }).c_str());
  }
  // CHECK: throwing host node: std::exception: host node failed, dependent ran 1
  // CHECK: checked again: no error

  // An exception in the function that enqueues a node's work.
  {
    mstage::graph_builder F;
    std::string Thrown = attempt([&] {
      F.add([&](mstage::stream_ref S) {
        Inc.on(S)(V, 1);
        throw std::runtime_error("gave up");
      });
    });
    F.add_kernel(Inc, V, 10);
    F.instantiate().launch();
    std::printf("thrown in a node: %s, nodes %zu, v %d\n", Thrown.c_str(),
                F.size(), V.get(0));
  }
  // CHECK: thrown in a node: std::exception: gave up, nodes 1, v 13

  mstage::graph_builder Empty;
  Empty.instantiate().launch();
  mstage::graph_builder Parent;
  Parent.add_graph(Empty);
  Parent.instantiate().launch();
  std::printf("empty: nodes %zu and %zu\n", Empty.size(), Parent.size());
  // CHECK: empty: nodes 0 and 1
}
