// mstage::error: what the runtime reports, thrown in the caller's code.
#ifndef MSTAGE_ERROR_HPP
#define MSTAGE_ERROR_HPP

#include "mstage/abi.h"

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>

namespace mstage {

class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {
// Turns a failed runtime call into an exception carrying its message.
inline void check(int status) {
  if (status != 0)
    throw error(mstage_rt_last_error());
}

// The bytes of n elements of Size bytes each, for what (a container's
// name); throws when they do not fit in size_t, as for a negative count
// converted to size_t.
inline std::size_t checked_bytes(std::size_t n, std::size_t size,
                                 const char *what) {
  if (size != 0 && n > std::numeric_limits<std::size_t>::max() / size)
    throw error(std::string("mstage: ") + what + " of " + std::to_string(n) +
                " elements of " + std::to_string(size) +
                " bytes: the size in bytes does not fit in size_t (a "
                "negative count converted to size_t?)");
  return n * size;
}
} // namespace detail
} // namespace mstage

#endif
