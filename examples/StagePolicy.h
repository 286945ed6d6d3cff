// Staged and unstaged versions of one kernel from one source: a kernel that
// calls stage(...) through a policy object gets mstage::stage with Staged and
// a plain evaluation in the kernel with Unstaged, as in the paper's
// comparison of staged and unstaged programs.
#ifndef MSTAGE_EXAMPLES_STAGEPOLICY_H
#define MSTAGE_EXAMPLES_STAGEPOLICY_H

#include <mstage.hpp>

#include <type_traits>

struct Staged {
  static constexpr const char *name = "staged";
  template <class... A> auto operator()(A... a) const {
    return mstage::stage(a...);
  }
};

struct Unstaged {
  static constexpr const char *name = "unstaged";
  template <
      class F, class... A,
      std::enable_if_t<std::is_invocable_v<const F &, const A &...>, int> = 0>
  auto operator()(F f, A... a) const {
    return f(a...);
  }
  template <class T, std::enable_if_t<!std::is_invocable_v<const T &>, int> = 0>
  T operator()(T v) const {
    return v;
  }
};

#endif
