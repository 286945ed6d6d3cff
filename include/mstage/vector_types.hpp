// CUDA's vector types: mstage::float2, float4, int2, uchar4, ... with
// CUDA's members (x, y, z, w), sizes and alignments (vector_types.h), and
// its make_ helpers (make_float4(x, y, z, w)). For each of char, uchar,
// short, ushort, int, uint, long, ulong, longlong, ulonglong, float and
// double there are the 1- to 4-element types. The alignment is what lets
// the device load one with a single vector instruction (ld.global.v4.f32
// for a float4), so it must be CUDA's:
//
//   2 elements: twice the element (float2 8, int2 8, short2 4, double2 16)
//   4 elements: four times the element, at most 16 (float4 16, uchar4 4,
//               short4 8, double4 16 with size 32, as CUDA's double4_16a)
//   1 and 3:    the element's own (float3 is 12 bytes, aligned to 4)
//
// They are aggregates (float4{1, 2, 3, 4} works) and trivially copyable, on
// the host and in kernels alike. CUDA's headers give them no arithmetic; here
// two of the same type have element-wise +, - and *, and == and !=, and
// nothing more (no scalar operands, no dot products: write them out).
#ifndef MSTAGE_VECTOR_TYPES_HPP
#define MSTAGE_VECTOR_TYPES_HPP

namespace mstage {

// One N-element type: the struct, make_<name>N and its operators. The
// element casts bring back types that the arithmetic promoted (char + char
// is an int).
#define MSTAGE_VECTOR_OPS(_Vp, _Tp, ...)                                       \
  constexpr _Vp operator+(const _Vp &_Ap, const _Vp &_Bp) {                    \
    return _Vp{MSTAGE_VECTOR_MAP(_Tp, +, __VA_ARGS__)};                        \
  }                                                                            \
  constexpr _Vp operator-(const _Vp &_Ap, const _Vp &_Bp) {                    \
    return _Vp{MSTAGE_VECTOR_MAP(_Tp, -, __VA_ARGS__)};                        \
  }                                                                            \
  constexpr _Vp operator*(const _Vp &_Ap, const _Vp &_Bp) {                    \
    return _Vp{MSTAGE_VECTOR_MAP(_Tp, *, __VA_ARGS__)};                        \
  }                                                                            \
  constexpr _Vp &operator+=(_Vp &_Ap, const _Vp &_Bp) {                        \
    return _Ap = _Ap + _Bp;                                                    \
  }                                                                            \
  constexpr _Vp &operator-=(_Vp &_Ap, const _Vp &_Bp) {                        \
    return _Ap = _Ap - _Bp;                                                    \
  }                                                                            \
  constexpr _Vp &operator*=(_Vp &_Ap, const _Vp &_Bp) {                        \
    return _Ap = _Ap * _Bp;                                                    \
  }                                                                            \
  constexpr bool operator==(const _Vp &_Ap, const _Vp &_Bp) {                  \
    return MSTAGE_VECTOR_ALL(__VA_ARGS__);                                     \
  }                                                                            \
  constexpr bool operator!=(const _Vp &_Ap, const _Vp &_Bp) {                  \
    return !(_Ap == _Bp);                                                      \
  }

#define MSTAGE_VECTOR_MAP1(_Tp, _Op, _Xp) static_cast<_Tp>(_Ap._Xp _Op _Bp._Xp)
#define MSTAGE_VECTOR_MAP(_Tp, _Op, ...)                                       \
  MSTAGE_VECTOR_MAP_N(__VA_ARGS__, MSTAGE_VECTOR_MAP_4, MSTAGE_VECTOR_MAP_3,   \
                      MSTAGE_VECTOR_MAP_2, MSTAGE_VECTOR_MAP_1)                \
  (_Tp, _Op, __VA_ARGS__)
#define MSTAGE_VECTOR_MAP_N(_1, _2, _3, _4, _Mp, ...) _Mp
#define MSTAGE_VECTOR_MAP_1(_Tp, _Op, _Xp) MSTAGE_VECTOR_MAP1(_Tp, _Op, _Xp)
#define MSTAGE_VECTOR_MAP_2(_Tp, _Op, _Xp, _Yp)                                \
  MSTAGE_VECTOR_MAP1(_Tp, _Op, _Xp), MSTAGE_VECTOR_MAP1(_Tp, _Op, _Yp)
#define MSTAGE_VECTOR_MAP_3(_Tp, _Op, _Xp, _Yp, _Zp)                           \
  MSTAGE_VECTOR_MAP_2(_Tp, _Op, _Xp, _Yp), MSTAGE_VECTOR_MAP1(_Tp, _Op, _Zp)
#define MSTAGE_VECTOR_MAP_4(_Tp, _Op, _Xp, _Yp, _Zp, _Wp)                      \
  MSTAGE_VECTOR_MAP_3(_Tp, _Op, _Xp, _Yp, _Zp),                                \
      MSTAGE_VECTOR_MAP1(_Tp, _Op, _Wp)
#define MSTAGE_VECTOR_ALL(...)                                                 \
  MSTAGE_VECTOR_MAP_N(__VA_ARGS__, MSTAGE_VECTOR_ALL_4, MSTAGE_VECTOR_ALL_3,   \
                      MSTAGE_VECTOR_ALL_2, MSTAGE_VECTOR_ALL_1)                \
  (__VA_ARGS__)
#define MSTAGE_VECTOR_ALL_1(_Xp) (_Ap._Xp == _Bp._Xp)
#define MSTAGE_VECTOR_ALL_2(_Xp, _Yp) (_Ap._Xp == _Bp._Xp && _Ap._Yp == _Bp._Yp)
#define MSTAGE_VECTOR_ALL_3(_Xp, _Yp, _Zp)                                     \
  (MSTAGE_VECTOR_ALL_2(_Xp, _Yp) && _Ap._Zp == _Bp._Zp)
#define MSTAGE_VECTOR_ALL_4(_Xp, _Yp, _Zp, _Wp)                                \
  (MSTAGE_VECTOR_ALL_3(_Xp, _Yp, _Zp) && _Ap._Wp == _Bp._Wp)

#define MSTAGE_VECTOR_TYPES(Name, _Tp, _A1, _A2, _A3, _A4)                     \
  struct alignas(_A1) Name##1 { _Tp x; };                                      \
  struct alignas(_A2) Name##2 { _Tp x, y; };                                   \
  struct alignas(_A3) Name##3 { _Tp x, y, z; };                                \
  struct alignas(_A4) Name##4 { _Tp x, y, z, w; };                             \
  constexpr Name##1 make_##Name##1(_Tp _Xp) { return Name##1 {_Xp}; }          \
  constexpr Name##2 make_##Name##2(_Tp _Xp, _Tp _Yp) {                         \
    return Name##2 {_Xp, _Yp};                                                 \
  }                                                                            \
  constexpr Name##3 make_##Name##3(_Tp _Xp, _Tp _Yp, _Tp _Zp) {                \
    return Name##3 {_Xp, _Yp, _Zp};                                            \
  }                                                                            \
  constexpr Name##4 make_##Name##4(_Tp _Xp, _Tp _Yp, _Tp _Zp, _Tp _Wp) {       \
    return Name##4 {_Xp, _Yp, _Zp, _Wp};                                       \
  }                                                                            \
  MSTAGE_VECTOR_OPS(Name##1, _Tp, x)                                           \
  MSTAGE_VECTOR_OPS(Name##2, _Tp, x, y)                                        \
  MSTAGE_VECTOR_OPS(Name##3, _Tp, x, y, z)                                     \
  MSTAGE_VECTOR_OPS(Name##4, _Tp, x, y, z, w)

// Alignments from CUDA's vector_types.h (LP64: long is 8 bytes).
MSTAGE_VECTOR_TYPES(char, signed char, 1, 2, 1, 4)
MSTAGE_VECTOR_TYPES(uchar, unsigned char, 1, 2, 1, 4)
MSTAGE_VECTOR_TYPES(short, short, 2, 4, 2, 8)
MSTAGE_VECTOR_TYPES(ushort, unsigned short, 2, 4, 2, 8)
MSTAGE_VECTOR_TYPES(int, int, 4, 8, 4, 16)
MSTAGE_VECTOR_TYPES(uint, unsigned int, 4, 8, 4, 16)
MSTAGE_VECTOR_TYPES(long, long, 8, 16, 8, 16)
MSTAGE_VECTOR_TYPES(ulong, unsigned long, 8, 16, 8, 16)
MSTAGE_VECTOR_TYPES(longlong, long long, 8, 16, 8, 16)
MSTAGE_VECTOR_TYPES(ulonglong, unsigned long long, 8, 16, 8, 16)
MSTAGE_VECTOR_TYPES(float, float, 4, 8, 4, 16)
MSTAGE_VECTOR_TYPES(double, double, 8, 16, 8, 16)

#undef MSTAGE_VECTOR_TYPES
#undef MSTAGE_VECTOR_OPS
#undef MSTAGE_VECTOR_MAP1
#undef MSTAGE_VECTOR_MAP
#undef MSTAGE_VECTOR_MAP_N
#undef MSTAGE_VECTOR_MAP_1
#undef MSTAGE_VECTOR_MAP_2
#undef MSTAGE_VECTOR_MAP_3
#undef MSTAGE_VECTOR_MAP_4
#undef MSTAGE_VECTOR_ALL
#undef MSTAGE_VECTOR_ALL_1
#undef MSTAGE_VECTOR_ALL_2
#undef MSTAGE_VECTOR_ALL_3
#undef MSTAGE_VECTOR_ALL_4

} // namespace mstage

#endif
