//===- GraphNodes.h - The back end's side of built graphs -------*- C++ -*-===//
//
// runtime/GraphBuilder.h keeps a builder's nodes (what each is, its edges,
// the memory and host data it holds) and checks every use. What runs the
// nodes is the back end's, made by Backend::makeGraphNodes: on a GPU a CUDA
// graph with one node per node (backends/cuda/CudaGraphNodes.cpp), off it
// each node's host operations, which an executable graph runs in an order
// of the edges (backends/HostGraphNodes.cpp). Nodes are numbered in the
// order they are added; the builder passes only numbers it has checked.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_GRAPHNODES_H
#define MSTAGE_RUNTIME_CORE_GRAPHNODES_H

#include "core/Stream.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace mstage::rt {

// What an executable graph of a builder keeps (mstage_graph::Built).
struct BuiltGraph {
  uint64_t BuilderId = 0;
  unsigned Nodes = 0; // the builder's nodes then
  // The host functions' data, alive while the graph is (on a GPU its
  // destruction waits for the device's work, which may still call them).
  std::vector<std::shared_ptr<void>> Keep;
  // Off the GPU: each node's operations, by node number (a kernel node's are
  // replaced by an update).
  std::vector<std::shared_ptr<std::vector<HostOp>>> Slots;
};

class GraphNodes {
public:
  virtual ~GraphNodes() = default;

  // Adds Captured, a capture of the builder's stream (not instantiated),
  // after the nodes After: a kernel node when it is one launch (OneLaunch,
  // from its recording) that the back end can update later, else a child
  // graph (an empty one: an empty node). True for a kernel node.
  virtual llvm::Expected<bool> addCaptured(const mstage_graph &Captured,
                                           bool OneLaunch,
                                           llvm::ArrayRef<unsigned> After) = 0;
  virtual llvm::Error addHost(void (*Fn)(void *), void *Data,
                              llvm::ArrayRef<unsigned> After) = 0;
  // Child's nodes as one node; Order: Child's nodes in an order of its
  // edges. Child is of the same back end and device.
  virtual llvm::Error addChild(const GraphNodes &Child,
                               llvm::ArrayRef<unsigned> Order,
                               llvm::ArrayRef<unsigned> After) = 0;
  virtual llvm::Error addDependency(unsigned From, unsigned To) = 0;
  // Makes G, whose Built is set, executable; Order: the nodes in an order of
  // the edges.
  virtual llvm::Error instantiate(llvm::ArrayRef<unsigned> Order,
                                  mstage_graph &G) = 0;
  // Node, a kernel node, launches as Captured (one launch of its kernel)
  // from now on, here and in Exec (null: none), an executable graph of
  // these nodes; fails when Captured holds more than the launch.
  virtual llvm::Error update(unsigned Node, mstage_graph *Exec,
                             const mstage_graph &Captured) = 0;
};

} // namespace mstage::rt

#endif
