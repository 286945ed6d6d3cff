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
#define MSTAGE_SCOPED_POINTER(S, P)                                            \
  ((S) == ::mstage::scope::block                                               \
       ? reinterpret_cast<decltype(P)>(                                        \
             __builtin_annotation(reinterpret_cast<std::uintptr_t>(P),         \
                                  "mstage.atomic.scope.block"))                \
       : (P))

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

constexpr int order(std::memory_order O) { return int(O); }

// The failure order implied by a compare-exchange's single order.
constexpr std::memory_order failureOrder(std::memory_order O) {
  return O == std::memory_order_acq_rel   ? std::memory_order_acquire
         : O == std::memory_order_release ? std::memory_order_relaxed
                                          : O;
}

template <class T>
inline constexpr bool isAtomicInteger =
    std::is_integral_v<T> && !std::is_same_v<T, bool> &&
    (sizeof(T) == 4 || sizeof(T) == 8);

template <class T>
inline constexpr bool isAtomicFloat =
    std::is_same_v<T, float> || std::is_same_v<T, double>;

} // namespace detail

template <class T, scope S = scope::device> class atomic_ref {
public:
  using value_type = T;
  static constexpr scope scope_value = S;
  static constexpr std::size_t required_alignment = sizeof(T);
  static constexpr bool is_always_lock_free = true;

  // The checks are here, not in the class, so that a bad T gives one error
  // rather than one for every use of the class.
  explicit atomic_ref(T &Obj) : ptr_(&Obj) {
    static_assert(!std::is_const_v<T> && !std::is_volatile_v<T>,
                  "mstage::atomic_ref<T>: T must not be const or volatile");
    static_assert(detail::isAtomicInteger<T> || detail::isAtomicFloat<T>,
                  "mstage::atomic_ref<T>: T must be a 4- or 8-byte integer "
                  "(int, unsigned, long long, ...), float or double; the GPU "
                  "has no atomics for other types");
  }
  atomic_ref(const atomic_ref &) = default;
  atomic_ref &operator=(const atomic_ref &) = delete;

  T *address() const { return ptr_; }

  T load(std::memory_order O = std::memory_order_seq_cst) const {
    T R;
    __atomic_load(MSTAGE_SCOPED_POINTER(S, ptr_), &R, detail::order(O));
    return R;
  }
  void store(T V, std::memory_order O = std::memory_order_seq_cst) const {
    __atomic_store(MSTAGE_SCOPED_POINTER(S, ptr_), &V, detail::order(O));
  }
  T exchange(T V, std::memory_order O = std::memory_order_seq_cst) const {
    T R;
    __atomic_exchange(MSTAGE_SCOPED_POINTER(S, ptr_), &V, &R, detail::order(O));
    return R;
  }
  operator T() const { return load(); }
  T operator=(T V) const {
    store(V);
    return V;
  }

  // Compares bit patterns, as std::atomic_ref does (so -0.0 != +0.0 here).
  bool compare_exchange_weak(T &Expected, T Desired, std::memory_order Success,
                             std::memory_order Failure) const {
    return __atomic_compare_exchange(MSTAGE_SCOPED_POINTER(S, ptr_), &Expected,
                                     &Desired, true, detail::order(Success),
                                     detail::order(Failure));
  }
  bool compare_exchange_strong(T &Expected, T Desired,
                               std::memory_order Success,
                               std::memory_order Failure) const {
    return __atomic_compare_exchange(MSTAGE_SCOPED_POINTER(S, ptr_), &Expected,
                                     &Desired, false, detail::order(Success),
                                     detail::order(Failure));
  }
  bool
  compare_exchange_weak(T &Expected, T Desired,
                        std::memory_order O = std::memory_order_seq_cst) const {
    return compare_exchange_weak(Expected, Desired, O, detail::failureOrder(O));
  }
  bool compare_exchange_strong(
      T &Expected, T Desired,
      std::memory_order O = std::memory_order_seq_cst) const {
    return compare_exchange_strong(Expected, Desired, O,
                                   detail::failureOrder(O));
  }

  T fetch_add(T V, std::memory_order O = std::memory_order_seq_cst) const {
    return __atomic_fetch_add(MSTAGE_SCOPED_POINTER(S, ptr_), V,
                              detail::order(O));
  }
  T fetch_sub(T V, std::memory_order O = std::memory_order_seq_cst) const {
    return __atomic_fetch_sub(MSTAGE_SCOPED_POINTER(S, ptr_), V,
                              detail::order(O));
  }
  // For floats, C++26's semantics: a NaN operand is ignored (atomicrmw
  // fmin/fmax, that is minnum/maxnum), and the device orders -0.0 below
  // +0.0 (PTX min/max); see docs/architecture.md.
  T fetch_min(T V, std::memory_order O = std::memory_order_seq_cst) const {
    return __atomic_fetch_min(MSTAGE_SCOPED_POINTER(S, ptr_), V,
                              detail::order(O));
  }
  T fetch_max(T V, std::memory_order O = std::memory_order_seq_cst) const {
    return __atomic_fetch_max(MSTAGE_SCOPED_POINTER(S, ptr_), V,
                              detail::order(O));
  }

  template <class U = T, std::enable_if_t<detail::isAtomicInteger<U>, int> = 0>
  T fetch_and(T V, std::memory_order O = std::memory_order_seq_cst) const {
    return __atomic_fetch_and(MSTAGE_SCOPED_POINTER(S, ptr_), V,
                              detail::order(O));
  }
  template <class U = T, std::enable_if_t<detail::isAtomicInteger<U>, int> = 0>
  T fetch_or(T V, std::memory_order O = std::memory_order_seq_cst) const {
    return __atomic_fetch_or(MSTAGE_SCOPED_POINTER(S, ptr_), V,
                             detail::order(O));
  }
  template <class U = T, std::enable_if_t<detail::isAtomicInteger<U>, int> = 0>
  T fetch_xor(T V, std::memory_order O = std::memory_order_seq_cst) const {
    return __atomic_fetch_xor(MSTAGE_SCOPED_POINTER(S, ptr_), V,
                              detail::order(O));
  }

  T operator+=(T V) const { return fetch_add(V) + V; }
  T operator-=(T V) const { return fetch_sub(V) - V; }
  template <class U = T, std::enable_if_t<detail::isAtomicInteger<U>, int> = 0>
  T operator++() const {
    return fetch_add(1) + 1;
  }
  template <class U = T, std::enable_if_t<detail::isAtomicInteger<U>, int> = 0>
  T operator++(int) const {
    return fetch_add(1);
  }
  template <class U = T, std::enable_if_t<detail::isAtomicInteger<U>, int> = 0>
  T operator--() const {
    return fetch_sub(1) - 1;
  }
  template <class U = T, std::enable_if_t<detail::isAtomicInteger<U>, int> = 0>
  T operator--(int) const {
    return fetch_sub(1);
  }

private:
  T *ptr_;
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
template <class T> struct identity { using type = T; };
template <class T> using identity_t = typename identity<T>::type;

// Each returns whether T passed, so that a function that fails one says so in
// its one error and compiles no atomic builtin on the bad type.
template <class T> constexpr bool checkAtomicFree() {
  static_assert(!std::is_const_v<T> && !std::is_volatile_v<T>,
                "mstage::atomic_*: the pointer must not point to const or "
                "volatile");
  static_assert(isAtomicInteger<T> || isAtomicFloat<T>,
                "mstage::atomic_*: T must be a 4- or 8-byte integer (int, "
                "unsigned, long long, ...), float or double; the GPU has no "
                "atomics for other types");
  return !std::is_const_v<T> && !std::is_volatile_v<T> &&
         (isAtomicInteger<T> || isAtomicFloat<T>);
}
template <class T> constexpr bool checkAtomicInteger() {
  if (!checkAtomicFree<T>())
    return false;
  static_assert(isAtomicInteger<T>,
                "mstage::atomic_and/or/xor/cas: T must be a 4- or 8-byte "
                "integer; for float or double use atomic_ref's "
                "compare_exchange on the same bits");
  return isAtomicInteger<T>;
}
} // namespace detail

template <scope S = scope::device, class T>
T atomic_add(T *P, detail::identity_t<T> V) {
  if constexpr (!detail::checkAtomicFree<T>())
    return V;
  else
    return __atomic_fetch_add(MSTAGE_SCOPED_POINTER(S, P), V, __ATOMIC_RELAXED);
}
template <scope S = scope::device, class T>
T atomic_sub(T *P, detail::identity_t<T> V) {
  if constexpr (!detail::checkAtomicFree<T>())
    return V;
  else
    return __atomic_fetch_sub(MSTAGE_SCOPED_POINTER(S, P), V, __ATOMIC_RELAXED);
}
// Floats as atomic_ref::fetch_min/fetch_max: a NaN operand is ignored.
template <scope S = scope::device, class T>
T atomic_min(T *P, detail::identity_t<T> V) {
  if constexpr (!detail::checkAtomicFree<T>())
    return V;
  else
    return __atomic_fetch_min(MSTAGE_SCOPED_POINTER(S, P), V, __ATOMIC_RELAXED);
}
template <scope S = scope::device, class T>
T atomic_max(T *P, detail::identity_t<T> V) {
  if constexpr (!detail::checkAtomicFree<T>())
    return V;
  else
    return __atomic_fetch_max(MSTAGE_SCOPED_POINTER(S, P), V, __ATOMIC_RELAXED);
}
template <scope S = scope::device, class T>
T atomic_exch(T *P, detail::identity_t<T> V) {
  if constexpr (!detail::checkAtomicFree<T>()) {
    return V;
  } else {
    T R;
    __atomic_exchange(MSTAGE_SCOPED_POINTER(S, P), &V, &R, __ATOMIC_RELAXED);
    return R;
  }
}
template <scope S = scope::device, class T>
T atomic_and(T *P, detail::identity_t<T> V) {
  if constexpr (!detail::checkAtomicInteger<T>())
    return V;
  else
    return __atomic_fetch_and(MSTAGE_SCOPED_POINTER(S, P), V, __ATOMIC_RELAXED);
}
template <scope S = scope::device, class T>
T atomic_or(T *P, detail::identity_t<T> V) {
  if constexpr (!detail::checkAtomicInteger<T>())
    return V;
  else
    return __atomic_fetch_or(MSTAGE_SCOPED_POINTER(S, P), V, __ATOMIC_RELAXED);
}
template <scope S = scope::device, class T>
T atomic_xor(T *P, detail::identity_t<T> V) {
  if constexpr (!detail::checkAtomicInteger<T>())
    return V;
  else
    return __atomic_fetch_xor(MSTAGE_SCOPED_POINTER(S, P), V, __ATOMIC_RELAXED);
}
// As atomicCAS: stores Desired if *P holds Compare, and returns what *P held
// (equal to Compare when it stored).
template <scope S = scope::device, class T>
T atomic_cas(T *P, detail::identity_t<T> Compare,
             detail::identity_t<T> Desired) {
  if constexpr (detail::checkAtomicInteger<T>())
    __atomic_compare_exchange(MSTAGE_SCOPED_POINTER(S, P), &Compare, &Desired,
                              false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return Compare;
}

} // namespace mstage

#undef MSTAGE_SCOPED_POINTER

#endif
