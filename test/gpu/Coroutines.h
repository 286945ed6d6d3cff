// Coroutine types of the kind users bring (mstage::task is lazy and owned),
// for the checks of co_await (test/gpu/coawait.cpp, test/async/coawait-*):
//  - detached starts at once and frees itself at its end: many concurrent
//    waits, fire and forget;
//  - kept starts at once and is destroyed by its owner (h.destroy()), also
//    while it waits.
#ifndef MSTAGE_TEST_GPU_COROUTINES_H
#define MSTAGE_TEST_GPU_COROUTINES_H

#include <coroutine>
#include <exception>

struct detached {
  struct promise_type {
    detached get_return_object() {
      return {std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct kept {
  struct promise_type {
    kept get_return_object() {
      return {std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

#endif
