// mstage::task<T>: a minimal coroutine type for host code that awaits GPU
// work (mstage/coroutine.hpp), and sync_wait() to run one from plain code.
// A task is lazy: it starts when it is awaited (co_await t, once) or given
// to sync_wait(), and resumes its awaiter when it ends. Code that needs
// more (tasks started eagerly, when_all, cancellation) brings its own
// coroutine type: the awaitables of mstage/coroutine.hpp work with any.
#ifndef MSTAGE_TASK_HPP
#define MSTAGE_TASK_HPP

#include "mstage/coroutine.hpp"
#include "mstage/error.hpp"

#include <condition_variable>
#include <coroutine>
#include <exception>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

namespace mstage {

template <class _Tp = void> class task;

namespace detail {

// At a task's end: resumes its awaiter (symmetric transfer: no stack grows).
struct resume_continuation {
  bool await_ready() noexcept { return false; }
  template <class _Pp>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<_Pp> h) noexcept {
    return h.promise().continuation_;
  }
  void await_resume() noexcept {}
};

class task_promise_base {
public:
  std::suspend_always initial_suspend() noexcept { return {}; }
  resume_continuation final_suspend() noexcept { return {}; }
  void unhandled_exception() noexcept { failed_ = std::current_exception(); }

  std::coroutine_handle<> continuation_;
  bool awaited_ = false;

protected:
  void rethrow_if_failed() const {
    if (failed_)
      std::rethrow_exception(failed_);
  }

private:
  std::exception_ptr failed_;
};

template <class _Tp> class task_promise : public task_promise_base {
public:
  task<_Tp> get_return_object() noexcept;
  template <class _Up> void return_value(_Up &&v) {
    value_.emplace(std::forward<_Up>(v));
  }
  _Tp result() {
    rethrow_if_failed();
    return std::move(*value_);
  }

private:
  std::optional<_Tp> value_;
};

template <> class task_promise<void> : public task_promise_base {
public:
  task<void> get_return_object() noexcept;
  void return_void() noexcept {}
  void result() { rethrow_if_failed(); }
};

} // namespace detail

template <class _Tp> class [[nodiscard]] task {
public:
  using promise_type = detail::task_promise<_Tp>;
  using handle = std::coroutine_handle<promise_type>;

  explicit task(handle h) noexcept : h_(h) {}
  task(task &&other) noexcept : h_(std::exchange(other.h_, {})) {}
  task &operator=(task &&other) noexcept {
    if (this != &other) {
      if (h_)
        h_.destroy();
      h_ = std::exchange(other.h_, {});
    }
    return *this;
  }
  task(const task &) = delete;
  task &operator=(const task &) = delete;
  // Destroying a task that is suspended (its GPU work not done) takes its
  // wait back: it is never resumed.
  ~task() {
    if (h_)
      h_.destroy();
  }

  // co_await t: runs t until it ends, then resumes the awaiter; gives t's
  // result or throws its exception. Once per task.
  auto operator co_await() {
    struct awaiter {
      handle h;
      bool await_ready() const {
        if (!h)
          throw error("mstage: co_await on a task that was moved from");
        if (h.promise().awaited_)
          throw error("mstage: a task is awaited once; this one was "
                      "awaited (or given to sync_wait()) already");
        return false;
      }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) {
        h.promise().awaited_ = true;
        h.promise().continuation_ = c;
        return h;
      }
      _Tp await_resume() { return h.promise().result(); }
    };
    return awaiter{h_};
  }

private:
  handle h_;
};

namespace detail {

template <class _Tp> task<_Tp> task_promise<_Tp>::get_return_object() noexcept {
  return task<_Tp>(
      std::coroutine_handle<task_promise<_Tp>>::from_promise(*this));
}
inline task<void> task_promise<void>::get_return_object() noexcept {
  return task<void>(
      std::coroutine_handle<task_promise<void>>::from_promise(*this));
}

// The coroutine of sync_wait(): awaits the task and, at its end, wakes the
// thread that waits.
struct sync_state {
  std::mutex lock;
  std::condition_variable ended;
  bool done = false;
  std::exception_ptr failed;
};

struct sync_runner {
  struct promise_type {
    sync_state *state = nullptr;
    sync_runner get_return_object() noexcept {
      return {std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    auto final_suspend() noexcept {
      struct signal {
        bool await_ready() noexcept { return false; }
        void await_suspend(std::coroutine_handle<promise_type> h) noexcept {
          sync_state &s = *h.promise().state;
          // Notified under the lock: the waiter destroys s after it sees done.
          std::lock_guard<std::mutex> g(s.lock);
          s.done = true;
          s.ended.notify_all();
        }
        void await_resume() noexcept {}
      };
      return signal{};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept {
      state->failed = std::current_exception();
    }
  };
  std::coroutine_handle<promise_type> h;
};

template <class _Tp>
sync_runner run_to_end(task<_Tp> &t, std::optional<_Tp> &out) {
  out.emplace(co_await t);
}
inline sync_runner run_to_end(task<void> &t, std::optional<bool> &out) {
  co_await t;
  out.emplace(true);
}

} // namespace detail

// Runs t on the calling thread until it awaits GPU work that is not done,
// then blocks until t has ended (resumed by the await thread); returns t's
// result or throws its exception. Not on the await thread itself (in a
// coroutine it resumed), which would wait for itself: co_await there.
template <class _Tp> _Tp sync_wait(task<_Tp> t) {
  if (mstage_rt_on_await_thread())
    throw error("mstage: sync_wait() in a coroutine that mstage's await "
                "thread resumed would wait for that thread itself; co_await "
                "the task instead");
  std::optional<std::conditional_t<std::is_void_v<_Tp>, bool, _Tp>> out;
  detail::sync_state s;
  detail::sync_runner r = detail::run_to_end(t, out);
  r.h.promise().state = &s;
  r.h.resume();
  {
    std::unique_lock<std::mutex> g(s.lock);
    s.ended.wait(g, [&] { return s.done; });
  }
  r.h.destroy();
  if (s.failed)
    std::rethrow_exception(s.failed);
  if constexpr (!std::is_void_v<_Tp>)
    return std::move(*out);
}

} // namespace mstage

#endif
