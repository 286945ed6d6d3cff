// Device-wide reductions: reduce, transform_reduce, sum, min, max, minmax,
// count_if, any_of, all_of.
//
//   int s = mstage::reduce(v, 0, std::plus<>());       // waits, on the host
//   mstage::sum(v, out);                               // into out[0], async
//   auto [lo, hi] = mstage::minmax(v);
//
// Each call is one launch of one kernel (reduce_kernel): each block
// reduces its tiles to one partial, and the last block to finish (an atomic
// ticket, a counter per stream that the last block zeroes again) reduces
// the partials and applies init; an input of one tile is one block. The
// blocks read the input with streaming loads, and a block's warps wait for
// each other after every tile (docs/algorithms.md says why). The
// counter and the partials are the stream's (reduce_room): a call
// allocates no memory. On a stream being captured into a graph, the
// partials are reduced by a second launch instead (a graph may run on any
// stream, so it must not share the stream's counter). The kernel stages
// what the call knows: the element count, the block size and the items per
// thread (template constants), the grid, the operator's identity and
// whether the input is aligned for vector loads, so that each call compiles
// into a kernel specialized for it (docs/algorithms.md shows the PTX).
#ifndef MSTAGE_ALGORITHM_REDUCE_HPP
#define MSTAGE_ALGORITHM_REDUCE_HPP

#include "mstage/algorithm/detail/block_reduce.hpp"
#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/atomic.hpp"
#include "mstage/bounds_check.hpp"
#include "mstage/index.hpp"
#include "mstage/kernel.hpp"
#include "mstage/ldg.hpp"
#include "mstage/shared_array.hpp"
#include "mstage/stage.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>

namespace mstage {

// The result of minmax, as std::ranges::minmax_result.
template <class _Tp> struct minmax_result {
  _Tp min;
  _Tp max;
};

namespace detail {

struct identity_fn {
  template <class _Tp> const _Tp &operator()(const _Tp &v) const { return v; }
};
// min and max ignore NaNs, as fmin and fmax do: a NaN loses to any other
// value, so the result is an element, and NaN only when every element is.
// Their identity for floating point is the quiet NaN (identity_of below);
// of two NaNs they keep one that is not it, so that a view of -NaNs gives
// -NaN, an element, whichever partials are combined last.
template <class _Tp> constexpr bool is_nan(const _Tp &v) {
  if constexpr (std::is_floating_point_v<_Tp>)
    return v != v;
  else
    return false;
}
template <class _Tp> bool is_quiet_nan(const _Tp &v) {
  using Bits =
      std::conditional_t<sizeof(_Tp) == 8, std::uint64_t, std::uint32_t>;
  return __builtin_bit_cast(Bits, v) ==
         __builtin_bit_cast(Bits, std::numeric_limits<_Tp>::quiet_NaN());
}
// a when b should not replace it as the extreme: b is NaN and a is not, or
// both are NaN and a is not the identity.
template <class _Tp> bool keep_first(const _Tp &a, const _Tp &b) {
  if constexpr (std::is_floating_point_v<_Tp>)
    return is_nan(b) && (!is_nan(a) || !is_quiet_nan(a));
  else
    return false;
}
struct min_op {
  template <class _Tp> _Tp operator()(const _Tp &a, const _Tp &b) const {
    return !keep_first(a, b) && (b < a || is_nan(a)) ? b : a;
  }
};
struct max_op {
  template <class _Tp> _Tp operator()(const _Tp &a, const _Tp &b) const {
    return !keep_first(a, b) && (a < b || is_nan(a)) ? b : a;
  }
};
struct minmax_op {
  template <class _Tp>
  minmax_result<_Tp> operator()(const minmax_result<_Tp> &a,
                                const minmax_result<_Tp> &b) const {
    return {min_op()(a.min, b.min), max_op()(a.max, b.max)};
  }
};
struct minmax_of {
  template <class _Tp> minmax_result<_Tp> operator()(const _Tp &v) const {
    return {v, v};
  }
};

template <class _Rp> constexpr bool plain_number = std::is_arithmetic_v<_Rp>;

template <class _Rp, class _Up>
struct identity_of<std::plus<_Up>, _Rp, std::enable_if_t<plain_number<_Rp>>> {
  static constexpr bool known = true;
  static constexpr _Rp value() { return _Rp(0); }
};
// For floating point a NaN, which min_op and max_op ignore: +-inf would be
// the result of a view of NaNs alone, which is not one of its elements.
template <class _Rp>
struct identity_of<min_op, _Rp, std::enable_if_t<plain_number<_Rp>>> {
  static constexpr bool known = true;
  static constexpr _Rp value() {
    if constexpr (std::is_floating_point_v<_Rp>)
      return std::numeric_limits<_Rp>::quiet_NaN();
    return std::numeric_limits<_Rp>::max();
  }
};
template <class _Rp>
struct identity_of<max_op, _Rp, std::enable_if_t<plain_number<_Rp>>> {
  static constexpr bool known = true;
  static constexpr _Rp value() {
    if constexpr (std::is_floating_point_v<_Rp>)
      return std::numeric_limits<_Rp>::quiet_NaN();
    return std::numeric_limits<_Rp>::lowest();
  }
};
template <class _Rp>
struct identity_of<minmax_op, minmax_result<_Rp>,
                   std::enable_if_t<plain_number<_Rp>>> {
  static constexpr bool known = true;
  static constexpr minmax_result<_Rp> value() {
    return {identity_of<min_op, _Rp>::value(),
            identity_of<max_op, _Rp>::value()};
  }
};
template <class _Rp, class _Up>
struct identity_of<std::logical_or<_Up>, _Rp,
                   std::enable_if_t<plain_number<_Rp>>> {
  static constexpr bool known = true;
  static constexpr _Rp value() { return _Rp(false); }
};
template <class _Rp, class _Up>
struct identity_of<std::logical_and<_Up>, _Rp,
                   std::enable_if_t<plain_number<_Rp>>> {
  static constexpr bool known = true;
  static constexpr _Rp value() { return _Rp(true); }
};

// Items each thread reduces per tile: 64 bytes of input, as four 16-byte
// loads when the input is aligned for them.
template <class _Tp> constexpr unsigned items_per_thread() {
  return sizeof(_Tp) <= 16 && 16 % sizeof(_Tp) == 0 ? unsigned(64 / sizeof(_Tp))
                                                    : 4u;
}
// 512 threads: with the barrier after each tile, 0.3-0.7% faster than 256 at
// 2^27 doubles and no slower for ints and floats (H100, docs/performance.md).
inline constexpr unsigned reduce_block = 512;

// What a launch of reduce_kernel does with its block's reduction.
enum reduce_mode : int {
  reduce_final = 0,    // one block: the result, with init, into out[0]
  reduce_partials = 1, // each block's into part[block] (a second launch
                       // reduces them)
  reduce_ticket = 2,   // each block's into part[block]; the last block to
                       // finish (an atomic ticket) reduces them into out[0]
};

// Block and Items are constants of the kernel; the rest is staged.
template <unsigned Block, unsigned Items, bool HasIdentity, class _Rp,
          class _Op, class _Tf>
auto reduce_kernel(_Op op, _Tf tf, _Rp identity, _Rp init, bool has_init,
                   reduce_mode modeArg, bool aligned, bool gpuArg) {
  return [=](auto in, auto out, vector_view<_Rp> part,
             vector_view<unsigned> ticket) {
    using _Tp = std::remove_const_t<typename decltype(in)::element_type>;
    constexpr unsigned Tile = Block * Items;
    constexpr unsigned Vec = 16 % sizeof(_Tp) == 0 && sizeof(_Tp) < 16
                                 ? unsigned(16 / sizeof(_Tp))
                                 : 1u;
    const std::size_t n = stage(in.size());
    const bool vector_loads = stage(aligned) && Vec > 1 && Items % Vec == 0;
    const bool with_init = stage(has_init);
    const reduce_mode mode = stage(modeArg);
    const bool gpu = stage(gpuArg);
    const _Rp id = stage(identity);
    const _Tp *data = in.data();

    bool have = HasIdentity;
    _Rp acc = id;
    auto add = [&](const _Rp &r) {
      if constexpr (HasIdentity) {
        acc = apply_op(op, acc, r);
      } else {
        acc = have ? apply_op(op, acc, r) : r;
        have = true;
      }
    };
    auto full_tile = [&](const _Tp *tile, unsigned tid) {
      if (Vec > 1 && vector_loads) {
        // All of a thread's chunks are loaded before any is added, so that
        // its loads are in flight together; each is read once.
        constexpr unsigned Chunks = Items / (Vec > 1 ? Vec : 1);
        struct alignas(16) pack {
          _Tp v[Vec];
        } p[Chunks];
        for (unsigned k = 0; k < Chunks; ++k) {
          // Offsets within a tile are below 2^32: 32-bit arithmetic.
          const _Tp *at = tile + (k * Block + tid) * Vec;
          if (gpu) {
            __mstage_ldg_v4u32_t chunk = __mstage_ldg_stream_v4u32(at);
            std::memcpy(&p[k], &chunk, sizeof(pack));
          } else {
            // The CPU back end: a copy the host compiler inlines.
            std::memcpy(&p[k], __builtin_assume_aligned(at, 16), sizeof(pack));
          }
        }
        for (unsigned k = 0; k < Chunks; ++k)
          for (unsigned e = 0; e < Vec; ++e)
            add(_Rp(tf(p[k].v[e])));
      } else {
        _Tp x[Items];
        for (unsigned k = 0; k < Items; ++k)
          x[k] = tile[k * Block + tid];
        for (unsigned k = 0; k < Items; ++k)
          add(_Rp(tf(x[k])));
      }
    };
    // 32-bit index arithmetic when the count fits, as it does below 2^32.
    auto walk = [&](auto zero) {
      using _Ip = decltype(zero);
      const unsigned tid = __mstage_tid_x();
      const _Ip block = _Ip(__mstage_ctaid_x());
      const _Ip grid = _Ip(__mstage_nctaid_x());
      const _Ip full_tiles = _Ip(n / Tile);
      const _Ip rest = _Ip(n % Tile);
      // The barrier keeps a block's warps on one tile, so that the grid
      // reads one compact window of memory at a time (with the streaming
      // loads and 512 threads, 0.9-1.6% of a 2^27 double sum on an H100).
      for (_Ip t = block; t < full_tiles; t += grid) {
        full_tile(data + std::size_t(t) * Tile, tid);
        if (gpu)
          block_barrier(source_place());
      }
      if (rest != 0 && full_tiles % grid == block) {
        const _Tp *tile = data + std::size_t(full_tiles) * Tile;
        for (unsigned k = 0; k < Items; ++k)
          if (k * Block + tid < rest)
            add(_Rp(tf(tile[k * Block + tid])));
      }
    };
    if (n <= 0xffffffffu)
      walk(0u);
    else
      walk(std::size_t(0));

    acc = block_reduce<Block, HasIdentity>(acc, have, op);
    const unsigned tid = __mstage_tid_x();
    if (mode == reduce_final) {
      if (tid == 0)
        out[0] = with_init ? apply_op(op, init, acc) : acc;
      return;
    }
    if (tid == 0)
      part[__mstage_ctaid_x()] = acc;
    if (mode == reduce_partials)
      return;

    // The ticket: thread 0's release publishes its partial, and the last
    // block's acquire (then the barrier) makes every partial visible to its
    // threads. The last block reduces the partials in a fixed order, so the
    // result does not depend on which block finished last.
    shared_array<int, 1> last;
    const unsigned grid = __mstage_nctaid_x();
    if (tid == 0)
      last[0] = atomic_ref<unsigned>(ticket[0]).fetch_add(
                    1u, std::memory_order_acq_rel) == grid - 1;
    block_barrier(source_place());
    if (!last[0])
      return;
    have = HasIdentity;
    acc = id;
    for (unsigned i = tid; i < grid; i += Block)
      add(part[i]);
    acc = block_reduce<Block, HasIdentity>(acc, have, op);
    if (tid == 0) {
      out[0] = with_init ? apply_op(op, init, acc) : acc;
      // Zero again for the stream's next reduction.
      atomic_ref<unsigned>(ticket[0]).store(0u, std::memory_order_relaxed);
    }
  };
}

// Launches the reduction of in (transformed by tf) into out[0]: init first
// when has_init, else the elements alone (in must not be empty then).
// Block and Items 0 take the defaults.
template <unsigned Block = 0, unsigned Items = 0, class _Rp, class _Tp,
          class _Up, class _Op, class _Tf>
void launch_reduce(vector_view<const _Tp> in, _Rp init, bool has_init, _Op op,
                   _Tf tf, vector_view<_Up> out, stream_ref s) {
  constexpr bool HasIdentity = identity_of<_Op, _Rp>::known;
  _Rp identity = init;
  if constexpr (HasIdentity)
    identity = identity_of<_Op, _Rp>::value();
  constexpr unsigned _Bp = Block ? Block : reduce_block;
  constexpr unsigned _It = Items ? Items : items_per_thread<_Tp>();
  constexpr unsigned PartialItems = items_per_thread<_Rp>();
  std::size_t tiles = (in.size() + _Bp * _It - 1) / (_Bp * _It);
  unsigned grid = grid_for(tiles, _Bp);
  const bool aligned = reinterpret_cast<std::uintptr_t>(in.data()) % 16 == 0;
  // The streaming loads and the barrier after each tile shape a GPU's
  // memory traffic; on the CPU back end they would be a call for every 16
  // bytes and a switch of all the block's fibers for every tile.
  const bool gpu = !query_device(_Bp).cpu;
  vector_view<_Rp> none;
  if (grid <= 1) {
    kernel("mstage::reduce",
           reduce_kernel<_Bp, _It, HasIdentity>(
               op, tf, identity, init, has_init, reduce_final, aligned, gpu),
           1, _Bp)
        .check_on_cpu(false)
        .on(s)(in, out, none, vector_view<unsigned>());
    return;
  }
  // One launch: the stream's ticket counter finds the last block, and its
  // room holds the partials. Not while the stream is captured: a graph may
  // be replayed on another stream, at the same time as this one's
  // reductions, which would share them.
  if (!mstage_rt_stream_capturing(s.get())) {
    reduce_room room(s, grid * sizeof(_Rp));
    kernel("mstage::reduce",
           reduce_kernel<_Bp, _It, HasIdentity>(
               op, tf, identity, init, has_init, reduce_ticket, aligned, gpu),
           grid, _Bp)
        .check_on_cpu(false)
        .on(s)(in, out,
               vector_view<_Rp>(static_cast<_Rp *>(room.partials()), grid),
               room.ticket());
    return;
  }
  temporary partials(grid * sizeof(_Rp), s);
  vector_view<_Rp> part(static_cast<_Rp *>(partials.get()), grid);
  kernel("mstage::reduce",
         reduce_kernel<_Bp, _It, HasIdentity>(op, tf, identity, init, false,
                                              reduce_partials, aligned, gpu),
         grid, _Bp)
      .check_on_cpu(false)
      .on(s)(in, out, part, vector_view<unsigned>());
  kernel("mstage::reduce",
         reduce_kernel<_Bp, PartialItems, HasIdentity>(op, identity_fn(),
                                                       identity, init, has_init,
                                                       reduce_final, true, gpu),
         1, _Bp)
      .check_on_cpu(false)
      .on(s)(vector_view<const _Rp>(part.data(), grid), out, none,
             vector_view<unsigned>());
}

// The result of a reduction on the host: launched into a temporary, copied
// back, waited for.
template <unsigned Block = 0, unsigned Items = 0, class _Rp, class _Tp,
          class _Op, class _Tf>
_Rp reduce_to_host(vector_view<const _Tp> in, _Rp init, bool has_init, _Op op,
                   _Tf tf, stream_ref s) {
  temporary result(sizeof(_Rp), s);
  vector_view<_Rp> out(static_cast<_Rp *>(result.get()), 1);
  launch_reduce<Block, Items>(in, init, has_init, op, tf, out, s);
  raw_storage<_Rp> bytes;
  check(mstage_rt_copy_to_host_async(bytes.bytes, result.get(), sizeof(_Rp),
                                     s.get()));
  s.synchronize();
  return from_raw(bytes);
}

// Writes value to out[0] in stream order (an empty input's result). A fill,
// not a copy: a fill keeps its pattern, where a captured copy would read
// this stack variable again at every replay of the graph.
template <class _Rp, class _Up>
void store_result(const _Rp &value, vector_view<_Up> out, stream_ref s) {
  _Up converted = _Up(value);
  check(mstage_rt_fill_async(out.data(), &converted, sizeof(_Up), 1, s.get()));
}

template <class _Up> void check_output(const char *call, vector_view<_Up> out) {
  if (out.empty())
    throw error(std::string("mstage: ") + call +
                ": the output view is empty; it needs one element for the "
                "result");
}

[[noreturn]] inline void empty_input(const char *call) {
  throw error(std::string("mstage: ") + call +
              ": the view is empty, so there is no value to return; check "
              "its size first");
}

// The engine of every reduction: the result on the host (waited for) when
// out is absent, else into out[0] (not waited for; nothing is returned).
template <unsigned Block = 0, unsigned Items = 0, class _Rp, class _In,
          class _Op, class _Tf, class... _Out>
auto reduce_impl(const char *call, stream_ref s, _In &&in_arg, _Rp init,
                 bool has_init, _Op op, _Tf tf, _Out &&...out_arg) {
  auto in = as_view(in_arg, s);
  using _Tp = std::remove_const_t<typename decltype(in)::element_type>;
  vector_view<const _Tp> cin(in.data(), in.size());
  if constexpr (sizeof...(_Out) == 0) {
    if (cin.empty()) {
      if (!has_init)
        empty_input(call);
      return init;
    }
    return reduce_to_host<Block, Items>(cin, init, has_init, op, tf, s);
  } else {
    auto out = as_view(out_arg..., s);
    check_output(call, out);
    if (cin.empty()) {
      if (!has_init)
        empty_input(call);
      store_result(init, out, s);
    } else {
      launch_reduce<Block, Items>(cin, init, has_init, op, tf, out, s);
    }
  }
}

// The type of a reduction's output argument; a view that passes the checks
// when there is none.
template <class... _Out> struct out_arg {
  using type = vector_view<int>;
};
template <class _Out> struct out_arg<_Out> {
  using type = _Out;
};
template <class... _Out> using out_arg_t = typename out_arg<_Out...>::type;

} // namespace detail

// The checks of a reduction's view and optional output, naming the call.
#define MSTAGE_REDUCE_CHECK_VIEWS(call, _Vp, _Out)                             \
  MSTAGE_ALGORITHM_CHECK_VIEW(call, _Vp);                                      \
  static_assert(sizeof...(_Out) <= 1, "mstage: " call ": one output at most"); \
  MSTAGE_ALGORITHM_CHECK_WRITABLE(call, ::mstage::detail::out_arg_t<_Out...>,  \
                                  "the output")

// reduce(view, init, op[, out]): init combined with every element by op,
// which must be associative and commutative (the order is the GPU's). The
// result has init's type; with out (a view of device memory with at least
// one element), it goes to out[0], converted to out's element type, and the
// call returns nothing and does not wait. So for all the reductions.
// reduce_fn<Block, Items> and sum_fn<Block, Items> are reduce and sum with
// another tile shape (0: the default), for tuning (bench/mstage_algorithms'
// sweep).
template <unsigned Block = 0, unsigned Items = 0>
struct reduce_fn : detail::algorithm_base<reduce_fn<Block, Items>> {
  using detail::algorithm_base<reduce_fn>::stream;
  template <class _Vp, class Init, class _Op = std::plus<>, class... _Out>
  auto operator()(_Vp &&view, Init init, _Op op = {}, _Out &&...out) const {
    MSTAGE_REDUCE_CHECK_VIEWS("reduce", _Vp, _Out);
    MSTAGE_ALGORITHM_CHECK_OP("reduce", _Op);
    using _Tp = detail::element_of<_Vp>;
    static_assert(std::is_convertible_v<_Tp, Init>,
                  "mstage: reduce: the elements do not convert to init's type");
    static_assert(detail::op_fits_v<_Op, Init>,
                  "mstage: reduce: the operator is not callable with two "
                  "values of init's type, or does not return one");
    return detail::reduce_impl<Block, Items>("reduce", stream(), view, init,
                                             true, op, detail::identity_fn(),
                                             out...);
  }
};
inline constexpr reduce_fn<> reduce{};

// transform_reduce(view, init, reduce_op, transform_op[, out]): init and
// transform_op(x) of every element, combined by reduce_op.
inline constexpr struct transform_reduce_fn
    : detail::algorithm_base<transform_reduce_fn> {
  template <class _Vp, class Init, class _Op, class _Tf, class... _Out>
  auto operator()(_Vp &&view, Init init, _Op op, _Tf tf, _Out &&...out) const {
    MSTAGE_REDUCE_CHECK_VIEWS("transform_reduce", _Vp, _Out);
    MSTAGE_ALGORITHM_CHECK_OP("transform_reduce", _Op);
    MSTAGE_ALGORITHM_CHECK_OP("transform_reduce", _Tf);
    using _Tp = detail::element_of<_Vp>;
    static_assert(std::is_invocable_v<const _Tf &, const _Tp &>,
                  "mstage: transform_reduce: the transform is not callable "
                  "with the view's element type");
    static_assert(detail::op_fits_v<_Op, Init>,
                  "mstage: transform_reduce: the reduction is not callable "
                  "with two values of init's type, or does not return one");
    if constexpr (std::is_invocable_v<const _Tf &, const _Tp &>)
      static_assert(
          std::is_convertible_v<std::invoke_result_t<const _Tf &, const _Tp &>,
                                Init>,
          "mstage: transform_reduce: the transform's result does not "
          "convert to init's type");
    return detail::reduce_impl("transform_reduce", stream(), view, init, true,
                               op, tf, out...);
  }
} transform_reduce{};

// sum(view[, out]): the elements' sum; T{} for an empty view.
template <unsigned Block = 0, unsigned Items = 0>
struct sum_fn : detail::algorithm_base<sum_fn<Block, Items>> {
  using detail::algorithm_base<sum_fn>::stream;
  template <class _Vp, class... _Out>
  auto operator()(_Vp &&view, _Out &&...out) const {
    MSTAGE_REDUCE_CHECK_VIEWS("sum", _Vp, _Out);
    using _Tp = detail::element_of<_Vp>;
    static_assert(std::is_invocable_v<std::plus<>, const _Tp &, const _Tp &>,
                  "mstage: sum: the element type has no +");
    return detail::reduce_impl<Block, Items>("sum", stream(), view, _Tp{}, true,
                                             std::plus<>(),
                                             detail::identity_fn(), out...);
  }
};
inline constexpr sum_fn<> sum{};

// min(view[, out]), max(view[, out]): the least and the greatest element by
// <, NaNs ignored (as fmin and fmax); NaN when every element is NaN; an
// empty view is an error.
#define MSTAGE_REDUCE_EXTREME(name, _Op)                                       \
  template <class _Vp, class... _Out>                                          \
  auto operator()(_Vp &&view, _Out &&...out) const {                           \
    MSTAGE_REDUCE_CHECK_VIEWS(name, _Vp, _Out);                                \
    using _Tp = detail::element_of<_Vp>;                                       \
    static_assert(std::is_invocable_v<std::less<>, const _Tp &, const _Tp &>,  \
                  "mstage: " name ": the element type has no <");              \
    return detail::reduce_impl(name, stream(), view, _Tp{}, false, _Op(),      \
                               detail::identity_fn(), out...);                 \
  }
inline constexpr struct min_fn
    : detail::algorithm_base<min_fn>{
          MSTAGE_REDUCE_EXTREME("min", detail::min_op)} min {};
inline constexpr struct max_fn
    : detail::algorithm_base<max_fn>{
          MSTAGE_REDUCE_EXTREME("max", detail::max_op)} max {};
#undef MSTAGE_REDUCE_EXTREME

// minmax(view[, out]): both, in one pass.
inline constexpr struct minmax_fn : detail::algorithm_base<minmax_fn> {
  template <class _Vp, class... _Out>
  auto operator()(_Vp &&view, _Out &&...out) const {
    MSTAGE_REDUCE_CHECK_VIEWS("minmax", _Vp, _Out);
    using _Tp = detail::element_of<_Vp>;
    static_assert(std::is_invocable_v<std::less<>, const _Tp &, const _Tp &>,
                  "mstage: minmax: the element type has no <");
    return detail::reduce_impl("minmax", stream(), view, minmax_result<_Tp>{},
                               false, detail::minmax_op(), detail::minmax_of(),
                               out...);
  }
} minmax{};

namespace detail {
template <class Pred> struct count_pred {
  Pred pred;
  template <class _Tp> std::size_t operator()(const _Tp &x) const {
    return pred(x) ? 1 : 0;
  }
};
template <class Pred> struct test_pred {
  Pred pred;
  template <class _Tp> bool operator()(const _Tp &x) const {
    return bool(pred(x));
  }
};
} // namespace detail

#define MSTAGE_REDUCE_CHECK_PRED(call, _Vp, Pred, _Out)                        \
  MSTAGE_REDUCE_CHECK_VIEWS(call, _Vp, _Out);                                  \
  MSTAGE_ALGORITHM_CHECK_OP(call, Pred);                                       \
  static_assert(                                                               \
      std::is_invocable_v<const Pred &,                                        \
                          const ::mstage::detail::element_of<_Vp> &>,          \
      "mstage: " call ": the predicate is not callable with the view's "       \
      "element type")

// count_if(view, pred[, out]): how many elements satisfy pred (a size_t).
inline constexpr struct count_if_fn : detail::algorithm_base<count_if_fn> {
  template <class _Vp, class Pred, class... _Out>
  auto operator()(_Vp &&view, Pred pred, _Out &&...out) const {
    MSTAGE_REDUCE_CHECK_PRED("count_if", _Vp, Pred, _Out);
    return detail::reduce_impl("count_if", stream(), view, std::size_t(0), true,
                               std::plus<>(), detail::count_pred<Pred>{pred},
                               out...);
  }
} count_if{};

// any_of(view, pred[, out]) and all_of(view, pred[, out]): false and true for
// an empty view.
inline constexpr struct any_of_fn : detail::algorithm_base<any_of_fn> {
  template <class _Vp, class Pred, class... _Out>
  auto operator()(_Vp &&view, Pred pred, _Out &&...out) const {
    MSTAGE_REDUCE_CHECK_PRED("any_of", _Vp, Pred, _Out);
    return detail::reduce_impl("any_of", stream(), view, false, true,
                               std::logical_or<>(),
                               detail::test_pred<Pred>{pred}, out...);
  }
} any_of{};

inline constexpr struct all_of_fn : detail::algorithm_base<all_of_fn> {
  template <class _Vp, class Pred, class... _Out>
  auto operator()(_Vp &&view, Pred pred, _Out &&...out) const {
    MSTAGE_REDUCE_CHECK_PRED("all_of", _Vp, Pred, _Out);
    return detail::reduce_impl("all_of", stream(), view, true, true,
                               std::logical_and<>(),
                               detail::test_pred<Pred>{pred}, out...);
  }
} all_of{};

} // namespace mstage

#endif
