// mstage's parallel algorithms, as function objects in namespace mstage:
// parallel_for over 1- to 4-dimensional bounds, the reductions (reduce,
// transform_reduce, sum, min, max, minmax, count_if, any_of, all_of), the
// element-wise algorithms (transform, fill, copy, iota), and the scans and
// sorts. Each runs on the current stream, or on s with algo.on(s)(...), on a
// GPU and on the CPU back end alike; docs/algorithms.md describes them.
#ifndef MSTAGE_ALGORITHM_HPP
#define MSTAGE_ALGORITHM_HPP

#include "mstage/algorithm/minloc.hpp"
#include "mstage/algorithm/parallel_for.hpp"
#include "mstage/algorithm/reduce.hpp"
#include "mstage/algorithm/scan.hpp"
#include "mstage/algorithm/sort.hpp"
#include "mstage/algorithm/transform.hpp"
#include "mstage/array.hpp"

#endif
