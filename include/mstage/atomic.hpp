// atomic_ref<T, Scope>: std::atomic_ref with a scope and C++26's
// fetch_min/fetch_max, for int, unsigned, long long, unsigned long long
// (and the other 4- and 8-byte integers), float and double, on global or
// shared memory.
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
// costs nothing on the host; passes/DeviceAtomics.cpp reads the mark and
// removes it.
#ifndef MSTAGE_ATOMIC_HPP
#define MSTAGE_ATOMIC_HPP

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

// P with the scope mark of S, which passes/DeviceAtomics.cpp looks for (the
// string is a contract with that pass); device scope needs none. A macro, not
// a function, so that even unoptimized IR has the mark right on the atomic's
// pointer operand, where the pass finds it before inlining.
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
  // +0.0 (PTX min/max); see docs/design-notes.md.
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

} // namespace mstage

#undef MSTAGE_SCOPED_POINTER

#endif
