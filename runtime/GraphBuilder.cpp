//===- GraphBuilder.cpp - Graphs built node by node -----------------------===//
//
// See GraphBuilder.h. Edges only ever join existing nodes, and one that
// would close a cycle is refused, so the graph is always acyclic and an
// order exists.
//
//===----------------------------------------------------------------------===//
#include "GraphBuilder.h"
#include "GraphMemory.h"
#include "core/Backend.h"
#include "core/RuntimeError.h"

#include "llvm/ADT/STLExtras.h"

#include <atomic>
#include <cassert>

using namespace mstage::rt;
using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;

void GraphDeleter::operator()(mstage_graph *G) const {
  mstage_rt_graph_destroy(G);
}

namespace {

std::atomic<uint64_t> NextBuilderId{1};

constexpr unsigned IdShift = 32;

uint64_t nodeId(uint64_t Builder, unsigned Index) {
  return Builder << IdShift | Index;
}

// "kernel 'main::k'", "2 kernels", "a copy or fill" for a capture's node.
std::string describe(const Recording &Rec) {
  uint64_t Launches = 0;
  for (const InFlightKernel &K : Rec.Kernels)
    Launches += K.Launches;
  if (Rec.Kernels.size() == 1 && Launches == 1)
    return "kernel '" + Rec.Kernels[0].Name + "'";
  if (Launches)
    return std::to_string(Launches) + " kernel launches";
  return "copies and fills";
}

} // namespace

GraphBuilder::GraphBuilder(Stream &S)
    : S(S), Id(NextBuilderId.fetch_add(1)), Device(S.device()),
      Run(backend().makeGraphNodes(S)) {}

GraphBuilder::~GraphBuilder() {
  for (Node &N : Nodes)
    releaseGraphMemory(N.Holds);
  Run.reset(); // before the captures its nodes were made of
}

size_t GraphBuilder::size() {
  std::lock_guard<std::mutex> G(Lock);
  return Nodes.size();
}

std::string GraphBuilder::name(unsigned I) const {
  return "node " + std::to_string(I) + " (" + Nodes[I].What + ")";
}

Expected<unsigned> GraphBuilder::nodeOf(uint64_t NodeId, const char *What) {
  uint64_t Owner = NodeId >> IdShift;
  unsigned Index = unsigned(NodeId);
  if (!NodeId)
    return failure(std::string("graph_builder: ") + What +
                   ": a node that was never added (a default graph_node)");
  if (Owner != Id)
    return failure(std::string("graph_builder: ") + What + ": node " +
                   std::to_string(Index) + " belongs to graph " +
                   std::to_string(Owner) + ", not to graph " +
                   std::to_string(Id) +
                   "; a node depends only on nodes of its own graph (add the "
                   "other graph as a child with add_graph)");
  assert(Index < Nodes.size() && "node ids are handed out by add()");
  return Index;
}

Expected<std::vector<unsigned>>
GraphBuilder::nodesOf(ArrayRef<uint64_t> After) {
  std::vector<unsigned> Indices;
  for (uint64_t NodeId : After) {
    Expected<unsigned> I = nodeOf(NodeId, "a dependency");
    if (!I)
      return I.takeError();
    if (!llvm::is_contained(Indices, *I))
      Indices.push_back(*I);
  }
  return Indices;
}

Expected<uint64_t> GraphBuilder::add(Node N, ArrayRef<uint64_t> After,
                                     llvm::function_ref<Error(Node &)> Add) {
  Expected<std::vector<unsigned>> Deps = nodesOf(After);
  if (!Deps)
    return Deps.takeError();
  N.After = std::move(*Deps);
  if (Error E = Add(N))
    return std::move(E);
  Nodes.push_back(std::move(N));
  return nodeId(Id, unsigned(Nodes.size() - 1));
}

Expected<uint64_t> GraphBuilder::addCaptured(GraphPtr Captured,
                                             ArrayRef<uint64_t> After) {
  std::lock_guard<std::mutex> G(Lock);
  Node N;
  const Recording &Rec = Captured->Rec;
  N.What = describe(Rec);
  N.Kernels = Rec.Kernels;
  bool OneLaunch = Rec.Kernels.size() == 1 && Rec.Kernels[0].Launches == 1;
  N.Captured = std::move(Captured);
  // A kernel node, so that its arguments can be updated; a capture of
  // anything else is a child graph.
  return add(std::move(N), After, [&](Node &New) -> Error {
    Expected<bool> KernelNode =
        Run->addCaptured(*New.Captured, OneLaunch, New.After);
    if (!KernelNode)
      return KernelNode.takeError();
    if (*KernelNode)
      New.Kernel = New.Kernels[0].Key;
    return Error::success();
  });
}

Expected<uint64_t> GraphBuilder::addHost(void (*Fn)(void *), void *Data,
                                         void (*Free)(void *),
                                         ArrayRef<uint64_t> After) {
  std::shared_ptr<void> Owned(Data, Free);
  std::lock_guard<std::mutex> G(Lock);
  Node N;
  N.What = "host function";
  Expected<uint64_t> NodeId = add(std::move(N), After, [&](Node &New) {
    return Run->addHost(Fn, Data, New.After);
  });
  if (NodeId)
    Keep.push_back(std::move(Owned));
  return NodeId;
}

Expected<uint64_t> GraphBuilder::addChild(GraphBuilder &Child,
                                          ArrayRef<uint64_t> After) {
  if (&Child == this)
    return failure("graph_builder: add_graph: graph " + std::to_string(Id) +
                   " cannot contain itself");
  std::scoped_lock G(Lock, Child.Lock);
  if (Child.Device != Device)
    return failure("graph_builder: add_graph: graph " +
                   std::to_string(Child.Id) +
                   " is of another device than graph " + std::to_string(Id));
  Node N;
  N.What = "graph " + std::to_string(Child.Id);
  for (const Node &C : Child.Nodes)
    llvm::append_range(N.Kernels, C.Kernels);
  // The child's memory and host functions live as long as this graph.
  Recording Uses;
  Uses.Uses = Child.memory();
  std::string Escaped;
  N.Holds = holdGraphMemory(Uses, Escaped);
  assert(Escaped.empty() && "memory a node's capture made is refused then");
  Expected<uint64_t> NodeId = add(std::move(N), After, [&](Node &New) {
    return Run->addChild(*Child.Run, Child.order(), New.After);
  });
  if (NodeId)
    llvm::append_range(Keep, Child.Keep);
  return NodeId;
}

Error GraphBuilder::addDependency(uint64_t From, uint64_t To) {
  std::lock_guard<std::mutex> G(Lock);
  Expected<unsigned> F = nodeOf(From, "add_dependency");
  if (!F)
    return F.takeError();
  Expected<unsigned> T = nodeOf(To, "add_dependency");
  if (!T)
    return T.takeError();
  if (llvm::is_contained(Nodes[*T].After, *F))
    return Error::success();
  // A cycle when From already runs after To: find that path.
  std::vector<int> Next(Nodes.size(), -1); // toward To, along After edges
  std::vector<unsigned> Work = {*F};
  std::vector<bool> Seen(Nodes.size());
  Seen[*F] = true;
  bool Cycle = *F == *T;
  while (!Cycle && !Work.empty()) {
    unsigned I = Work.back();
    Work.pop_back();
    for (unsigned D : Nodes[I].After) {
      if (Seen[D])
        continue;
      Seen[D] = true;
      Next[D] = int(I);
      if (D == *T) {
        Cycle = true;
        break;
      }
      Work.push_back(D);
    }
  }
  if (Cycle) {
    std::string Path = name(*T);
    for (int I = *F == *T ? -1 : Next[*T]; I >= 0; I = Next[I])
      Path += " -> " + name(unsigned(I));
    return failure("graph_builder: add_dependency: " + name(*T) + " after " +
                   name(*F) + " would make a cycle: " + Path + " -> " +
                   name(*T) + " (each runs after the one before it)");
  }
  if (Error E = Run->addDependency(*F, *T))
    return E;
  Nodes[*T].After.push_back(*F);
  return Error::success();
}

std::vector<unsigned> GraphBuilder::order() const {
  // Kahn's algorithm, lowest number first: the order of adding where the
  // edges allow it.
  std::vector<unsigned> Waiting(Nodes.size());
  std::vector<std::vector<unsigned>> Then(Nodes.size());
  for (unsigned I = 0; I < Nodes.size(); ++I) {
    Waiting[I] = unsigned(Nodes[I].After.size());
    for (unsigned D : Nodes[I].After)
      Then[D].push_back(I);
  }
  std::vector<unsigned> Order, Ready;
  for (unsigned I = Nodes.size(); I-- > 0;)
    if (!Waiting[I])
      Ready.push_back(I);
  while (!Ready.empty()) {
    unsigned I = Ready.back();
    Ready.pop_back();
    Order.push_back(I);
    for (unsigned T : Then[I])
      if (!--Waiting[T]) {
        auto At = llvm::lower_bound(Ready, T, std::greater<unsigned>());
        Ready.insert(At, T);
      }
  }
  assert(Order.size() == Nodes.size() && "addDependency refuses cycles");
  return Order;
}

std::vector<void *> GraphBuilder::memory() const {
  std::vector<void *> All;
  for (const Node &N : Nodes) {
    if (N.Captured)
      llvm::append_range(All, N.Captured->Holds);
    llvm::append_range(All, N.Holds);
  }
  return All;
}

Expected<GraphPtr> GraphBuilder::instantiate() {
  std::lock_guard<std::mutex> L(Lock);
  GraphPtr G(new mstage_graph);
  G->Built = std::make_shared<BuiltGraph>();
  BuiltGraph &B = *G->Built;
  B.BuilderId = Id;
  B.Nodes = unsigned(Nodes.size());
  B.Keep = Keep;
  for (const Node &N : Nodes)
    llvm::append_range(G->Rec.Kernels, N.Kernels);
  Recording Uses;
  Uses.Uses = memory();
  std::string Escaped;
  G->Holds = holdGraphMemory(Uses, Escaped);
  if (Error E = Run->instantiate(order(), *G))
    return std::move(E);
  return std::move(G);
}

Error GraphBuilder::update(mstage_graph *Exec, uint64_t NodeId,
                           GraphPtr Captured) {
  std::lock_guard<std::mutex> L(Lock);
  Expected<unsigned> I = nodeOf(NodeId, "update");
  if (!I)
    return I.takeError();
  Node &N = Nodes[*I];
  if (Exec && (!Exec->Built || Exec->Built->BuilderId != Id))
    return failure("graph_builder: update: the executable graph is not one "
                   "of graph " +
                   std::to_string(Id) + " (instantiate() of this builder)");
  if (Exec && *I >= Exec->Built->Nodes)
    return failure("graph_builder: update: " + name(*I) +
                   " was added after the executable graph was instantiated; "
                   "instantiate again");
  if (!N.Kernel)
    return failure("graph_builder: update: " + name(*I) +
                   " is not a kernel node (one kernel launch); only a kernel "
                   "node's arguments can be updated");
  const Recording &Rec = Captured->Rec;
  if (Rec.Kernels.size() != 1 || Rec.Kernels[0].Launches != 1)
    return failure("graph_builder: update of " + name(*I) +
                   ": the update is not one kernel launch but " +
                   describe(Rec));
  if (Rec.Kernels[0].Key != N.Kernel)
    return failure("graph_builder: update of " + name(*I) + ": it launches '" +
                   Rec.Kernels[0].Name +
                   "'; a kernel node keeps its kernel (its arguments, staged "
                   "values and launch shape may change): add a node for "
                   "another kernel and instantiate again");
  if (Error E = Run->update(*I, Exec, *Captured))
    return context(std::move(E), "graph_builder: update of " + name(*I));
  // The executable graph holds the new launch's memory too.
  if (Exec) {
    Recording Uses;
    Uses.Uses = Captured->Holds;
    std::string Escaped;
    llvm::append_range(Exec->Holds, holdGraphMemory(Uses, Escaped));
  }
  N.Kernels = Rec.Kernels;
  N.Captured = std::move(Captured);
  return Error::success();
}
