// Bounds checks for the element accesses of mstage's views, and barrier and
// shared-memory checks: "the checks".
//
// They are on in unoptimized builds and off in optimized ones, unless asked:
// the macro MSTAGE_BOUNDS_CHECK, given when compiling, turns them on
// (-DMSTAGE_BOUNDS_CHECK=1, or mstage++ -fmstage-checks) or off (=0, or
// -fno-mstage-checks). Left undefined, they are off with NDEBUG defined, off
// when optimizing (__OPTIMIZE__: -O1 and above, so that mstage++ -O2 is
// measured against nvcc -O3 without them) and on otherwise (-O0, clang's
// default). It is not an environment variable: the runtime only says that
// one of that name changes nothing. A failed check reports the file and line
// of the access, the index and the size, and stops: on the device the launch
// fails with CUDA_ERROR_ASSERT, on the host the program aborts. Turned off, a
// check compiles to nothing. Each translation unit tells the runtime what it
// chose and why, which MSTAGE_TRACE and MSTAGE_STATS say once per run.
#ifndef MSTAGE_BOUNDS_CHECK_HPP
#define MSTAGE_BOUNDS_CHECK_HPP

#include "mstage/abi.h"
#include "mstage/builtins.h"

#include <cstddef>

#if defined(MSTAGE_BOUNDS_CHECK)
#define MSTAGE_CHECKS_REASON_                                                  \
  "asked: -f[no-]mstage-checks or -DMSTAGE_BOUNDS_CHECK"
#elif defined(NDEBUG)
#define MSTAGE_BOUNDS_CHECK 0
#define MSTAGE_CHECKS_REASON_ "built with NDEBUG"
#elif defined(__OPTIMIZE__)
#define MSTAGE_BOUNDS_CHECK 0
#define MSTAGE_CHECKS_REASON_ "built at -O1 or above"
#else
#define MSTAGE_BOUNDS_CHECK 1
#define MSTAGE_CHECKS_REASON_ "built at -O0"
#endif

namespace mstage::detail {

// Where an access was written. As a defaulted parameter it records the
// caller's place: clang evaluates __builtin_FILE()/__builtin_LINE() default
// arguments at the outermost call, also through nested defaults.
struct source_place {
  source_place(const char *file = __builtin_FILE(),
               unsigned line = __builtin_LINE(),
               const char *function = __builtin_FUNCTION())
      : file(file), line(line), function(function) {}

  const char *file;
  unsigned line;
  const char *function;
};

#if MSTAGE_BOUNDS_CHECK
// An index that remembers where it was written. Operators cannot have default
// arguments, so operator[] takes this type, and the implicit conversion from
// the caller's integer records the caller's place.
struct index_arg {
  index_arg(std::size_t value, source_place place = source_place())
      : value(value), place(place) {}

  std::size_t value;
  source_place place;
};

// Reports index >= size for the view named by what ("vector_view", ...). The
// index goes out signed, so that an index computed as 0 - 1 reads as -1.
inline std::size_t checked(const index_arg &i, std::size_t size,
                           const char *what) {
  __mstage_check_bounds(static_cast<long long>(i.value), size, what,
                        i.place.file, i.place.line, i.place.function);
  return i.value;
}

inline index_arg make_index(std::size_t value, source_place place) {
  return index_arg(value, place);
}
#else
using index_arg = std::size_t;

inline std::size_t checked(std::size_t i, std::size_t, const char *) {
  return i;
}

inline std::size_t make_index(std::size_t value, source_place) { return value; }
#endif

// The block barrier; with checks on, one that reports a barrier that not
// every thread of the block reaches, with the caller's place (on the CPU
// back end, also threads that wait at barriers of different places).
inline void block_barrier([[maybe_unused]] source_place place) {
#if MSTAGE_BOUNDS_CHECK
  __mstage_check_barrier(place.file, place.line, place.function);
#else
  __mstage_barrier();
#endif
}

} // namespace mstage::detail

// Tells the runtime, once per translation unit, whether this unit's kernels
// check and why (internal linkage: one per unit, not merged across units).
namespace {
[[maybe_unused]] const int mstage_checks_noted_ = mstage_rt_note_checks(
    MSTAGE_BOUNDS_CHECK, MSTAGE_CHECKS_REASON_, __BASE_FILE__);
} // namespace

#endif
