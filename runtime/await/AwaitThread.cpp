//===- AwaitThread.cpp - Resumes coroutines when their GPU work is done ---===//
#include "await/AwaitThread.h"
#include "core/Stream.h"
#include "support/RuntimeFailure.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Threading.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <iterator>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mstage::rt {
namespace {

using Clock = std::chrono::steady_clock;

// How long the thread spins after progress, and its poll period after that.
constexpr auto SpinFor = std::chrono::milliseconds(1);
constexpr auto PollEvery = std::chrono::microseconds(100);

struct Waiting {
  uint64_t Ticket;
  mstage_event *Event; // null once destroyed
  mstage_notify_fn Done;
  void *Context;
  unsigned Device;
  std::string Error; // when the work failed
};

struct Waiter {
  std::mutex Lock;
  std::condition_variable Wake;     // a registration, or the exit
  std::condition_variable Returned; // a round or a continuation ended
  std::vector<Waiting> Pending;     // not complete when last asked
  std::deque<Waiting> Ready;        // complete, to be called in order
  uint64_t NextTicket = 1;
  uint64_t Running = 0; // the ticket whose continuation runs now
  bool Polling = false; // Pending's entries of the round are out
  size_t InRound = 0;   // how many, for the count at exit
  Clock::time_point Progress;
  bool Started = false, Stopped = false;
};

// Never destroyed: a coroutine's awaiter may cancel from a static
// destructor. A fork()ed child gets a new one (the parent's thread and its
// waits are not the child's) and never touches the parent's again.
std::atomic<Waiter *> Current{new Waiter};
thread_local bool IsAwaitThread = false;
std::thread *TheThread = nullptr; // the process's, joined at exit

Waiter &waiter() { return *Current.load(std::memory_order_acquire); }

// Asks about Polled's events, without the lock; moves the complete or
// failed ones to Done, in order. A stream's events complete in the order
// of their records: after one that is not complete, later ones of its
// stream are not asked about. (Two threads recording on one stream at once
// may number their records out of order: the wait then ends with the other
// record's completion, later than it could, never earlier.)
void pollOnce(std::vector<Waiting> &Polled, std::vector<Waiting> &Done) {
  llvm::SmallDenseMap<uint64_t, uint64_t, 8> NotDoneFrom; // stream -> record
  llvm::erase_if(Polled, [&](Waiting &P) {
    uint64_t Stream = P.Event->StreamId, Number = P.Event->RecordNumber;
    auto It = NotDoneFrom.find(Stream);
    if (It != NotDoneFrom.end() && Number > It->second)
      return false;
    int State = mstage_rt_event_query(P.Event);
    if (State == 0) {
      if (It == NotDoneFrom.end() || Number < It->second)
        NotDoneFrom[Stream] = Number;
      return false;
    }
    if (State < 0)
      P.Error = mstage_rt_last_error();
    Done.push_back(std::move(P));
    return true;
  });
}

void run(Waiter &W) {
  IsAwaitThread = true;
  llvm::set_thread_name("mstage-await");
  std::unique_lock<std::mutex> L(W.Lock);
  std::vector<Waiting> Polled, Done;
  while (true) {
    W.Wake.wait(
        L, [&] { return W.Stopped || !W.Pending.empty() || !W.Ready.empty(); });
    if (W.Stopped)
      return;
    Polled.swap(W.Pending);
    W.Polling = true;
    W.InRound = Polled.size();
    L.unlock();
    pollOnce(Polled, Done);
    L.lock();
    W.Polling = false;
    W.InRound = 0;
    // Those registered during the round go after the round's.
    Polled.insert(Polled.end(), std::make_move_iterator(W.Pending.begin()),
                  std::make_move_iterator(W.Pending.end()));
    W.Pending.clear();
    W.Pending.swap(Polled);
    for (Waiting &D : Done)
      W.Ready.push_back(std::move(D));
    Done.clear();
    W.Returned.notify_all();
    if (!W.Ready.empty())
      W.Progress = Clock::now();
    while (!W.Ready.empty() && !W.Stopped) {
      Waiting R = std::move(W.Ready.front());
      W.Ready.pop_front();
      W.Running = R.Ticket;
      L.unlock();
      setCurrentDevice(R.Device); // a device the awaiting thread used
      R.Done(R.Context, R.Error.empty() ? nullptr : R.Error.c_str());
      L.lock();
      W.Running = 0;
      W.Returned.notify_all();
    }
    if (W.Pending.empty() || W.Stopped)
      continue;
    if (Clock::now() - W.Progress < SpinFor) {
      L.unlock();
      std::this_thread::yield();
      L.lock();
    } else {
      W.Wake.wait_for(L, PollEvery);
    }
  }
}

// At exit the thread stops; a coroutine it would resume stays suspended (its
// frame is not destroyed, as for any coroutine never resumed).
void stopAtExit() {
  Waiter &W = waiter();
  std::unique_lock<std::mutex> L(W.Lock);
  if (!W.Started || W.Stopped)
    return;
  W.Stopped = true;
  // A round in flight holds its entries outside Pending (a race the lit
  // test's exit case lost 1 run in about 10).
  size_t Left = W.Pending.size() + W.Ready.size() + W.InRound;
  W.Wake.notify_all();
  L.unlock();
  if (Left)
    std::fprintf(stderr,
                 "mstage: at exit, %zu coroutine%s still awaited GPU work "
                 "(co_await); not resumed\n",
                 Left, Left == 1 ? "" : "s");
}

void joinAtExit() {
  stopAtExit();
  if (TheThread && !IsAwaitThread && TheThread->joinable())
    TheThread->join();
}

void startThread(Waiter &W) {
  static bool First = true; // a forked child registers nothing again
  if (First) {
    pthread_atfork([] { waiter().Lock.lock(); }, [] { waiter().Lock.unlock(); },
                   [] {
                     auto *Fresh = new Waiter;
                     Fresh->NextTicket =
                         waiter().NextTicket; // old tickets stay unknown
                     Current.store(Fresh, std::memory_order_release);
                     TheThread = nullptr;
                   });
    std::atexit(joinAtExit);
    First = false;
  }
  W.Started = true;
  TheThread = new std::thread(run, std::ref(W));
}

} // namespace

llvm::Error awaitEvent(mstage_event &E, mstage_notify_fn Done, void *Context,
                       uint64_t *Ticket) {
  Waiter &W = waiter();
  std::lock_guard<std::mutex> L(W.Lock);
  if (W.Stopped)
    return failure("co_await during the exit: the thread that resumes "
                   "coroutines has stopped");
  if (!W.Started)
    startThread(W);
  *Ticket = W.NextTicket++;
  W.Pending.push_back({*Ticket, &E, Done, Context, currentDevice(), {}});
  W.Progress = Clock::now();
  W.Wake.notify_one();
  return llvm::Error::success();
}

bool cancelAwait(uint64_t Ticket) {
  Waiter &W = waiter();
  std::unique_lock<std::mutex> L(W.Lock);
  auto Is = [&](const Waiting &P) { return P.Ticket == Ticket; };
  while (true) {
    if (auto It = llvm::find_if(W.Pending, Is); It != W.Pending.end()) {
      W.Pending.erase(It);
      return true;
    }
    if (auto It = llvm::find_if(W.Ready, Is); It != W.Ready.end()) {
      W.Ready.erase(It);
      return true;
    }
    if (IsAwaitThread)
      return false;  // the await thread does not poll while it resumes
    if (W.Polling) { // the wait may be out for the round
      W.Returned.wait(L, [&] { return !W.Polling; });
      continue;
    }
    W.Returned.wait(L, [&] { return W.Running != Ticket; });
    return false;
  }
}

bool onAwaitThread() { return IsAwaitThread; }

void eventDestroyed(mstage_event &E) {
  Waiter &W = waiter();
  std::unique_lock<std::mutex> L(W.Lock);
  if (!W.Started)
    return;
  if (!IsAwaitThread)
    W.Returned.wait(L, [&] { return !W.Polling; });
  bool Any = false;
  llvm::erase_if(W.Pending, [&](Waiting &P) {
    if (P.Event != &E)
      return false;
    P.Event = nullptr;
    P.Error = "mstage: co_await: the event was destroyed while a coroutine "
              "awaited it";
    W.Ready.push_back(std::move(P));
    Any = true;
    return true;
  });
  if (Any)
    W.Wake.notify_one();
}

} // namespace mstage::rt
