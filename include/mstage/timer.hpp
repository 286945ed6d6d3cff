//===- timer.hpp - YAKL's timer_start and timer_stop ----------------------===//
//
//   mstage::timer_start("main loop");
//   ... launches ...
//   mstage::timer_stop("main loop");
//
// With MSTAGE_TIMERS=on (or kernels, which also times every parallel_for
// under its label) each start and stop waits for all the device work, and
// at exit a table on stderr gives each label's count, total, mean, minimum
// and maximum seconds. Off (the default) they do nothing and wait for
// nothing. Spans nest; a label may run on several threads at once. A stop
// without its start, a second start of a running label on one thread, or
// a bad MSTAGE_TIMERS throws mstage::error.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_TIMER_HPP
#define MSTAGE_TIMER_HPP

#include "mstage/abi.h"
#include "mstage/error.hpp"

namespace mstage {

inline void timer_start(const char *label) {
  detail::check(mstage_rt_timer_start(label));
}
inline void timer_stop(const char *label) {
  detail::check(mstage_rt_timer_stop(label));
}

// Times one launch under its label when MSTAGE_TIMERS=kernels: started by
// the constructor, stopped by stop() (or, after an exception, by the
// destructor, which cannot report a failure).
class kernel_timer {
public:
  explicit kernel_timer(const char *label)
      : label_(mstage_rt_timers_mode() != 0 && mstage_rt_timers_mode() != 1
                   ? label
                   : nullptr) {
    if (label_)
      timer_start(label_);
  }
  kernel_timer(const kernel_timer &) = delete;
  kernel_timer &operator=(const kernel_timer &) = delete;
  void stop() {
    if (const char *l = label_) {
      label_ = nullptr;
      timer_stop(l);
    }
  }
  ~kernel_timer() {
    if (label_)
      (void)mstage_rt_timer_stop(label_);
  }

private:
  const char *label_;
};

} // namespace mstage

#endif
