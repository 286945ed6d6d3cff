// shared_memory<T>: a typed view of the launch's dynamic shared memory.
#ifndef MSTAGE_SHARED_MEMORY_HPP
#define MSTAGE_SHARED_MEMORY_HPP

#include "mstage/builtins.h"

#include <cstddef>

namespace mstage {

// Every shared_memory object of a launch starts at the same address, so two
// of them alias, as in PACXX. Size the region with kernel()'s shared_bytes.
template <class T> class shared_memory {
  static_assert(
      alignof(T) <= 16,
      "shared_memory<T>: T must not need more than 16-byte alignment");

public:
  using value_type = T;

  shared_memory() : ptr_(static_cast<T *>(__mstage_shared_base())) {}

  T &operator[](std::size_t i) const { return ptr_[i]; }
  T *data() const { return ptr_; }

private:
  T *ptr_;
};

} // namespace mstage

#endif
