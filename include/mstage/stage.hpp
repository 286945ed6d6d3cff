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
template <class _Rp, class _Fp, class... _Ap>
[[clang::annotate("mstage.stage"), gnu::noinline]] void
stage_eval(_Rp *out, const _Fp *f, const _Ap *...args) {
  ::new (static_cast<void *>(out)) _Rp((*f)(*args...));
}

struct stage_identity {
  template <class _Tp> _Tp operator()(const _Tp &v) const { return v; }
};

template <class _Rp> _Rp staged_result(_Rp *out) { return *out; }

} // namespace detail

// stage(fn, args...): fn(args...), evaluated on the host at launch.
template <
    class _Fp, class... _Ap,
    std::enable_if_t<std::is_invocable_v<const _Fp &, const _Ap &...>, int> = 0>
auto stage(_Fp fn, _Ap... args) {
  using _Rp = std::decay_t<std::invoke_result_t<const _Fp &, const _Ap &...>>;
  static_assert(std::is_trivially_copyable_v<_Rp>,
                "mstage: a staged value must be trivially copyable");
  alignas(_Rp) unsigned char storage[sizeof(_Rp)];
  _Rp *out = reinterpret_cast<_Rp *>(storage);
  detail::stage_eval(out, &fn, &args...);
  return detail::staged_result(out);
}

// stage(expr): the value of expr, evaluated on the host at launch.
template <class _Tp,
          std::enable_if_t<!std::is_invocable_v<const _Tp &>, int> = 0>
std::decay_t<_Tp> stage(const _Tp &value) {
  return stage(detail::stage_identity{}, std::decay_t<_Tp>(value));
}

} // namespace mstage

#endif
