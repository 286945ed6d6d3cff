//===- CudaGraphNodes.cpp - Graphs built node by node, on a GPU -----------===//
//
// The builder's CUDA graph (core/GraphNodes.h), made with its first node: a
// capture whose only node is a kernel node becomes a kernel node (its
// arguments can be updated in an executable graph), any other capture a
// child graph node (an empty one, an empty node); host functions are host
// nodes and a builder added to another a child graph node.
//
//===----------------------------------------------------------------------===//
#include "backends/cuda/CudaBackend.h"
#include "core/GraphNodes.h"
#include "cuda/CudaDriver.h"
#include "support/RuntimeFailure.h"

#include <cassert>

namespace mstage::rt {
namespace {

class CudaGraphNodes final : public GraphNodes {
public:
  explicit CudaGraphNodes(CudaDriver &Driver) : Driver(Driver) {}
  ~CudaGraphNodes() override {
    if (Graph)
      Driver.destroyGraph(Graph, nullptr);
  }

  llvm::Expected<bool> addCaptured(const mstage_graph &Captured, bool OneLaunch,
                                   llvm::ArrayRef<unsigned> After) override {
    llvm::Expected<Nodes> Of = nodesOf(Captured);
    if (!Of)
      return Of.takeError();
    bool Kernel = Of->Kernel && OneLaunch;
    if (llvm::Error E = add(
            After, [&](llvm::ArrayRef<CUgraphNode> Deps, CUgraphNode *Node) {
              if (Kernel)
                return Driver.addKernelNode(Graph, Deps, Of->Params, Of->Kernel,
                                            Node);
              // Nothing was enqueued: an empty node.
              return Driver.addChildNode(
                  Graph, Deps, Of->Count ? Captured.Graph : nullptr, Node);
            }))
      return std::move(E);
    return Kernel;
  }

  llvm::Error addHost(void (*Fn)(void *), void *Data,
                      llvm::ArrayRef<unsigned> After) override {
    return add(After, [&](llvm::ArrayRef<CUgraphNode> Deps, CUgraphNode *Node) {
      return Driver.addHostNode(Graph, Deps, Fn, Data, Node);
    });
  }

  // The child's CUDA graph is cloned into the node: the order is its edges.
  llvm::Error addChild(const GraphNodes &Child, llvm::ArrayRef<unsigned>,
                       llvm::ArrayRef<unsigned> After) override {
    CUgraph Of = static_cast<const CudaGraphNodes &>(Child).Graph;
    return add(After, [&](llvm::ArrayRef<CUgraphNode> Deps, CUgraphNode *Node) {
      return Driver.addChildNode(Graph, Deps, Of, Node);
    });
  }

  llvm::Error addDependency(unsigned From, unsigned To) override {
    return Driver.addDependency(Graph, Handles[From], Handles[To]);
  }

  // The builder's graph stays the builder's: G holds only the executable.
  llvm::Error instantiate(llvm::ArrayRef<unsigned>, mstage_graph &G) override {
    if (!Graph) // an empty graph
      if (llvm::Error E = Driver.createGraph(&Graph))
        return E;
    G.Driver = &Driver;
    return Driver.instantiate(Graph, &G.Exec);
  }

  llvm::Error update(unsigned Node, mstage_graph *Exec,
                     const mstage_graph &Captured) override {
    llvm::Expected<Nodes> Of = nodesOf(Captured);
    if (!Of)
      return Of.takeError();
    if (!Of->Kernel)
      return failure("the launch was captured as more than a kernel node");
    return Driver.setKernelNode(Handles[Node], Exec ? Exec->Exec : nullptr,
                                Of->Params);
  }

private:
  // What a capture's graph holds: its only node when that is a kernel node
  // (else null), with the node's parameters (valid while the graph lives),
  // and how many nodes it has.
  struct Nodes {
    CUgraphNode Kernel = nullptr;
    CUDA_KERNEL_NODE_PARAMS Params = {};
    size_t Count = 0;
  };
  llvm::Expected<Nodes> nodesOf(const mstage_graph &Captured) {
    Nodes Of;
    llvm::Expected<CUgraphNode> Only =
        Driver.onlyKernelNode(Captured.Graph, &Of.Params, &Of.Count);
    if (!Only)
      return Only.takeError();
    Of.Kernel = *Only;
    return Of;
  }

  // Adds the next node after the nodes After, made by Make.
  llvm::Error add(llvm::ArrayRef<unsigned> After,
                  llvm::function_ref<llvm::Error(llvm::ArrayRef<CUgraphNode>,
                                                 CUgraphNode *)>
                      Make) {
    if (!Graph)
      if (llvm::Error E = Driver.createGraph(&Graph))
        return E;
    std::vector<CUgraphNode> Deps;
    for (unsigned D : After)
      Deps.push_back(Handles[D]);
    CUgraphNode Node = nullptr;
    if (llvm::Error E = Make(Deps, &Node))
      return E;
    Handles.push_back(Node);
    return llvm::Error::success();
  }

  CudaDriver &Driver;
  CUgraph Graph = nullptr;
  std::vector<CUgraphNode> Handles; // by node number
};

} // namespace

std::unique_ptr<GraphNodes> CudaBackend::makeGraphNodes(Stream &S) const {
  assert(S.driver() && "a stream of the GPU has its device's driver");
  return std::make_unique<CudaGraphNodes>(*S.driver());
}

} // namespace mstage::rt
