// The layouts of mstage/wgmma.hpp, apart so that the CPU back end's
// emulation (runtime/backends/cpu/CpuWmma.cpp) reads the same ones: the
// 128-byte swizzled K-major tile in shared memory and the accumulator's
// registers.
#ifndef MSTAGE_WGMMA_LAYOUT_HPP
#define MSTAGE_WGMMA_LAYOUT_HPP

namespace mstage::wgmma {

// The halves of a swizzled tile's row, and the k of one mma_async.
inline constexpr unsigned tile_k = 64;
inline constexpr unsigned mma_k = 16;
// The alignment, in bytes, of a tile's start.
inline constexpr unsigned tile_alignment = 1024;

// Where element (row, k) of a swizzled tile is, in halves from its start.
constexpr unsigned swizzled_offset(unsigned _Row, unsigned _Kp) {
  return _Row * tile_k + ((_Kp / 8) ^ (_Row % 8)) * 8 + _Kp % 8;
}

// Where element i of thread t (0 .. 127) of a warpgroup's accumulator is in
// the 64 x N product, as PTX lays out wgmma's D: each warp has 16 rows, and
// each 8 columns, a thread two neighbours in each of two rows 8 apart.
constexpr unsigned accumulator_row(unsigned _Tid, unsigned _Ip) {
  return (_Tid / 32) * 16 + (_Tid % 32) / 4 + 8 * ((_Ip / 2) % 2);
}
constexpr unsigned accumulator_col(unsigned _Tid, unsigned _Ip) {
  return (_Ip / 4) * 8 + (_Tid % 4) * 2 + _Ip % 2;
}

// A 64 x _Np float accumulator (8 <= _Np <= 256, a multiple of 8): _Np / 2
// floats a thread.
template <unsigned _Np> struct accumulator {
  static_assert(_Np >= 8 && _Np <= 256 && _Np % 8 == 0,
                "mstage::wgmma: N is a multiple of 8 from 8 to 256");
  static constexpr unsigned n = _Np;
  static constexpr unsigned num_elements = _Np / 2;
  float x[num_elements] = {};

  // The product's row and column of element i of thread t (0 .. 127).
  static constexpr unsigned row(unsigned _Tid, unsigned _Ip) {
    return accumulator_row(_Tid, _Ip);
  }
  static constexpr unsigned col(unsigned _Tid, unsigned _Ip) {
    return accumulator_col(_Tid, _Ip);
  }
};

} // namespace mstage::wgmma

#endif
