//===- AwaitThread.h - Resumes coroutines when their GPU work is done -----===//
//
// co_await on an event or a kernel_future (mstage/coroutine.hpp) registers
// the event here; one runtime-owned thread asks the back end about the
// registered events and calls each one's continuation on itself when its
// work is complete or has failed. Why a polling thread of the runtime, and
// not a host function of the driver (cuLaunchHostFunc, cuStreamAddCallback):
//  - the continuation resumes a coroutine, which launches more work, and a
//    driver callback must not call CUDA: a runtime-owned thread is needed in
//    either design;
//  - cuLaunchHostFunc is not called after a kernel fault, so the faulting
//    kernel's coroutine would never resume, and it enqueues a node into the
//    user's stream, which a capture would record into a graph;
//  - querying works for every back end, and the CPU back end needs no thread
//    (its events are complete when recorded: the coroutine does not
//    suspend).
// The thread polls with std::this_thread::yield() for the first millisecond
// after progress (a registration or a completion), as the driver's default
// scheduling spins in cuEventSynchronize, then every 100 us until the next
// progress. It asks about the events without holding its lock, so that
// registrations do not wait for a round, and about one event per stream at
// most: a stream's events complete in the order they were recorded. It exists
// only while something has been awaited; the exit stops it, leaving the
// coroutines still suspended as they are (one line on stderr), and a fork()ed
// child starts its own.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_AWAIT_AWAITTHREAD_H
#define MSTAGE_RUNTIME_AWAIT_AWAITTHREAD_H

#include "mstage/abi.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace mstage::rt {

// Calls Done(Context, error or null) on the await thread once E's work (a
// recorded event's, not one of a capture) is complete, with the calling
// thread's current device made the await thread's. *Ticket is set, before Done
// can be called, to what cancelAwait() takes.
llvm::Error awaitEvent(mstage_event &E, mstage_notify_fn Done, void *Context,
                       uint64_t *Ticket);

// Takes back the wait of Ticket: true when Done will not be called; false
// when it was called, or runs now (on another thread: returns when it has
// returned).
bool cancelAwait(uint64_t Ticket);

// Whether the calling thread is the await thread.
bool onAwaitThread();

// E is being destroyed: a coroutine that awaits it is resumed with an
// error, since the work it waits for can no longer be asked about.
void eventDestroyed(mstage_event &E);

} // namespace mstage::rt

#endif
