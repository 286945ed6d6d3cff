// atomic_ref<T, Scope>: std::atomic_ref with a scope and C++26's
// fetch_min/fetch_max, for int, unsigned, long long, unsigned long long
// (and the other 4- and 8-byte integers), float and double, on global or
// shared memory; and CUDA-style free functions with relaxed order
// (atomic_add, atomic_sub, atomic_min, atomic_max, atomic_exch, atomic_cas,
// atomic_and/or/xor), which return the old value as atomicAdd & co. do.
//
//   mstage::atomic_ref<float>(sum[0]).fetch_add(x);                 // device
//   mstage::atomic_ref<int, mstage::scope::block>(hist[b]).fetch_add(1);
//
// Each operation is one clang __atomic builtin, so the host copy of a kernel
// uses real atomics and the device gets atomicrmw/cmpxchg: fetch_add of a
// float or double is atom.add.f32/f64, not a compare-and-swap loop.
//
// Scope. Every atomic operation in a kernel is device scope (PTX .gpu)
// unless its atomic_ref names scope::block (.cta): cheaper fences, for data
// that only the threads of one block share, such as shared memory. The
// x86-64 front end drops the scope of clang's __scoped_atomic builtins, so a
// block-scope operation marks its pointer with __builtin_annotation, which
// costs nothing on the host; passes/transforms/DeviceAtomics.cpp reads the mark
// and removes it.
#ifndef MSTAGE_ATOMIC_HPP
#define MSTAGE_ATOMIC_HPP

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

// P with the scope mark of S, which passes/transforms/DeviceAtomics.cpp looks
// for (the string is a contract with that pass); device scope needs none. A
// macro, not a function, so that even unoptimized IR has the mark right on the
// atomic's pointer operand, where the pass finds it before inlining.
#define MSTAGE_SCOPED_POINTER(_Sp, _Pp)                                        \
  ((_Sp) == ::mstage::scope::block                                             \
       ? reinterpret_cast<decltype(_Pp)>(                                      \
             __builtin_annotation(reinterpret_cast<std::uintptr_t>(_Pp),       \
                                  "mstage.atomic.scope.block"))                \
       : (_Pp))

namespace mstage {

// The threads an atomic operation synchronizes with.
enum class scope {
  block,  // the threads of the block (PTX .cta)
  device, // every thread of the launch (PTX .gpu); the default
};

namespace detail {

// std::memory_order's values are the __ATOMIC_* constants, so an order can be
// handed to the builtins as it is.
static_assert(int(std::memory_order_relaxed) == __ATOMIC_RELAXED &&
                  int(std::memory_order_acquire) == __ATOMIC_ACQUIRE &&
                  int(std::memory_order_release) == __ATOMIC_RELEASE &&
                  int(std::memory_order_acq_rel) == __ATOMIC_ACQ_REL &&
                  int(std::memory_order_seq_cst) == __ATOMIC_SEQ_CST,
              "std::memory_order does not match the __ATOMIC_* constants");

constexpr int order(std::memory_order _Ord) { return int(_Ord); }

// The failure order implied by a compare-exchange's single order.
constexpr std::memory_order failureOrder(std::memory_order _Ord) {
  return _Ord == std::memory_order_acq_rel   ? std::memory_order_acquire
         : _Ord == std::memory_order_release ? std::memory_order_relaxed
                                             : _Ord;
}

template <class _Tp>
inline constexpr bool isAtomicInteger =
    std::is_integral_v<_Tp> && !std::is_same_v<_Tp, bool> &&
    (sizeof(_Tp) == 4 || sizeof(_Tp) == 8);

template <class _Tp>
inline constexpr bool isAtomicFloat =
    std::is_same_v<_Tp, float> || std::is_same_v<_Tp, double>;

} // namespace detail

template <class _Tp, scope _Sp = scope::device> class atomic_ref {
public:
  using value_type = _Tp;
  static constexpr scope scope_value = _Sp;
  static constexpr std::size_t required_alignment = sizeof(_Tp);
  static constexpr bool is_always_lock_free = true;

  // The checks are here, not in the class, so that a bad T gives one error
  // rather than one for every use of the class.
  explicit atomic_ref(_Tp &Obj) : ptr_(&Obj) {
    static_assert(!std::is_const_v<_Tp> && !std::is_volatile_v<_Tp>,
                  "mstage::atomic_ref<T>: T must not be const or volatile");
    static_assert(detail::isAtomicInteger<_Tp> || detail::isAtomicFloat<_Tp>,
                  "mstage::atomic_ref<T>: T must be a 4- or 8-byte integer "
                  "(int, unsigned, long long, ...), float or double; the GPU "
                  "has no atomics for other types");
  }
  atomic_ref(const atomic_ref &) = default;
  atomic_ref &operator=(const atomic_ref &) = delete;

  _Tp *address() const { return ptr_; }

  _Tp load(std::memory_order _Ord = std::memory_order_seq_cst) const {
    _Tp _Rp;
    __atomic_load(MSTAGE_SCOPED_POINTER(_Sp, ptr_), &_Rp, detail::order(_Ord));
    return _Rp;
  }
  void store(_Tp _Vp,
             std::memory_order _Ord = std::memory_order_seq_cst) const {
    __atomic_store(MSTAGE_SCOPED_POINTER(_Sp, ptr_), &_Vp, detail::order(_Ord));
  }
  _Tp exchange(_Tp _Vp,
               std::memory_order _Ord = std::memory_order_seq_cst) const {
    _Tp _Rp;
    __atomic_exchange(MSTAGE_SCOPED_POINTER(_Sp, ptr_), &_Vp, &_Rp,
                      detail::order(_Ord));
    return _Rp;
  }
  operator _Tp() const { return load(); }
  _Tp operator=(_Tp _Vp) const {
    store(_Vp);
    return _Vp;
  }

  // Compares bit patterns, as std::atomic_ref does (so -0.0 != +0.0 here).
  bool compare_exchange_weak(_Tp &Expected, _Tp Desired,
                             std::memory_order Success,
                             std::memory_order Failure) const {
    return __atomic_compare_exchange(
        MSTAGE_SCOPED_POINTER(_Sp, ptr_), &Expected, &Desired, true,
        detail::order(Success), detail::order(Failure));
  }
  bool compare_exchange_strong(_Tp &Expected, _Tp Desired,
                               std::memory_order Success,
                               std::memory_order Failure) const {
    return __atomic_compare_exchange(
        MSTAGE_SCOPED_POINTER(_Sp, ptr_), &Expected, &Desired, false,
        detail::order(Success), detail::order(Failure));
  }
  bool compare_exchange_weak(
      _Tp &Expected, _Tp Desired,
      std::memory_order _Ord = std::memory_order_seq_cst) const {
    return compare_exchange_weak(Expected, Desired, _Ord,
                                 detail::failureOrder(_Ord));
  }
  bool compare_exchange_strong(
      _Tp &Expected, _Tp Desired,
      std::memory_order _Ord = std::memory_order_seq_cst) const {
    return compare_exchange_strong(Expected, Desired, _Ord,
                                   detail::failureOrder(_Ord));
  }

  _Tp fetch_add(_Tp _Vp,
                std::memory_order _Ord = std::memory_order_seq_cst) const {
    return __atomic_fetch_add(MSTAGE_SCOPED_POINTER(_Sp, ptr_), _Vp,
                              detail::order(_Ord));
  }
  _Tp fetch_sub(_Tp _Vp,
                std::memory_order _Ord = std::memory_order_seq_cst) const {
    return __atomic_fetch_sub(MSTAGE_SCOPED_POINTER(_Sp, ptr_), _Vp,
                              detail::order(_Ord));
  }
  // For floats, C++26's semantics: a NaN operand is ignored (atomicrmw
  // fmin/fmax, that is minnum/maxnum), and the device orders -0.0 below
  // +0.0 (PTX min/max); see docs/architecture.md.
  _Tp fetch_min(_Tp _Vp,
                std::memory_order _Ord = std::memory_order_seq_cst) const {
    return __atomic_fetch_min(MSTAGE_SCOPED_POINTER(_Sp, ptr_), _Vp,
                              detail::order(_Ord));
  }
  _Tp fetch_max(_Tp _Vp,
                std::memory_order _Ord = std::memory_order_seq_cst) const {
    return __atomic_fetch_max(MSTAGE_SCOPED_POINTER(_Sp, ptr_), _Vp,
                              detail::order(_Ord));
  }

  template <class _Up = _Tp,
            std::enable_if_t<detail::isAtomicInteger<_Up>, int> = 0>
  _Tp fetch_and(_Tp _Vp,
                std::memory_order _Ord = std::memory_order_seq_cst) const {
    return __atomic_fetch_and(MSTAGE_SCOPED_POINTER(_Sp, ptr_), _Vp,
                              detail::order(_Ord));
  }
  template <class _Up = _Tp,
            std::enable_if_t<detail::isAtomicInteger<_Up>, int> = 0>
  _Tp fetch_or(_Tp _Vp,
               std::memory_order _Ord = std::memory_order_seq_cst) const {
    return __atomic_fetch_or(MSTAGE_SCOPED_POINTER(_Sp, ptr_), _Vp,
                             detail::order(_Ord));
  }
  template <class _Up = _Tp,
            std::enable_if_t<detail::isAtomicInteger<_Up>, int> = 0>
  _Tp fetch_xor(_Tp _Vp,
                std::memory_order _Ord = std::memory_order_seq_cst) const {
    return __atomic_fetch_xor(MSTAGE_SCOPED_POINTER(_Sp, ptr_), _Vp,
                              detail::order(_Ord));
  }

  _Tp operator+=(_Tp _Vp) const { return fetch_add(_Vp) + _Vp; }
  _Tp operator-=(_Tp _Vp) const { return fetch_sub(_Vp) - _Vp; }
  template <class _Up = _Tp,
            std::enable_if_t<detail::isAtomicInteger<_Up>, int> = 0>
  _Tp operator++() const {
    return fetch_add(1) + 1;
  }
  template <class _Up = _Tp,
            std::enable_if_t<detail::isAtomicInteger<_Up>, int> = 0>
  _Tp operator++(int) const {
    return fetch_add(1);
  }
  template <class _Up = _Tp,
            std::enable_if_t<detail::isAtomicInteger<_Up>, int> = 0>
  _Tp operator--() const {
    return fetch_sub(1) - 1;
  }
  template <class _Up = _Tp,
            std::enable_if_t<detail::isAtomicInteger<_Up>, int> = 0>
  _Tp operator--(int) const {
    return fetch_sub(1);
  }

private:
  _Tp *ptr_;
};

// CUDA's atomicAdd & co. as free functions: relaxed order (no fences), device
// scope unless told, returning the old value. For counters and histograms,
// where atomic_ref's default seq_cst would put a fence on each side of every
// operation (see docs/architecture.md, "Atomics and memory order").
//
//   mstage::atomic_add(&hist[b], 1);                       // atom.global.add
//   mstage::atomic_add<mstage::scope::block>(&sm[b], 1u);  // block scope
//   int old = mstage::atomic_cas(&lock, 0, 1);             // as atomicCAS
//
// The operand's type is taken from the pointer, so atomic_add(&f, 1) on a
// float* adds 1.0f, as CUDA's overloads do.
namespace detail {
template <class _Tp> struct identity {
  using type = _Tp;
};
template <class _Tp> using identity_t = typename identity<_Tp>::type;

// Each returns whether T passed, so that a function that fails one says so in
// its one error and compiles no atomic builtin on the bad type.
template <class _Tp> constexpr bool checkAtomicFree() {
  static_assert(!std::is_const_v<_Tp> && !std::is_volatile_v<_Tp>,
                "mstage::atomic_*: the pointer must not point to const or "
                "volatile");
  static_assert(isAtomicInteger<_Tp> || isAtomicFloat<_Tp>,
                "mstage::atomic_*: T must be a 4- or 8-byte integer (int, "
                "unsigned, long long, ...), float or double; the GPU has no "
                "atomics for other types");
  return !std::is_const_v<_Tp> && !std::is_volatile_v<_Tp> &&
         (isAtomicInteger<_Tp> || isAtomicFloat<_Tp>);
}
template <class _Tp> constexpr bool checkAtomicInteger() {
  if (!checkAtomicFree<_Tp>())
    return false;
  static_assert(isAtomicInteger<_Tp>,
                "mstage::atomic_and/or/xor/cas: T must be a 4- or 8-byte "
                "integer; for float or double use atomic_ref's "
                "compare_exchange on the same bits");
  return isAtomicInteger<_Tp>;
}
} // namespace detail

template <scope _Sp = scope::device, class _Tp>
_Tp atomic_add(_Tp *_Pp, detail::identity_t<_Tp> _Vp) {
  if constexpr (!detail::checkAtomicFree<_Tp>())
    return _Vp;
  else
    return __atomic_fetch_add(MSTAGE_SCOPED_POINTER(_Sp, _Pp), _Vp,
                              __ATOMIC_RELAXED);
}
template <scope _Sp = scope::device, class _Tp>
_Tp atomic_sub(_Tp *_Pp, detail::identity_t<_Tp> _Vp) {
  if constexpr (!detail::checkAtomicFree<_Tp>())
    return _Vp;
  else
    return __atomic_fetch_sub(MSTAGE_SCOPED_POINTER(_Sp, _Pp), _Vp,
                              __ATOMIC_RELAXED);
}
// Floats as atomic_ref::fetch_min/fetch_max: a NaN operand is ignored.
template <scope _Sp = scope::device, class _Tp>
_Tp atomic_min(_Tp *_Pp, detail::identity_t<_Tp> _Vp) {
  if constexpr (!detail::checkAtomicFree<_Tp>())
    return _Vp;
  else
    return __atomic_fetch_min(MSTAGE_SCOPED_POINTER(_Sp, _Pp), _Vp,
                              __ATOMIC_RELAXED);
}
template <scope _Sp = scope::device, class _Tp>
_Tp atomic_max(_Tp *_Pp, detail::identity_t<_Tp> _Vp) {
  if constexpr (!detail::checkAtomicFree<_Tp>())
    return _Vp;
  else
    return __atomic_fetch_max(MSTAGE_SCOPED_POINTER(_Sp, _Pp), _Vp,
                              __ATOMIC_RELAXED);
}
template <scope _Sp = scope::device, class _Tp>
_Tp atomic_exch(_Tp *_Pp, detail::identity_t<_Tp> _Vp) {
  if constexpr (!detail::checkAtomicFree<_Tp>()) {
    return _Vp;
  } else {
    _Tp _Rp;
    __atomic_exchange(MSTAGE_SCOPED_POINTER(_Sp, _Pp), &_Vp, &_Rp,
                      __ATOMIC_RELAXED);
    return _Rp;
  }
}
template <scope _Sp = scope::device, class _Tp>
_Tp atomic_and(_Tp *_Pp, detail::identity_t<_Tp> _Vp) {
  if constexpr (!detail::checkAtomicInteger<_Tp>())
    return _Vp;
  else
    return __atomic_fetch_and(MSTAGE_SCOPED_POINTER(_Sp, _Pp), _Vp,
                              __ATOMIC_RELAXED);
}
template <scope _Sp = scope::device, class _Tp>
_Tp atomic_or(_Tp *_Pp, detail::identity_t<_Tp> _Vp) {
  if constexpr (!detail::checkAtomicInteger<_Tp>())
    return _Vp;
  else
    return __atomic_fetch_or(MSTAGE_SCOPED_POINTER(_Sp, _Pp), _Vp,
                             __ATOMIC_RELAXED);
}
template <scope _Sp = scope::device, class _Tp>
_Tp atomic_xor(_Tp *_Pp, detail::identity_t<_Tp> _Vp) {
  if constexpr (!detail::checkAtomicInteger<_Tp>())
    return _Vp;
  else
    return __atomic_fetch_xor(MSTAGE_SCOPED_POINTER(_Sp, _Pp), _Vp,
                              __ATOMIC_RELAXED);
}
// As atomicCAS: stores Desired if *P holds Compare, and returns what *P held
// (equal to Compare when it stored).
template <scope _Sp = scope::device, class _Tp>
_Tp atomic_cas(_Tp *_Pp, detail::identity_t<_Tp> Compare,
               detail::identity_t<_Tp> Desired) {
  if constexpr (detail::checkAtomicInteger<_Tp>())
    __atomic_compare_exchange(MSTAGE_SCOPED_POINTER(_Sp, _Pp), &Compare,
                              &Desired, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return Compare;
}

} // namespace mstage

#undef MSTAGE_SCOPED_POINTER

#endif
