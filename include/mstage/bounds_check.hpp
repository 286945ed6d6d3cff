// Bounds checks for the element accesses of mstage's views.
//
// The macro MSTAGE_BOUNDS_CHECK, given when compiling, turns them on
// (-DMSTAGE_BOUNDS_CHECK=1) or off (=0); left undefined, they follow
// assert(): on unless NDEBUG is defined. It is not an environment variable:
// the runtime only says that one of that name changes nothing. A failed
// check reports the file and line of the access, the index and the size, and
// stops: on the device the launch fails with CUDA_ERROR_ASSERT, on the host
// the program aborts. Turned off, a check compiles to nothing.
#ifndef MSTAGE_BOUNDS_CHECK_HPP
#define MSTAGE_BOUNDS_CHECK_HPP

#include "mstage/builtins.h"

#include <cstddef>

#ifndef MSTAGE_BOUNDS_CHECK
#ifdef NDEBUG
#define MSTAGE_BOUNDS_CHECK 0
#else
#define MSTAGE_BOUNDS_CHECK 1
#endif
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

#endif
