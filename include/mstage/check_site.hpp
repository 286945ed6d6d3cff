// Where an operation comes from, for MSTAGE_CHECK=streams's reports.
#ifndef MSTAGE_CHECK_SITE_HPP
#define MSTAGE_CHECK_SITE_HPP

#include "mstage/abi.h"
#include "mstage/bounds_check.hpp"

#include <cstddef>

namespace mstage::detail {

// A call's file and line: as a defaulted last parameter, the caller's
// (std::source_location's job, which C++17 lacks).
struct call_site {
  const char *file;
  unsigned line;
  static constexpr call_site here(const char *file = __builtin_FILE(),
                                  unsigned line = __builtin_LINE()) {
    return {file, line};
  }
};

// Whether MSTAGE_CHECK=streams is on: a load and a predictable branch when
// it is off.
inline bool streams_checked() {
  int on = __atomic_load_n(&mstage_rt_streams_checked, __ATOMIC_RELAXED);
  return __builtin_expect(on != 0, 0) &&
         (on > 0 || mstage_rt_check_streams() != 0);
}

// The check of a host access, out of line. It saves every register itself
// (preserve_all), so that a checked host loop over the elements keeps its
// values in registers across the call it does not make.
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(preserve_all)
#define MSTAGE_DETAIL_SAVES_ALL __attribute__((preserve_all))
#endif
#endif
#ifndef MSTAGE_DETAIL_SAVES_ALL
#define MSTAGE_DETAIL_SAVES_ALL
#endif
[[gnu::noinline, gnu::cold]] MSTAGE_DETAIL_SAVES_ALL inline void
checked_host_use(const void *p, std::size_t bytes, bool written,
                 call_site where, const char *what) {
  if (streams_checked())
    mstage_rt_check_host_use(p, bytes, written ? 1 : 0, where.file, where.line,
                             what);
}

// The host's read or write of the bytes at p, from where, checked against
// the streams' uses (managed and pinned memory): data() and begin(), once
// for every element.
inline void check_host_use(const void *p, std::size_t bytes, bool written,
                           call_site where, const char *what) {
  if (__builtin_expect(
          __atomic_load_n(&mstage_rt_streams_checked, __ATOMIC_RELAXED) != 0,
          0))
    checked_host_use(p, bytes, written, where, what);
}

// operator[]'s index. With the checks on (MSTAGE_BOUNDS_CHECK, as for the
// views' bounds), each element access is checked too, and the index carries
// its caller's file:line: operator[] can take no defaulted parameter, and a
// converting constructor's defaulted arguments are the caller's. With them
// off it is a plain index and an access is a load: a flag test in the loop
// would keep the compiler from vectorizing a host loop over the elements.
#if MSTAGE_BOUNDS_CHECK
struct host_index {
  std::size_t index;
  call_site where;
  host_index(std::size_t index, call_site where = call_site::here())
      : index(index), where(where) {}
};
inline void check_host_element(const void *p, std::size_t bytes, bool written,
                               const host_index &i, const char *what) {
  check_host_use(p, bytes, written, i.where, what);
}
inline std::size_t host_index_value(const host_index &i) { return i.index; }
#else
using host_index = std::size_t;
inline void check_host_element(const void *, std::size_t, bool, host_index,
                               const char *) {}
inline std::size_t host_index_value(host_index i) { return i; }
#endif

// Names the operations of its scope by the user's call: the outermost
// call of the API names them (upload() calling upload() stays the user's).
class check_site {
public:
  check_site(call_site where, const char *what, const void *kernel = nullptr) {
    if (streams_checked())
      set_ = mstage_rt_check_site(where.file, where.line, what, kernel) != 0;
  }
  ~check_site() {
    if (set_)
      mstage_rt_check_site_end();
  }
  check_site(const check_site &) = delete;
  check_site &operator=(const check_site &) = delete;

private:
  bool set_ = false;
};

} // namespace mstage::detail

#endif
