// Typed views of the launch's dynamic shared memory, sized by the launch's
// shared_bytes (kernel(f, grid, block, shared_bytes)); for arrays whose size
// is a constant, shared_array (shared_array.hpp) needs no shared_bytes:
//
//   shared_memory<T> sm;            // all of it as T, as in PACXX
//   auto s = dynamic_shared<T>();   // the same, as a shared_span<T>
//   shared_arena arena;             // several arrays, each aligned for its T
//   auto a = arena.take<float>(n);
//   auto b = arena.take<double>(m);
//
// The size comes from the launch: the %dynamic_smem_size register, or a
// constant once the JIT folds the launch configuration. Indexing is
// bounds-checked like vector_view's (see bounds_check.hpp), and an arena that
// takes more than the launch gave reports it.
#ifndef MSTAGE_SHARED_MEMORY_HPP
#define MSTAGE_SHARED_MEMORY_HPP

#include "mstage/bounds_check.hpp"
#include "mstage/builtins.h"
#include "mstage/checked_span.hpp"
#include "mstage/error.hpp"

#include <cstddef>
#include <cstdint>

namespace mstage {

// The dynamic shared region starts 16-byte aligned (the alignment the device
// module declares for it).
inline constexpr std::size_t shared_alignment = 16;

// Bytes of dynamic shared memory this launch has.
inline std::size_t dynamic_shared_size() {
  return __mstage_dynamic_shared_size();
}

// size() elements of T in shared memory; a view, copied freely.
template <class _Tp>
class shared_span : public detail::checked_span<_Tp, detail::shared_span_name> {
public:
  using detail::checked_span<_Tp, detail::shared_span_name>::checked_span;
};

// All of the launch's dynamic shared memory as T: shared_bytes / sizeof(T)
// elements.
template <class _Tp> shared_span<_Tp> dynamic_shared() {
  static_assert(alignof(_Tp) <= shared_alignment,
                "mstage::dynamic_shared<T>: T needs more than 16-byte "
                "alignment; take it from a shared_arena, which aligns it");
  return {static_cast<_Tp *>(__mstage_shared_base()),
          dynamic_shared_size() / sizeof(_Tp)};
}

// Every shared_memory object of a launch starts at the same address, so two
// of them alias, as in PACXX. Size the region with kernel()'s shared_bytes.
template <class _Tp> class shared_memory {
  static_assert(
      alignof(_Tp) <= shared_alignment,
      "shared_memory<T>: T must not need more than 16-byte alignment; "
      "take it from a shared_arena, which aligns it");

public:
  using value_type = _Tp;

  shared_memory() : ptr_(static_cast<_Tp *>(__mstage_shared_base())) {}

  _Tp &operator[](detail::index_arg i) const {
    return ptr_[detail::checked(i, size(), "shared_memory")];
  }
  _Tp *data() const { return ptr_; }
  // Elements of T that the launch's shared_bytes hold.
  std::size_t size() const { return dynamic_shared_size() / sizeof(_Tp); }

private:
  _Tp *ptr_;
};

// Hands out consecutive arrays of the dynamic region, each aligned for its
// element type (also beyond 16 bytes: the address itself is rounded up).
// Each thread builds its own arena; the same sequence of take() calls gives
// every thread of the block the same arrays.
class shared_arena {
public:
  shared_arena()
      : base_(static_cast<unsigned char *>(__mstage_shared_base())),
        size_(dynamic_shared_size()) {}

  // The next n elements of T. With bounds checks on, an arena that runs past
  // the launch's shared_bytes reports the bytes needed and given, with the
  // place of this call.
  template <class _Tp>
  shared_span<_Tp> take(std::size_t n,
                        detail::source_place place = detail::source_place()) {
    std::size_t offset = used_;
    if constexpr (alignof(_Tp) <= shared_alignment) {
      // The region is 16-byte aligned, so aligning the offset is enough,
      // and it stays a constant the optimizer can fold.
      offset = (offset + alignof(_Tp) - 1) & ~(alignof(_Tp) - 1);
    } else {
      std::uintptr_t at = reinterpret_cast<std::uintptr_t>(base_ + offset);
      offset += ((at + alignof(_Tp) - 1) & ~(alignof(_Tp) - 1)) - at;
    }
    // A count whose bytes overflow takes everything (the check reports it)
    // rather than wrapping around to a small size.
    used_ = n > (std::size_t(-1) - offset) / sizeof(_Tp)
                ? std::size_t(-1)
                : offset + n * sizeof(_Tp);
#if MSTAGE_BOUNDS_CHECK
    __mstage_check_shared(used_, size_, place.file, place.line, place.function);
#else
    (void)place;
#endif
    return {reinterpret_cast<_Tp *>(base_ + offset), n};
  }

  // Bytes handed out so far, alignment padding included.
  std::size_t used() const { return used_; }
  // Bytes the launch gave.
  std::size_t capacity() const { return size_; }

private:
  unsigned char *base_;
  std::size_t size_;
  std::size_t used_ = 0;
};

// Bytes a kernel needs for arrays of the given element types and counts, laid
// out as shared_arena lays them out from a 16-byte aligned start, to size the
// launch: shared_bytes_for<float, double>(n, m). Over-aligned types count
// their worst-case padding.
template <class... _Tp, class... _Np>
constexpr std::size_t shared_bytes_for(_Np... n) {
  static_assert(sizeof...(_Tp) == sizeof...(_Np),
                "mstage::shared_bytes_for<T...>(n...): one count per type");
  std::size_t used = 0;
  auto add = [&](std::size_t align, std::size_t count, std::size_t size) {
    // Beyond 16 bytes the padding depends on the address; count the most.
    std::size_t rest = used % shared_alignment;
    std::size_t pad = align <= shared_alignment
                          ? (align - used % align) % align
                          : align - (rest ? rest : shared_alignment);
    if (pad > std::size_t(-1) - used ||
        count > (std::size_t(-1) - used - pad) / size)
      throw error("mstage: shared_bytes_for<T...>(n...): the counts' bytes "
                  "overflow std::size_t");
    used += pad + count * size;
  };
  if constexpr (sizeof...(_Tp) == sizeof...(_Np))
    (add(alignof(_Tp), std::size_t(n), sizeof(_Tp)), ...);
  return used;
}

} // namespace mstage

// The fixed-size arrays, which add to this dynamic region.
#include "mstage/shared_array.hpp"

#endif
