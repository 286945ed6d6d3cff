//===- AwaitApi.cpp - The C ABI of co_await on events ---------------------===//
//
// What mstage/coroutine.hpp's awaiters call: the wait itself is the await
// thread's (await/AwaitThread.h).
//
//===----------------------------------------------------------------------===//
#include "await/AwaitThread.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "support/Export.h"
#include "support/RuntimeFailure.h"

#include "mstage/abi.h"

using namespace mstage::rt;

extern "C" {

MSTAGE_EXPORT int mstage_rt_event_notify(mstage_event *E, mstage_notify_fn Done,
                                         void *Context, uint64_t *Ticket) {
  if (E->CaptureRoot) {
    failWith(failure("co_await on an event recorded while its stream was "
                     "captured into a graph: it completes only in a launch "
                     "of the graph; await an event recorded after that "
                     "launch"));
    return -1;
  }
  if (int State = mstage_rt_event_query(E); State != 0)
    return State < 0 ? -1 : 1; // done, or failed (the query said why)
  if (llvm::Error Err = awaitEvent(*E, Done, Context, Ticket)) {
    failWith(std::move(Err));
    return -1;
  }
  return 0;
}

MSTAGE_EXPORT int mstage_rt_event_notify_cancel(uint64_t Ticket) {
  return cancelAwait(Ticket) ? 1 : 0;
}

MSTAGE_EXPORT int mstage_rt_on_await_thread(void) {
  return onAwaitThread() ? 1 : 0;
}

} // extern "C"
