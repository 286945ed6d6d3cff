// Streams and events: the order in which launches and copies run.
#ifndef MSTAGE_STREAM_HPP
#define MSTAGE_STREAM_HPP

#include "mstage/abi.h"
#include "mstage/error.hpp"

#include <cstdint>
#include <utility>

// cuda.h's handle types, so that native handles need no CUDA header here.
struct CUstream_st;
struct CUevent_st;

namespace mstage {

class device;

// A recorded point in a stream's work. Made by stream::record(), with
// timing; elapsed_ms() measures between two.
class event {
public:
  event() { detail::check(mstage_rt_event_create(&e_)); }
  event(event &&other) noexcept : e_(std::exchange(other.e_, nullptr)) {}
  event &operator=(event &&other) noexcept {
    std::swap(e_, other.e_);
    return *this;
  }
  event(const event &) = delete;
  event &operator=(const event &) = delete;
  ~event() { mstage_rt_event_destroy(e_); }

  // Waits until the work before the event is done; throws mstage::error if
  // a kernel there failed.
  void synchronize() const { detail::check(mstage_rt_event_synchronize(e_)); }
  // Whether that work is done; throws if it failed.
  bool query() const {
    int done = mstage_rt_event_query(e_);
    if (done < 0)
      throw error(mstage_rt_last_error());
    return done == 1;
  }
  CUevent_st *native_handle() const {
    return static_cast<CUevent_st *>(mstage_rt_event_native(e_));
  }
  mstage_event *get() const { return e_; }

private:
  mstage_event *e_ = nullptr;
};

// Milliseconds between two completed events.
inline float elapsed_ms(const event &start, const event &end) {
  float ms = 0;
  detail::check(mstage_rt_event_elapsed(&ms, start.get(), end.get()));
  return ms;
}

// A stream that someone else owns: the current one, or an mstage::stream.
// Every stream belongs to one device: what is enqueued on it runs there.
class stream_ref {
public:
  explicit stream_ref(mstage_stream *s) : s_(s) {}

  // Waits for the stream's work; throws mstage::error naming the kernels in
  // flight if one failed.
  void synchronize() const {
    detail::check(mstage_rt_stream_synchronize(s_));
  }
  // An event recorded now on this stream.
  event record() const {
    event e;
    detail::check(mstage_rt_event_record(e.get(), s_));
    return e;
  }
  // Work enqueued on this stream from now on waits for e.
  void wait(const event &e) const {
    detail::check(mstage_rt_stream_wait_event(s_, e.get()));
  }
  CUstream_st *native_handle() const {
    return static_cast<CUstream_st *>(mstage_rt_stream_native(s_));
  }
  mstage_stream *get() const { return s_; }
  std::uint64_t id() const { return mstage_rt_stream_id(s_); }
  // The device the stream's work runs on (mstage/device.hpp).
  mstage::device device() const;
  bool operator==(const stream_ref &o) const { return s_ == o.s_; }
  bool operator!=(const stream_ref &o) const { return s_ != o.s_; }

private:
  mstage_stream *s_;
};

// The calling thread's current stream: its default stream on its current
// device, which does not wait for mstage::stream objects, nor they for it.
inline stream_ref current_stream() {
  return stream_ref(mstage_rt_stream_current());
}

// A stream of its own: work on it runs in order, and concurrently with other
// streams. It belongs to the calling thread's current device, or to the
// device it is given. The destructor waits for its work; a failure found
// then is reported on stderr, since a destructor cannot throw.
class stream {
public:
  stream() { detail::check(mstage_rt_stream_create(&s_)); }
  explicit stream(const mstage::device &d); // mstage/device.hpp
  stream(stream &&other) noexcept : s_(std::exchange(other.s_, nullptr)) {}
  stream &operator=(stream &&other) noexcept {
    std::swap(s_, other.s_);
    return *this;
  }
  stream(const stream &) = delete;
  stream &operator=(const stream &) = delete;
  ~stream() {
    if (s_)
      mstage_rt_stream_destroy(s_);
  }

  operator stream_ref() const { return stream_ref(s_); }
  void synchronize() const { stream_ref(s_).synchronize(); }
  event record() const { return stream_ref(s_).record(); }
  void wait(const event &e) const { stream_ref(s_).wait(e); }
  CUstream_st *native_handle() const { return stream_ref(s_).native_handle(); }
  mstage_stream *get() const { return s_; }
  std::uint64_t id() const { return mstage_rt_stream_id(s_); }
  mstage::device device() const;

private:
  mstage_stream *s_ = nullptr;
};

// Waits for all work of the process, on every stream of every device.
inline void synchronize() { detail::check(mstage_rt_synchronize()); }

} // namespace mstage

#endif
