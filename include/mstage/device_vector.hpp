// device_vector<T>: an array that stays in device memory across launches.
#ifndef MSTAGE_DEVICE_VECTOR_HPP
#define MSTAGE_DEVICE_VECTOR_HPP

#include "mstage/abi.h"
#include "mstage/check_site.hpp"
#include "mstage/error.hpp"
#include "mstage/pinned.hpp"
#include "mstage/stream.hpp"
#include "mstage/vector_view.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mstage {

class device;

namespace detail {

// The streams a device allocation has been used on, so that it can be used
// on any stream and freed on any without the user ordering them: the first
// use on another stream than the one it was allocated on waits for the
// allocation, and the free waits for every stream that used it.
class stream_uses {
public:
  void reset(stream_ref home) {
    home_ = home.id();
    n_ = 0;
    overflow_ = false;
  }
  void use_on(stream_ref s) {
    std::uint64_t id = s.id();
    if (id == home_)
      return;
    for (unsigned i = 0; i < n_; ++i)
      if (others_[i] == id)
        return;
    check(mstage_rt_stream_order_after(s.get(), home_));
    if (n_ < capacity)
      others_[n_++] = id;
    else
      overflow_ = true;
  }
  // Makes s wait for the work of every stream that used the allocation.
  void order_before_free(stream_ref s) const {
    if (overflow_) {
      check(mstage_rt_synchronize());
      return;
    }
    check(mstage_rt_stream_order_after(s.get(), home_));
    for (unsigned i = 0; i < n_; ++i)
      check(mstage_rt_stream_order_after(s.get(), others_[i]));
  }

private:
  static constexpr unsigned capacity = 4;
  std::uint64_t home_ = 0;
  std::uint64_t others_[capacity] = {};
  unsigned n_ = 0;
  bool overflow_ = false;
};

} // namespace detail

// Owns n elements of device memory, from a stream-ordered pool. Passed to a
// kernel it arrives as a vector_view<T> (vector_view<const T> when passed as
// const), with nothing copied.
//
// It belongs to one device: the calling thread's current one when made, or
// the device of the stream (or mstage::device) it is made with. Operations
// without a stream argument are enqueued on the thread's current stream of
// that device, in order with launches there; get() and the download()s
// without a stream wait for that stream's earlier work. copy_from between
// two devices' vectors is a peer copy (staged through the host without peer
// access). data() is the device address, for NCCL and CUDA-aware MPI. The
// overloads that take a stream enqueue there and do not wait: their host memory
// must stay as it is until the stream reaches them (pinned host memory makes
// them overlap).
//
// Made while the calling thread captures a stream of its device
// (mstage::capture), it belongs to the graph: it is allocated in the
// capture, its operations without a stream go to the captured stream, and
// it must be destroyed before the capture ends (capture() throws otherwise);
// each replay on a GPU then allocates and frees it. Memory made before a
// capture that the captured work uses, or that is freed inside it, is freed
// only once the graphs that use it are destroyed (docs/async.md, Graphs).
template <class _Tp> class device_vector {
  static_assert(std::is_trivially_copyable_v<_Tp>,
                "mstage: device_vector elements must be trivially copyable");

public:
  using value_type = _Tp;

  device_vector() = default;
  // n elements, not initialized.
  explicit device_vector(std::size_t n,
                         detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "device_vector");
    allocate(n, current_stream());
  }
  // n elements on s's device (a device converts to its current stream),
  // allocated in s's order.
  device_vector(std::size_t n, stream_ref s,
                detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "device_vector");
    allocate(n, s);
  }
  device_vector(std::size_t n, const _Tp &value,
                detail::call_site where = detail::call_site::here())
      : device_vector(n, where) {
    fill(value, where);
  }
  template <class _Ap>
  explicit device_vector(const std::vector<_Tp, _Ap> &host,
                         detail::call_site where = detail::call_site::here())
      : device_vector(host.size(), where) {
    upload(host, where);
  }
  device_vector(device_vector &&other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)), device_(other.device_),
        in_capture_(other.in_capture_), uses_(other.uses_) {}
  device_vector &operator=(device_vector &&other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(device_, other.device_);
    std::swap(in_capture_, other.in_capture_);
    std::swap(uses_, other.uses_);
    return *this;
  }
  device_vector(const device_vector &) = delete;
  device_vector &operator=(const device_vector &) = delete;
  ~device_vector() { release(); }

  std::size_t size() const { return size_; }
  // The device whose memory it is, and its number.
  mstage::device device() const; // mstage/device.hpp
  unsigned device_index() const { return device_; }
  // The calling thread's current stream of that device, where operations
  // without a stream go (the captured stream, for one made in a capture).
  stream_ref home_stream() const {
    if (in_capture_)
      if (mstage_stream *c = mstage_rt_capture_stream_on(device_))
        return stream_ref(c);
    return stream_ref(mstage_rt_stream_current_on(device_));
  }
  bool empty() const { return size_ == 0; }
  _Tp *data() const { return static_cast<_Tp *>(data_); }
  vector_view<_Tp> view() { return {data(), size_}; }
  vector_view<const _Tp> view() const { return {data(), size_}; }

  // Copies host into the device array; the sizes must match. From pinned
  // memory, waits for the copy, so that host may change after it returns.
  template <class _Ap>
  void upload(const std::vector<_Tp, _Ap> &host,
              detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "upload");
    upload(host, home_stream());
    if constexpr (std::is_same_v<_Ap, pinned_allocator<_Tp>>)
      home_stream().synchronize();
  }
  template <class _Ap>
  void upload(const std::vector<_Tp, _Ap> &host, stream_ref s,
              detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "upload");
    check_size(host.size(), "upload");
    use_on(s);
    detail::check(mstage_rt_copy_to_device_async(data_, host.data(),
                                                 bytes(size_), s.get()));
  }

  // Copies count elements from src (any host memory) into the device array
  // from element offset on. Waits for the copy, so that src may change
  // after it returns; the stream overload enqueues it on s and does not wait.
  void upload(const _Tp *src, std::size_t count, std::size_t offset = 0,
              detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "upload");
    upload_range(src, count, offset, home_stream());
    home_stream().synchronize();
  }
  void upload(const _Tp *src, std::size_t count, std::size_t offset,
              stream_ref s,
              detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "upload");
    upload_range(src, count, offset, s);
  }
  // Copies in.size() elements of in (anything with data() and size(), such
  // as std::span<const T>) from offset on, as above.
  template <class Range, class = decltype(std::declval<const Range &>().data() +
                                          std::declval<const Range &>().size())>
  void upload(const Range &in, std::size_t offset,
              detail::call_site where = detail::call_site::here()) {
    upload(range_data(in), in.size(), offset, where);
  }
  template <class Range, class = decltype(std::declval<const Range &>().data() +
                                          std::declval<const Range &>().size())>
  void upload(const Range &in, std::size_t offset, stream_ref s,
              detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "upload");
    upload_range(range_data(in), in.size(), offset, s);
  }

  // Copies the device array into host, resized to fit.
  template <class _Ap>
  void download(std::vector<_Tp, _Ap> &host,
                detail::call_site where = detail::call_site::here()) const {
    detail::check_site site(where, "download");
    if constexpr (std::is_same_v<_Ap, std::allocator<_Tp>>)
      if (host.capacity() < size_) {
        // All of it is overwritten: a new buffer, its pages made at once,
        // filled from the runtime's page-locked chunks without being zeroed
        // first where they serve.
        std::vector<_Tp, _Ap>().swap(host);
        host.reserve(size_);
        mstage_rt_prepare_host_buffer(host.data(), bytes(size_));
        if (download_staged(host))
          return;
      }
    host.resize(size_);
    try {
      download_range(host.data(), size_, 0, home_stream());
      home_stream().synchronize();
    } catch (...) {
      host.clear(); // no values that were never downloaded
      throw;
    }
  }
  std::vector<_Tp>
  download(detail::call_site where = detail::call_site::here()) const {
    std::vector<_Tp> host;
    download(host, where);
    return host;
  }
  template <class _Ap>
  void download(std::vector<_Tp, _Ap> &host, stream_ref s,
                detail::call_site where = detail::call_site::here()) const {
    detail::check_site site(where, "download");
    host.resize(size_);
    download_range(host.data(), size_, 0, s);
  }
  // Copies out.size() elements from offset on into out (anything with
  // data() and size(), such as std::span<T>).
  template <class Range, class = decltype(std::declval<Range &>().data() +
                                          std::declval<Range &>().size())>
  void download(Range &&out, std::size_t offset,
                detail::call_site where = detail::call_site::here()) const {
    detail::check_site site(where, "download");
    download_range(out.data(), out.size(), offset, home_stream());
    home_stream().synchronize();
  }
  template <class Range, class = decltype(std::declval<Range &>().data() +
                                          std::declval<Range &>().size())>
  void download(Range &&out, std::size_t offset, stream_ref s,
                detail::call_site where = detail::call_site::here()) const {
    detail::check_site site(where, "download");
    download_range(out.data(), out.size(), offset, s);
  }
  // Copies count elements from offset on into dst (any host memory); the
  // overload without a stream waits for the copy.
  void download(_Tp *dst, std::size_t count, std::size_t offset,
                detail::call_site where = detail::call_site::here()) const {
    detail::check_site site(where, "download");
    download_range(dst, count, offset, home_stream());
    home_stream().synchronize();
  }
  void download(_Tp *dst, std::size_t count, std::size_t offset, stream_ref s,
                detail::call_site where = detail::call_site::here()) const {
    detail::check_site site(where, "download");
    download_range(dst, count, offset, s);
  }
  // Element i.
  _Tp get(std::size_t i,
          detail::call_site where = detail::call_site::here()) const {
    detail::check_site site(where, "get");
    if (i >= size_)
      throw error("mstage: device_vector::get(" + std::to_string(i) +
                  ") of a device_vector of " + std::to_string(size_) +
                  " elements");
    _Tp value;
    download_range(&value, 1, i, home_stream());
    home_stream().synchronize();
    return value;
  }

  // Sets every element to value.
  void fill(const _Tp &value,
            detail::call_site where = detail::call_site::here()) {
    fill(value, home_stream(), where);
  }
  void fill(const _Tp &value, stream_ref s,
            detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "fill");
    use_on(s);
    detail::check(
        mstage_rt_fill_async(data_, &value, sizeof(_Tp), size_, s.get()));
  }

  // Copies other's elements into this one, on the device; sizes must match.
  // other may be another device's: the copy is then a peer copy, enqueued
  // on this vector's stream after other's earlier work.
  void copy_from(const device_vector &other,
                 detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "copy_from");
    check_size(other.size_, "copy_from");
    copy_from(other, 0, size_, 0);
  }
  void copy_from(const device_vector &other, stream_ref s,
                 detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "copy_from");
    check_size(other.size_, "copy_from");
    copy_range(other, 0, size_, 0, s);
  }
  // Copies count elements of other, from element from on, into this one
  // from element to on; other may be another device's, as above.
  void copy_from(const device_vector &other, std::size_t from,
                 std::size_t count, std::size_t to,
                 detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "copy_from");
    stream_ref s = home_stream();
    // Every copy, not only the first on s: other's home stream may have
    // written it since.
    if (other.device_ != device_)
      detail::check(
          mstage_rt_stream_order_after(s.get(), other.home_stream().id()));
    copy_range(other, from, count, to, s);
  }
  void copy_from(const device_vector &other, std::size_t from,
                 std::size_t count, std::size_t to, stream_ref s,
                 detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "copy_from");
    copy_range(other, from, count, to, s);
  }

  // n elements: the first min(n, size()) keep their values, the others are
  // not initialized.
  void resize(std::size_t n,
              detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "resize");
    if (n == size_)
      return;
    device_vector next(n, home_stream());
    // Where next was allocated: in a capture, the captured stream.
    stream_ref to = next.home_stream();
    std::size_t keep = n < size_ ? n : size_;
    if (keep != 0) {
      use_on(to);
      detail::check(mstage_rt_copy_device_async(next.data_, data_, bytes(keep),
                                                to.get()));
    }
    *this = std::move(next);
  }

  // The stream s uses this array from now on (launches call it): its first
  // use there waits for the allocation.
  void use_on(stream_ref s) const {
    uses_.use_on(s);
    // A graph that uses it keeps it (docs/async.md, Graphs).
    if (data_)
      detail::check(mstage_rt_capture_uses(s.get(), data_));
  }

private:
  static std::size_t bytes(std::size_t n) { return n * sizeof(_Tp); }

  void allocate(std::size_t n, stream_ref s) {
    std::size_t b = detail::checked_bytes(n, sizeof(_Tp), "device_vector");
    device_ = mstage_rt_stream_device(s.get());
    // The graph's, allocated in its capture.
    if (mstage_stream *c = mstage_rt_capture_stream_on(device_)) {
      in_capture_ = true;
      if (!mstage_rt_stream_capturing(s.get()))
        s = stream_ref(c);
    }
    detail::check(mstage_rt_alloc_async(&data_, b, s.get()));
    size_ = n;
    uses_.reset(s);
  }
  void release() {
    if (!data_)
      return;
    // Inside a capture the graph decides: memory it made is freed in it,
    // other memory once the graphs that use it are gone.
    if (mstage_stream *c = mstage_rt_capture_stream_on(device_)) {
      mstage_rt_free_async(data_, c);
      data_ = nullptr;
      return;
    }
    stream_ref s = home_stream(); // its device's pool takes it back
    // A destructor cannot throw: a failure here is the stream's, and shows
    // at its next synchronization.
    try {
      uses_.order_before_free(s);
    } catch (const error &) {
    }
    mstage_rt_free_async(data_, s.get());
    data_ = nullptr;
  }
  void check_size(std::size_t n, const char *what) const {
    if (n != size_)
      throw error(std::string("mstage: device_vector::") + what + " of " +
                  std::to_string(n) + " elements into " +
                  std::to_string(size_));
  }
  void copy_range(const device_vector &other, std::size_t from,
                  std::size_t count, std::size_t to, stream_ref s) {
    if (from > other.size_ || count > other.size_ - from || to > size_ ||
        count > size_ - to)
      throw error("mstage: device_vector::copy_from of " +
                  std::to_string(count) + " elements from offset " +
                  std::to_string(from) + " of a device_vector of " +
                  std::to_string(other.size_) + " to offset " +
                  std::to_string(to) + " of one of " + std::to_string(size_));
    if (count == 0)
      return;
    use_on(s);
    other.use_on(s);
    detail::check(mstage_rt_copy_device_async(data() + to, other.data() + from,
                                              bytes(count), s.get()));
  }
  template <class Range> static const _Tp *range_data(const Range &in) {
    static_assert(
        std::is_same_v<
            std::remove_cv_t<std::remove_pointer_t<decltype(in.data())>>, _Tp>,
        "mstage: device_vector<T>::upload takes a range of T");
    return in.data();
  }
  // The place of count elements at offset, for the error of call what.
  void check_range(const void *host, std::size_t count, std::size_t offset,
                   const char *what, const char *dir) const {
    if (offset > size_ || count > size_ - offset)
      throw error(std::string("mstage: device_vector::") + what + " of " +
                  std::to_string(count) + " elements " + dir + " offset " +
                  std::to_string(offset) + " of a device_vector of " +
                  std::to_string(size_));
    if (!host && count != 0)
      throw error(std::string("mstage: device_vector::") + what + " of " +
                  std::to_string(count) + " elements with a null pointer");
  }
  void upload_range(const _Tp *in, std::size_t n, std::size_t offset,
                    stream_ref s) {
    check_range(in, n, offset, "upload", "to");
    if (n == 0)
      return;
    use_on(s);
    detail::check(
        mstage_rt_copy_to_device_async(data() + offset, in, bytes(n), s.get()));
  }
  // Appends the whole array to host (empty, its capacity reserved) through
  // the runtime's staging; false, with nothing done, where it does not serve.
  bool download_staged(std::vector<_Tp> &host) const {
    stream_ref s = home_stream();
    use_on(s);
    int staged = 0;
    int status = mstage_rt_download_staged(
        data(), bytes(size_), sizeof(_Tp), s.get(),
        [](void *context, const void *chunk, std::size_t n) {
          auto &out = *static_cast<std::vector<_Tp> *>(context);
          const _Tp *first = static_cast<const _Tp *>(chunk);
          // Within the reserved capacity: no allocation, nothing thrown.
          out.insert(out.end(), first, first + n / sizeof(_Tp));
        },
        &host, &staged);
    if (status != 0) {
      host.clear(); // no part of a download that failed
      detail::check(status);
    }
    return staged != 0; // the stream synchronized, as a plain download ends
  }

  void download_range(_Tp *out, std::size_t n, std::size_t offset,
                      stream_ref s) const {
    check_range(out, n, offset, "download", "from");
    if (n == 0)
      return;
    use_on(s);
    detail::check(mstage_rt_copy_to_host_async(out, data() + offset, bytes(n),
                                               s.get()));
  }

  void *data_ = nullptr;
  std::size_t size_ = 0;
  unsigned device_ = 0;
  bool in_capture_ = false; // made while its device was captured
  mutable detail::stream_uses uses_;
};

} // namespace mstage

#endif
