//===- HostGraphNodes.cpp - Graphs built node by node, off the GPU --------===//
//
// A node is the host operations its capture recorded (or its host function,
// or a child's operations in the child's order); an executable graph runs
// them in an order of the edges, each node's from a slot that an update
// replaces (core/GraphNodes.h).
//
//===----------------------------------------------------------------------===//
#include "backends/HostBackend.h"
#include "core/GraphNodes.h"
#include "support/RuntimeFailure.h"

#include "llvm/ADT/STLExtras.h"

namespace mstage::rt {
namespace {

class HostGraphNodes final : public GraphNodes {
public:
  llvm::Expected<bool> addCaptured(const mstage_graph &Captured, bool OneLaunch,
                                   llvm::ArrayRef<unsigned>) override {
    Ops.push_back(Captured.Rec.Ops);
    return OneLaunch && Captured.Rec.Ops.size() == 1;
  }

  llvm::Error addHost(void (*Fn)(void *), void *Data,
                      llvm::ArrayRef<unsigned>) override {
    Ops.push_back({[Fn, Data] {
      Fn(Data);
      return 0;
    }});
    return llvm::Error::success();
  }

  llvm::Error addChild(const GraphNodes &Child, llvm::ArrayRef<unsigned> Order,
                       llvm::ArrayRef<unsigned>) override {
    const auto &Of = static_cast<const HostGraphNodes &>(Child);
    std::vector<HostOp> All;
    for (unsigned I : Order)
      llvm::append_range(All, Of.Ops[I]);
    Ops.push_back(std::move(All));
    return llvm::Error::success();
  }

  // The order the builder passes to instantiate() has the edges.
  llvm::Error addDependency(unsigned, unsigned) override {
    return llvm::Error::success();
  }

  llvm::Error instantiate(llvm::ArrayRef<unsigned> Order,
                          mstage_graph &G) override {
    BuiltGraph &B = *G.Built;
    for (const std::vector<HostOp> &Node : Ops)
      B.Slots.push_back(std::make_shared<std::vector<HostOp>>(Node));
    for (unsigned I : Order)
      G.Rec.Ops.push_back([Slot = B.Slots[I]] {
        for (const HostOp &Op : *Slot)
          if (int Err = Op())
            return Err;
        return 0;
      });
    return llvm::Error::success();
  }

  llvm::Error update(unsigned Node, mstage_graph *Exec,
                     const mstage_graph &Captured) override {
    const std::vector<HostOp> &New = Captured.Rec.Ops;
    if (New.size() != 1)
      return failure("the launch was captured with " +
                     std::to_string(New.size() - 1) +
                     " other operations; capture the launch alone");
    Ops[Node] = New;
    if (Exec)
      *Exec->Built->Slots[Node] = New;
    return llvm::Error::success();
  }

private:
  std::vector<std::vector<HostOp>> Ops; // by node number
};

} // namespace

std::unique_ptr<GraphNodes> HostBackend::makeGraphNodes(Stream &) const {
  return std::make_unique<HostGraphNodes>();
}

} // namespace mstage::rt
