// stage(): values computed on the host at launch and folded into the kernel.
#ifndef MSTAGE_STAGE_HPP
#define MSTAGE_STAGE_HPP

#include <new>
#include <type_traits>
#include <utility>

namespace mstage {
namespace detail {

// The one call that marks a stage site. In the host program it simply runs
// f(args...). For the device, the extraction pass slices out everything the
// call's operands depend on into a host evaluator that runs at launch, and
// replaces the call with the value it computed.
template <class R, class F, class... A>
[[clang::annotate("mstage.stage"), gnu::noinline]] void
stage_eval(R *out, const F *f, const A *...args) {
  ::new (static_cast<void *>(out)) R((*f)(*args...));
}

struct stage_identity {
  template <class T> T operator()(const T &v) const { return v; }
};

template <class R> R staged_result(R *out) { return *out; }

} // namespace detail

// stage(fn, args...): fn(args...), evaluated on the host at launch.
template <
    class F, class... A,
    std::enable_if_t<std::is_invocable_v<const F &, const A &...>, int> = 0>
auto stage(F fn, A... args) {
  using R = std::decay_t<std::invoke_result_t<const F &, const A &...>>;
  static_assert(std::is_trivially_copyable_v<R>,
                "mstage: a staged value must be trivially copyable");
  alignas(R) unsigned char storage[sizeof(R)];
  R *out = reinterpret_cast<R *>(storage);
  detail::stage_eval(out, &fn, &args...);
  return detail::staged_result(out);
}

// stage(expr): the value of expr, evaluated on the host at launch.
template <class T, std::enable_if_t<!std::is_invocable_v<const T &>, int> = 0>
std::decay_t<T> stage(const T &value) {
  return stage(detail::stage_identity{}, std::decay_t<T>(value));
}

} // namespace mstage

#endif
