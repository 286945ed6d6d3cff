// mstage::error: what the runtime reports, thrown in the caller's code.
#ifndef MSTAGE_ERROR_HPP
#define MSTAGE_ERROR_HPP

#include "mstage/abi.h"

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
} // namespace detail
} // namespace mstage

#endif
