// The GPU path of mstage::graph_builder, against a fake libcuda.so.1 that
// prints the driver calls and what each graph launch runs (device memory is
// host memory, kernels do nothing, a graph's nodes run in the order added):
//  - a lone kernel launch becomes a kernel node (cuGraphAddKernelNode with
//    the captured launch's parameters and, by
//    cuGraphKernelNodeCopyAttributes, its attributes), a fill a child
//    graph, a host function a host node (run by the graph launch), an extra
//    edge cuGraphAddDependencies;
//  - instantiate() is one cuGraphInstantiateWithFlags of the builder's graph;
//  - update() of a kernel node's int argument is
//    cuGraphExecKernelNodeSetParams (and cuGraphKernelNodeSetParams): the
//    next launch runs the new argument, with no new instantiation;
//  - a failing cuGraphAddKernelNode is an mstage::error naming the call, and
//    adds no node;
//  - the executable graph, which has a host node, waits for the device
//    before it is destroyed.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory FAKECUDA_LAUNCHES=args FAKECUDA_CALLS=1 %t 2>&1 | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory FAKECUDA_FAIL=cuGraphAddKernelNode=999 %t fail 2>&1 | FileCheck %s --check-prefix=FAIL

#include <mstage.hpp>
#include <mstage/graph_builder.hpp>

#include <cstdio>
#include <cstring>

int main(int Argc, char **Argv) {
  mstage::device_vector<int> Out(256, 0), In(256, 1);
  auto K = mstage::kernel(
      [](auto &Out, const auto &In, int V) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Out.size())
          Out[I] = In[I] + V;
      },
      1, 256);
  mstage::graph_builder G;
  if (Argc > 1 && std::strcmp(Argv[1], "fail") == 0) {
    try {
      G.add_kernel(K, Out, In, 7);
    } catch (const mstage::error &E) {
      std::fprintf(stderr, "error: %s\n", E.what());
    }
    std::fprintf(stderr, "nodes %zu\n", G.size());
    return 0;
  }
  // FAIL: error: mstage: cuGraphAddKernelNode: {{.*}}999
  // FAIL: nodes 0
  std::fprintf(stderr, "add kernel\n");
  auto Kn = G.add_kernel(K, Out, In, 7);
  // CHECK-LABEL: add kernel
  // CHECK: fakecuda: call cuStreamBeginCapture
  // CHECK: fakecuda: call cuStreamEndCapture
  // CHECK: fakecuda: call cuGraphKernelNodeGetParams
  // CHECK: fakecuda: call cuGraphCreate
  // CHECK: fakecuda: call cuGraphAddKernelNode
  // CHECK: fakecuda: call cuGraphKernelNodeCopyAttributes
  std::fprintf(stderr, "add fill\n");
  auto Fill = G.add_fill(In, 2);
  // CHECK-LABEL: add fill
  // CHECK: fakecuda: call cuGraphAddChildGraphNode
  G.add_dependency(Fill, Kn);
  // CHECK: fakecuda: call cuGraphAddDependencies
  G.add_host([] { std::fprintf(stderr, "host node ran\n"); }, {Kn});
  // CHECK: fakecuda: call cuGraphAddHostNode
  std::fprintf(stderr, "instantiate\n");
  mstage::graph_exec X = G.instantiate();
  // CHECK-LABEL: instantiate
  // CHECK: fakecuda: call cuGraphInstantiateWithFlags
  std::fprintf(stderr, "launch\n");
  X.launch();
  mstage::synchronize();
  // CHECK-LABEL: launch
  // CHECK: fakecuda: call cuGraphLaunch
  // CHECK-NEXT: fakecuda: launch {{.*}} out #0+0 in #1+0 int 7
  // CHECK-NEXT: fakecuda: launch-free memset32 #1+0 value 2 x 256
  // CHECK-NEXT: host node ran
  std::fprintf(stderr, "update\n");
  G.update(X, Kn, K, Out, In, 9);
  // CHECK-LABEL: update
  // CHECK: fakecuda: call cuGraphExecKernelNodeSetParams
  // CHECK: fakecuda: call cuGraphKernelNodeSetParams
  // CHECK-NOT: cuGraphInstantiate
  // CHECK-LABEL: launch again
  std::fprintf(stderr, "launch again\n");
  X.launch();
  mstage::synchronize();
  // CHECK: fakecuda: call cuGraphLaunch
  // CHECK-NEXT: fakecuda: launch {{.*}} out #0+0 in #1+0 int 9
  // CHECK-NEXT: fakecuda: launch-free memset32 #1+0 value 2 x 256
  // CHECK-NEXT: host node ran
  std::fprintf(stderr, "done\n");
  // CHECK-LABEL: done
  // The executable graph has a host node, which the device's work may still
  // call: its destruction waits for the device first.
  // CHECK: fakecuda: call cuCtxSynchronize
  // CHECK-NEXT: fakecuda: call cuCtxGetCurrent
  // CHECK-NEXT: fakecuda: call cuGraphExecDestroy
}
