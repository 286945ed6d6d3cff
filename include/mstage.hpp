// The mstage user API: single-source GPU kernels written as C++ lambdas.
#ifndef MSTAGE_HPP
#define MSTAGE_HPP

#include "mstage/atomic.hpp"
#include "mstage/bounds_check.hpp"
#include "mstage/cooperative_groups.hpp"
#include "mstage/device.hpp"
#include "mstage/device_arch.hpp"
#include "mstage/device_global.hpp"
#include "mstage/device_heap.hpp"
#include "mstage/device_vector.hpp"
#include "mstage/error.hpp"
#include "mstage/graph.hpp"
#include "mstage/grid_stride_range.hpp"
#include "mstage/half.hpp"
#include "mstage/index.hpp"
#include "mstage/kernel.hpp"
#include "mstage/ldg.hpp"
#include "mstage/managed_vector.hpp"
#include "mstage/mdspan.hpp"
#include "mstage/memcpy_async.hpp"
#include "mstage/nvtx.hpp"
#include "mstage/pinned.hpp"
#include "mstage/shared_memory.hpp"
#include "mstage/stage.hpp"
#include "mstage/stream.hpp"
#include "mstage/vector_types.hpp"
#include "mstage/vector_view.hpp"
#include "mstage/warp.hpp"
#include "mstage/wgmma.hpp"
#include "mstage/wmma.hpp"

// co_await on launches and events, and mstage::task, in C++20 code.
#if defined(__cpp_impl_coroutine) && __has_include(<coroutine>)
#include "mstage/task.hpp"
#endif

// The float overloads of the C math functions in the global namespace
// (exp(float), abs(float)), as CUDA declares them and kernel code expects:
// without them exp(x) of a float is double precision on the GPU and
// abs(x) truncates to int. libstdc++'s <math.h> is <cmath> plus
// `using std::exp;` & co., as for any C++ program that includes it.
#include <math.h>

#endif
