// co_await on GPU work (C++20): a coroutine that awaits an mstage::event or
// an mstage::kernel_future resumes once the work before it is done. Work
// that is already done (always on the CPU back end) does not suspend: the
// coroutine goes on inline. Otherwise it is resumed on the runtime's await
// thread, which polls the events (docs/api.md, "Coroutines"): the resumed
// coroutine may launch more work there, on that thread's default stream of
// the device that was current when it suspended. These awaitables work with
// any coroutine type; mstage/task.hpp has a minimal one.
#ifndef MSTAGE_COROUTINE_HPP
#define MSTAGE_COROUTINE_HPP

#include "mstage/abi.h"
#include "mstage/error.hpp"
#include "mstage/kernel.hpp"
#include "mstage/stream.hpp"

#include <coroutine>
#include <cstdint>
#include <exception>
#include <optional>
#include <utility>

namespace mstage {
namespace detail {

// Suspends until an event's work is done. While suspended, the await thread
// holds a pointer to it: the destructor takes the wait back, so a coroutine
// destroyed while it waits is never resumed.
class event_awaiter {
public:
  explicit event_awaiter(mstage_event *e) : e_(e) {}
  event_awaiter(const event_awaiter &) = delete;
  event_awaiter &operator=(const event_awaiter &) = delete;
  ~event_awaiter() {
    if (ticket_)
      mstage_rt_event_notify_cancel(ticket_);
  }

  // The runtime asks about the event first: work that is done (or failed)
  // does not suspend.
  bool await_ready() const noexcept { return false; }
  // Nothing of *this is touched once the wait is registered: the await
  // thread may resume the coroutine, and so end this object, at once.
  bool await_suspend(std::coroutine_handle<> h) {
    if (!e_)
      throw error("mstage: co_await on an event that was moved from");
    h_ = h;
    int waits = mstage_rt_event_notify(e_, &resume, this, &ticket_);
    if (waits < 0)
      throw error(mstage_rt_last_error());
    return waits == 0;
  }
  void await_resume() const {
    if (failed_)
      std::rethrow_exception(failed_);
  }

private:
  // On the await thread. An exception that leaves the resumed coroutine (a
  // coroutine type whose unhandled_exception() rethrows) ends the process.
  static void resume(void *self, const char *failure) noexcept {
    auto *a = static_cast<event_awaiter *>(self);
    a->ticket_ = 0;
    if (failure)
      a->failed_ = std::make_exception_ptr(error(failure));
    a->h_.resume();
  }

  mstage_event *e_;
  std::coroutine_handle<> h_;
  std::uint64_t ticket_ = 0;
  std::exception_ptr failed_;
};

// co_await on a kernel_future is its get(): once only, and it throws the
// launch's or the kernel's failure.
class future_awaiter {
public:
  explicit future_awaiter(kernel_future &f) : f_(f) {
    if (!f_.valid())
      throw error("mstage: co_await on a kernel_future that is not valid(): "
                  "it was awaited or get() already, or moved from");
    if (f_.done_ && !f_.failed_)
      on_.emplace(f_.done_->get());
  }
  bool await_ready() const noexcept { return !on_; } // the launch failed
  bool await_suspend(std::coroutine_handle<> h) {
    try {
      return on_->await_suspend(h);
    } catch (...) { // a fault found at once: nothing was registered
      consume();
      throw;
    }
  }
  void await_resume() {
    std::exception_ptr failed = f_.failed_;
    if (!failed && on_) {
      try {
        on_->await_resume();
      } catch (...) {
        failed = std::current_exception();
      }
    }
    consume();
    if (failed)
      std::rethrow_exception(failed);
  }

private:
  // As get() does, also when it throws.
  void consume() {
    f_.done_.reset();
    f_.failed_ = nullptr;
    f_.valid_ = false;
  }

  kernel_future &f_;
  std::optional<event_awaiter> on_;
};

} // namespace detail

// co_await e: until the work before the event's record is done; throws
// mstage::error if a kernel there failed. An event may be awaited any
// number of times, by any number of coroutines.
inline detail::event_awaiter operator co_await(const event &e) {
  return detail::event_awaiter(e.get());
}

// co_await f, or co_await async(launch::kernel, k, args...): until the
// kernel has finished; then f is no longer valid().
inline detail::future_awaiter operator co_await(kernel_future &f) {
  return detail::future_awaiter(f);
}
inline detail::future_awaiter operator co_await(kernel_future &&f) {
  return detail::future_awaiter(f);
}

} // namespace mstage

#endif
