//===- GraphBuilderApi.cpp - The C ABI of graphs built node by node -------===//
//
// mstage_rt_graph_builder_*: the handles and their checks; what a builder
// does is GraphBuilder.h's.
//
//===----------------------------------------------------------------------===//
#include "Capture.h"
#include "GraphBuilder.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "support/Export.h"

#include "mstage/abi.h"

using namespace mstage::rt;

namespace {

GraphBuilder &builderOf(mstage_graph_builder *B) {
  return *reinterpret_cast<GraphBuilder *>(B);
}

// Returns 0 with *Out the node's id, or the failure's status.
int nodeOut(llvm::Expected<uint64_t> Id, uint64_t *Out) {
  *Out = 0;
  if (!Id)
    return failWith(Id.takeError());
  *Out = *Id;
  return 0;
}

// Ends the capture of S, begun for a node or an update.
int endNodeCapture(mstage_stream *SP, GraphPtr &Captured) {
  mstage_graph *G = nullptr;
  int Err = endCapture(streamOf(SP), &G, /*Instantiate=*/false);
  Captured.reset(G);
  return Err;
}

} // namespace

extern "C" {

MSTAGE_EXPORT int mstage_rt_graph_builder_create(mstage_stream *SP,
                                                 mstage_graph_builder **Out) {
  *Out = nullptr;
  if (llvm::Error E = checkStreamAlive(SP, "graph_builder"))
    return failWith(std::move(E));
  *Out =
      reinterpret_cast<mstage_graph_builder *>(new GraphBuilder(streamOf(SP)));
  return 0;
}

MSTAGE_EXPORT void mstage_rt_graph_builder_destroy(mstage_graph_builder *B) {
  delete reinterpret_cast<GraphBuilder *>(B);
}

MSTAGE_EXPORT uint64_t mstage_rt_graph_builder_id(mstage_graph_builder *B) {
  return builderOf(B).id();
}

MSTAGE_EXPORT size_t mstage_rt_graph_builder_size(mstage_graph_builder *B) {
  return builderOf(B).size();
}

MSTAGE_EXPORT int mstage_rt_graph_builder_add_captured(mstage_graph_builder *B,
                                                       mstage_stream *S,
                                                       const uint64_t *After,
                                                       size_t NumAfter,
                                                       uint64_t *Out) {
  *Out = 0;
  GraphPtr Captured;
  if (int Err = endNodeCapture(S, Captured))
    return Err;
  return nodeOut(builderOf(B).addCaptured(std::move(Captured),
                                          llvm::ArrayRef(After, NumAfter)),
                 Out);
}

MSTAGE_EXPORT int
mstage_rt_graph_builder_add_host(mstage_graph_builder *B, void (*Fn)(void *),
                                 void *Data, void (*Free)(void *),
                                 const uint64_t *After, size_t NumAfter,
                                 uint64_t *Out) {
  return nodeOut(
      builderOf(B).addHost(Fn, Data, Free, llvm::ArrayRef(After, NumAfter)),
      Out);
}

MSTAGE_EXPORT int mstage_rt_graph_builder_add_graph(mstage_graph_builder *B,
                                                    mstage_graph_builder *Child,
                                                    const uint64_t *After,
                                                    size_t NumAfter,
                                                    uint64_t *Out) {
  return nodeOut(
      builderOf(B).addChild(builderOf(Child), llvm::ArrayRef(After, NumAfter)),
      Out);
}

MSTAGE_EXPORT int
mstage_rt_graph_builder_add_dependency(mstage_graph_builder *B, uint64_t From,
                                       uint64_t To) {
  return toStatus(builderOf(B).addDependency(From, To));
}

MSTAGE_EXPORT int mstage_rt_graph_builder_instantiate(mstage_graph_builder *B,
                                                      mstage_graph **Out) {
  *Out = nullptr;
  llvm::Expected<GraphPtr> G = builderOf(B).instantiate();
  if (!G)
    return failWith(context(G.takeError(), "graph_builder: instantiate"));
  *Out = G->release();
  return 0;
}

MSTAGE_EXPORT int mstage_rt_graph_builder_update(mstage_graph_builder *B,
                                                 mstage_graph *Exec,
                                                 uint64_t Node,
                                                 mstage_stream *S) {
  GraphPtr Captured;
  if (int Err = endNodeCapture(S, Captured))
    return Err;
  return toStatus(builderOf(B).update(Exec, Node, std::move(Captured)));
}

} // extern "C"
