// Thread, block and grid indices, spelled as in PACXX.
#ifndef MSTAGE_INDEX_HPP
#define MSTAGE_INDEX_HPP

#include "mstage/bounds_check.hpp"
#include "mstage/builtins.h"

namespace mstage {

// An x, y, z triple of indices or extents.
struct index3 {
  unsigned x, y, z;
};

struct Thread {
  index3 index;  // position within the block (CUDA threadIdx)
  index3 global; // position within the grid (blockIdx * blockDim + threadIdx)

  static Thread get() {
    index3 tid{__mstage_tid_x(), __mstage_tid_y(), __mstage_tid_z()};
    index3 glb{__mstage_ctaid_x() * __mstage_ntid_x() + tid.x,
               __mstage_ctaid_y() * __mstage_ntid_y() + tid.y,
               __mstage_ctaid_z() * __mstage_ntid_z() + tid.z};
    return Thread{tid, glb};
  }
};

struct Block {
  index3 index; // position within the grid (CUDA blockIdx)
  index3 range; // threads per block (CUDA blockDim)
  index3 size;  // the paper's other spelling of range

  static Block get() {
    index3 idx{__mstage_ctaid_x(), __mstage_ctaid_y(), __mstage_ctaid_z()};
    index3 rng{__mstage_ntid_x(), __mstage_ntid_y(), __mstage_ntid_z()};
    return Block{idx, rng, rng};
  }

  // Barrier for all threads of the block (CUDA __syncthreads); checked in
  // debug builds (mstage/bounds_check.hpp).
  void synchronize(detail::source_place place = detail::source_place()) const {
    detail::block_barrier(place);
  }
};

struct Grid {
  index3 range; // blocks in the grid (CUDA gridDim)

  static Grid get() {
    return Grid{
        {__mstage_nctaid_x(), __mstage_nctaid_y(), __mstage_nctaid_z()}};
  }
};

} // namespace mstage

#endif
