//===- GraphBuilder.h - Graphs built node by node ---------------*- C++ -*-===//
//
// mstage/graph_builder.hpp's graphs. A node is what a capture of the
// builder's stream recorded (a kernel launch, a copy, a fill: staged values
// evaluated then, so a kernel node is one specialization and its
// arguments), a host function, or a copy of another builder's graph; edges
// say which nodes run after which. The builder keeps what the nodes are and
// checks their uses; what runs them is the back end's (core/GraphNodes.h:
// on a GPU a CUDA graph, where a capture of one launch becomes a kernel
// node whose arguments an executable graph can update; off it the nodes'
// host operations, run in a topological order of the edges).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_GRAPHBUILDER_H
#define MSTAGE_RUNTIME_GRAPHBUILDER_H

#include "core/GraphNodes.h"
#include "core/Stream.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mstage::rt {

// Destroys a captured or executable graph (mstage_rt_graph_destroy).
struct GraphDeleter {
  void operator()(mstage_graph *G) const;
};
using GraphPtr = std::unique_ptr<mstage_graph, GraphDeleter>;

class GraphBuilder {
public:
  // A builder for graphs on S's device; its nodes are captured on S.
  explicit GraphBuilder(Stream &S);
  ~GraphBuilder();
  GraphBuilder(const GraphBuilder &) = delete;
  GraphBuilder &operator=(const GraphBuilder &) = delete;

  uint64_t id() const { return Id; }
  Stream &stream() { return S; }
  size_t size();

  // A node id: the builder's id in the high half, the node's number in the
  // low one, so that a node of another builder is told apart.
  // Each add returns the new node's id, running after the nodes After.
  llvm::Expected<uint64_t> addCaptured(GraphPtr Captured,
                                       llvm::ArrayRef<uint64_t> After);
  llvm::Expected<uint64_t> addHost(void (*Fn)(void *), void *Data,
                                   void (*Free)(void *),
                                   llvm::ArrayRef<uint64_t> After);
  llvm::Expected<uint64_t> addChild(GraphBuilder &Child,
                                    llvm::ArrayRef<uint64_t> After);
  // To runs after From; a cycle is an error that names it.
  llvm::Error addDependency(uint64_t From, uint64_t To);
  // An executable graph of the nodes so far.
  llvm::Expected<GraphPtr> instantiate();
  // Node, a kernel node, launches as Captured (one launch of the same
  // kernel, maybe another specialization) from now on, in this builder and
  // in Exec (null: none), an executable graph of it.
  llvm::Error update(mstage_graph *Exec, uint64_t Node, GraphPtr Captured);

private:
  struct Node {
    std::string What;                    // for errors: "kernel 'main::k'"
    GraphPtr Captured;                   // a capture's node
    std::vector<void *> Holds;           // a child's memory (GraphMemory.h)
    std::vector<InFlightKernel> Kernels; // the launches in it
    const void *Kernel = nullptr;        // one launch of it: an update may
                                         // change the arguments
    std::vector<unsigned> After;
  };

  llvm::Expected<unsigned> nodeOf(uint64_t NodeId, const char *What);
  llvm::Expected<std::vector<unsigned>> nodesOf(llvm::ArrayRef<uint64_t> After);
  // Adds N after the nodes After; Add adds it to Run (N.After is set).
  llvm::Expected<uint64_t> add(Node N, llvm::ArrayRef<uint64_t> After,
                               llvm::function_ref<llvm::Error(Node &)> Add);
  // The nodes in an order that runs each after the nodes it depends on.
  std::vector<unsigned> order() const;
  // "node 2 (kernel 'main::k')"
  std::string name(unsigned I) const;
  std::vector<void *> memory() const; // what every node holds

  Stream &S;
  const uint64_t Id;
  const unsigned Device;           // S's
  std::unique_ptr<GraphNodes> Run; // the back end's
  std::mutex Lock;
  std::vector<Node> Nodes;
  std::vector<std::shared_ptr<void>> Keep; // the host functions' data
};

} // namespace mstage::rt

#endif
