//===- cuda_compat.cpp - GPU suite: <mstage/cuda_compat.hpp> against the host //
//
// CUDA's intrinsics, math overloads, atomics, warp functions and index
// variables, used with CUDA's spelling in kernel lambdas, against references
// that the host computes with std:: functions and CUDA's definitions:
//  - exact: rounded arithmetic (__fmul_rn, ...), conversions with their
//    rounding and saturation (NaN gives 0), bit operations, min/max,
//    __saturatef, abs(float), sqrt(float), and every integer intrinsic;
//  - within CUDA's documented bounds, stated per function below (ULP, or a
//    relative or absolute error where CUDA states one): rsqrtf, __expf,
//    __sinf, __powf, ... On the CPU back end the host's libm answers, well
//    inside the same bounds.
//  - atomics: N threads each add, subtract, count with atomicInc/atomicDec
//    wrapping, and so on; the totals are known in closed form.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>
#include <mstage/cuda_compat.hpp>

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace {

constexpr const char *Name = "cuda_compat";
constexpr unsigned N = 1024, BlockSize = 128;
constexpr float Pi = 3.14159265f;

enum FloatField {
  FRsqrt, FFdivide, FSaturate, FExp, FLog, FSin, FCos, FPow, FMulRn, FAddRn,
  FSubRn, FDivRn, FFmaRn, FRcpRn, FSqrtRn, FRsqrtRn, FTan, FExp10, FLog2,
  FLog10, FTanh, FRcbrt, FNormcdf, FRhypot, FNorm3d, FRnorm3d, FD2F, FI2F,
  FU2F, FBits, FMin, FMax, FSincosSin, FSincosCos, FExpOverload, FAbsOverload,
  FSqrtOverload, FPowOverload, FloatFields
};
enum DoubleField {
  DAddRn, DMulRn, DDivRn, DFmaRn, DSqrtRn, DRcpRn, DRsqrt, DRcbrt, DNormcdf,
  DMin, DoubleFields
};
enum IntField {
  IF2IRn, IF2IRz, IF2IRd, IF2IRu, IF2URn, IF2URz, IF2LLRn, IF2LLRz, ID2IRn,
  ID2IRz, IPopc, IPopcll, IClz, IClzll, IFfs, IFfsll, IBrev, IBrevll, IMulhi,
  IUmulhi, IMul64hi, IUmul64hi, IMul24, IUmul24, ISad, IUsad, IHadd, IRhadd,
  IUhadd, IBytePerm, IMinInt, IMaxUnsigned, IFloatAsInt, IDoubleAsLL,
  IntFields
};

struct Inputs {
  std::vector<float> X, Y, A, P, S, Special;
  std::vector<double> D;
  std::vector<unsigned> U;
};

// Ranges where CUDA states the bounds checked below: X, Y positive, A an
// angle, P an exponent, S around [0, 1] with NaN and infinities, Special
// the conversions' edge cases.
Inputs makeInputs() {
  const float Specials[] = {NAN,        INFINITY,   -INFINITY, 2.5f,  3.5f,
                            -2.5f,      -0.5f,      0.5f,      1e10f, -1e10f,
                            4294967296.0f, 2147483520.0f, -2147483648.0f,
                            0.49999997f, -0.0f, 1.5f};
  Inputs In;
  for (unsigned I = 0; I < N; ++I) {
    float U = float(I) / N; // [0, 1)
    In.X.push_back(0.01f + U * 100.0f);
    In.Y.push_back(0.5f + float((I * 37) % N) / N * 50.0f);
    In.A.push_back((2 * U - 1) * Pi);
    In.P.push_back((2 * U - 1) * 10.0f);
    In.S.push_back(I % 97 == 0   ? NAN
                   : I % 89 == 0 ? INFINITY
                   : I % 83 == 0 ? -INFINITY
                                 : -1.5f + 4 * U);
    In.Special.push_back(I < std::size(Specials)
                             ? Specials[I]
                             : (2 * U - 1) * 3e9f * float((I * 7) % 13) / 13);
    In.D.push_back(1e-3 + U * 1e4 + double(I % 7) / 3);
    In.U.push_back(I == 0 ? 0u : I == 1 ? ~0u : I * 2654435761u);
  }
  return In;
}

struct Outputs {
  std::vector<float> F = std::vector<float>(FloatFields * N);
  std::vector<double> D = std::vector<double>(DoubleFields * N);
  std::vector<long long> I = std::vector<long long>(IntFields * N);
};

Outputs computeOnDevice(const Inputs &In) {
  Outputs Out;
  mstage::kernel(
      [](const auto &X, const auto &Y, const auto &A, const auto &P,
         const auto &S, const auto &Special, const auto &D, const auto &U,
         auto &F, auto &Dbl, auto &Int) {
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
        auto f = [&](int Field) -> float & { return F[Field * N + i]; };
        auto d = [&](int Field) -> double & { return Dbl[Field * N + i]; };
        auto n = [&](int Field) -> long long & { return Int[Field * N + i]; };
        float x = X[i], y = Y[i], a = A[i], p = P[i], s = S[i];
        f(FRsqrt) = rsqrtf(x);
        f(FFdivide) = __fdividef(x, y);
        f(FSaturate) = __saturatef(s);
        f(FExp) = __expf(p);
        f(FLog) = __logf(x);
        f(FSin) = __sinf(a);
        f(FCos) = __cosf(a);
        f(FPow) = __powf(x, p * 0.3f);
        f(FMulRn) = __fmul_rn(x, y);
        f(FAddRn) = __fadd_rn(x, y);
        f(FSubRn) = __fsub_rn(x, y);
        f(FDivRn) = __fdiv_rn(x, y);
        f(FFmaRn) = __fmaf_rn(x, y, a);
        f(FRcpRn) = __frcp_rn(y);
        f(FSqrtRn) = __fsqrt_rn(x);
        f(FRsqrtRn) = __frsqrt_rn(x);
        f(FTan) = __tanf(a * 0.4f);
        f(FExp10) = __exp10f(p * 0.3f);
        f(FLog2) = __log2f(x);
        f(FLog10) = __log10f(x);
        f(FTanh) = __tanhf(p * 0.3f);
        f(FRcbrt) = rcbrtf(x);
        f(FNormcdf) = normcdff(p * 0.3f);
        f(FRhypot) = rhypotf(x, y);
        f(FNorm3d) = norm3df(x, y, a);
        f(FRnorm3d) = rnorm3df(x, y, a);
        f(FD2F) = __double2float_rn(D[i]);
        f(FI2F) = __int2float_rn(int(U[i]));
        f(FU2F) = __uint2float_rn(U[i]);
        f(FBits) = __int_as_float(__float_as_int(x) + 1);
        f(FMin) = min(x, y);
        f(FMax) = max(x, y);
        __sincosf(a, &f(FSincosSin), &f(FSincosCos));
        // The global float overloads of <math.h>'s functions.
        f(FExpOverload) = exp(p);
        f(FAbsOverload) = abs(p);
        f(FSqrtOverload) = sqrt(x);
        f(FPowOverload) = pow(x, p * 0.3f);

        double e = D[i];
        d(DAddRn) = __dadd_rn(e, double(x));
        d(DMulRn) = __dmul_rn(e, double(y));
        d(DDivRn) = __ddiv_rn(e, double(y));
        d(DFmaRn) = __fma_rn(e, double(y), double(a));
        d(DSqrtRn) = __dsqrt_rn(e);
        d(DRcpRn) = __drcp_rn(e);
        d(DRsqrt) = rsqrt(e);
        d(DRcbrt) = rcbrt(e);
        d(DNormcdf) = normcdf(double(p) * 0.3);
        d(DMin) = min(e, double(y));

        float c = Special[i];
        unsigned u = U[i], v = U[(i + 1) % N];
        n(IF2IRn) = __float2int_rn(c);
        n(IF2IRz) = __float2int_rz(c);
        n(IF2IRd) = __float2int_rd(c);
        n(IF2IRu) = __float2int_ru(c);
        n(IF2URn) = __float2uint_rn(c);
        n(IF2URz) = __float2uint_rz(c);
        n(IF2LLRn) = __float2ll_rn(c);
        n(IF2LLRz) = __float2ll_rz(c);
        n(ID2IRn) = __double2int_rn(double(c) * 1.25);
        n(ID2IRz) = __double2int_rz(double(c) * 1.25);
        unsigned long long w = (unsigned long long)u << 32 | v;
        n(IPopc) = __popc(u);
        n(IPopcll) = __popcll(w);
        n(IClz) = __clz(int(u));
        n(IClzll) = __clzll((long long)(u == 0 ? 0 : w));
        n(IFfs) = __ffs(int(u));
        n(IFfsll) = __ffsll((long long)w);
        n(IBrev) = __brev(u);
        n(IBrevll) = (long long)__brevll(w);
        n(IMulhi) = __mulhi(int(u), int(v));
        n(IUmulhi) = __umulhi(u, v);
        n(IMul64hi) = __mul64hi((long long)w, (long long)~w + 12345);
        n(IUmul64hi) = (long long)__umul64hi(w, ~w + 12345);
        n(IMul24) = __mul24(int(u), int(v));
        n(IUmul24) = __umul24(u, v);
        n(ISad) = __sad(int(u), int(v), i);
        n(IUsad) = __usad(u, v, i);
        n(IHadd) = __hadd(int(u), int(v));
        n(IRhadd) = __rhadd(int(u), int(v));
        n(IUhadd) = __uhadd(u, v);
        n(IBytePerm) = __byte_perm(u, v, i * 0x1234567u);
        n(IMinInt) = min(int(u), int(v));
        n(IMaxUnsigned) = max(u, v);
        n(IFloatAsInt) = __float_as_int(x);
        n(IDoubleAsLL) = __double_as_longlong(e);
      },
      N / BlockSize, BlockSize)(In.X, In.Y, In.A, In.P, In.S, In.Special, In.D,
                                In.U, Out.F, Out.D, Out.I);
  return Out;
}

// The distance in units in the last place between two floats of one sign.
long long ulps(double Got, double Want, bool Single) {
  if (std::isnan(Got) || std::isnan(Want))
    return std::isnan(Got) == std::isnan(Want) ? 0 : LLONG_MAX;
  if (Got == Want)
    return 0;
  if (Single) {
    auto Bits = [](float V) {
      int32_t B = std::bit_cast<int32_t>(V);
      return B < 0 ? (long long)INT32_MIN - B : (long long)B;
    };
    return std::llabs(Bits(float(Got)) - Bits(float(Want)));
  }
  auto Bits = [](double V) {
    int64_t B = std::bit_cast<int64_t>(V);
    return B < 0 ? (long long)(INT64_MIN - B) : (long long)B;
  };
  return std::llabs(Bits(Got) - Bits(Want));
}

// How far a result may be from the host's: at most MaxUlps, or within an
// absolute error Abs, or a relative error Rel (CUDA's bounds, as stated in
// the CUDA C++ Programming Guide's tables of accuracy).
struct Bound {
  long long MaxUlps = 0;
  double Abs = 0, Rel = 0;
};

bool within(double Got, double Want, Bound B, bool Single) {
  if (ulps(Got, Want, Single) <= B.MaxUlps)
    return true;
  double Err = std::fabs(Got - Want);
  return Err <= B.Abs || Err <= B.Rel * std::fabs(Want);
}

template <class T, bool FromDouble = false> long long saturated(double V) {
  if (std::isnan(V)) // the GPU's (measured on an H100)
    return (sizeof(T) == 8 || FromDouble) && std::numeric_limits<T>::is_signed
               ? std::numeric_limits<T>::min()
               : 0;
  if (V <= double(std::numeric_limits<T>::min()))
    return std::numeric_limits<T>::min();
  if (V >= double(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return (long long)V;
}

unsigned reverseBits(unsigned long long V, int Bits) {
  unsigned long long R = 0;
  for (int B = 0; B < Bits; ++B)
    R |= (V >> B & 1) << (Bits - 1 - B);
  return unsigned(R);
}

bool checkValues(const Inputs &In, const Outputs &Out) {
  struct FloatCase {
    int Field;
    const char *What;
    float (*Want)(float, float, float, float, float, double, unsigned);
    Bound Limit;
  };
  using std::fabs;
  const double Two20 = std::ldexp(1.0, -20);
  const FloatCase Floats[] = {
      {FRsqrt, "rsqrtf", [](float X, float, float, float, float, double,
                            unsigned) { return float(1 / std::sqrt(double(X))); },
       {2}},
      {FFdivide, "__fdividef",
       [](float X, float Y, float, float, float, double, unsigned) {
         return X / Y;
       },
       {2}},
      {FSaturate, "__saturatef",
       [](float, float, float, float, float S, double, unsigned) {
         return std::isnan(S) ? 0.0f : std::fmin(std::fmax(S, 0.0f), 1.0f);
       },
       {0}},
      // 2 + 1.173 |x| ULP (x up to 10).
      {FExp, "__expf",
       [](float, float, float, float P, float, double, unsigned) {
         return std::exp(P);
       },
       {14}},
      // 2^-21.41 absolute in [0.5, 2], else 3 ULP.
      {FLog, "__logf",
       [](float X, float, float, float, float, double, unsigned) {
         return std::log(X);
       },
       {3, std::ldexp(1.0, -21)}},
      // 2^-21.41 absolute in [-pi, pi].
      {FSin, "__sinf",
       [](float, float, float A, float, float, double, unsigned) {
         return std::sin(A);
       },
       {1, std::ldexp(1.0, -21)}},
      {FCos, "__cosf",
       [](float, float, float A, float, float, double, unsigned) {
         return std::cos(A);
       },
       {1, std::ldexp(1.0, -21)}},
      // exp2(y * log2(x)): __expf's bound with y log2(x) up to 20.
      {FPow, "__powf",
       [](float X, float, float, float P, float, double, unsigned) {
         return float(std::pow(double(X), double(P * 0.3f)));
       },
       {2 + 24 + 8}},
      {FMulRn, "__fmul_rn",
       [](float X, float Y, float, float, float, double, unsigned) {
         return X * Y;
       },
       {0}},
      {FAddRn, "__fadd_rn",
       [](float X, float Y, float, float, float, double, unsigned) {
         return X + Y;
       },
       {0}},
      {FSubRn, "__fsub_rn",
       [](float X, float Y, float, float, float, double, unsigned) {
         return X - Y;
       },
       {0}},
      {FDivRn, "__fdiv_rn",
       [](float X, float Y, float, float, float, double, unsigned) {
         return X / Y;
       },
       {0}},
      {FFmaRn, "__fmaf_rn",
       [](float X, float Y, float A, float, float, double, unsigned) {
         return std::fma(X, Y, A);
       },
       {0}},
      {FRcpRn, "__frcp_rn",
       [](float, float Y, float, float, float, double, unsigned) {
         return 1.0f / Y;
       },
       {0}},
      {FSqrtRn, "__fsqrt_rn",
       [](float X, float, float, float, float, double, unsigned) {
         return std::sqrt(X);
       },
       {0}},
      // Correctly rounded on the GPU; the reference rounds twice.
      {FRsqrtRn, "__frsqrt_rn",
       [](float X, float, float, float, float, double, unsigned) {
         return float(1 / std::sqrt(double(X)));
       },
       {1}},
      // __sinf / __cosf: absolute 2^-21 each, and |tan| < 3.1 here, so
      // |cos| > 0.307: within 2^-21 (1 + 3.1) / 0.307 < 2^-17 absolute.
      {FTan, "__tanf",
       [](float, float, float A, float, float, double, unsigned) {
         return std::tan(A * 0.4f);
       },
       {2, std::ldexp(1.0, -17)}},
      {FExp10, "__exp10f",
       [](float, float, float, float P, float, double, unsigned) {
         return float(std::pow(10.0, double(P * 0.3f)));
       },
       {2 + 12}},
      // 2^-22 absolute in [0.5, 2], else 2 ULP.
      {FLog2, "__log2f",
       [](float X, float, float, float, float, double, unsigned) {
         return std::log2(X);
       },
       {2, std::ldexp(1.0, -22)}},
      {FLog10, "__log10f",
       [](float X, float, float, float, float, double, unsigned) {
         return std::log10(X);
       },
       {3, std::ldexp(1.0, -21)}},
      // 2^-10.987 relative.
      {FTanh, "__tanhf",
       [](float, float, float, float P, float, double, unsigned) {
         return std::tanh(P * 0.3f);
       },
       {1, 0, std::ldexp(1.0, -10)}},
      {FRcbrt, "rcbrtf",
       [](float X, float, float, float, float, double, unsigned) {
         return float(1 / std::cbrt(double(X)));
       },
       {1 + 1}},
      {FNormcdf, "normcdff",
       [](float, float, float, float P, float, double, unsigned) {
         return float(0.5 * std::erfc(-double(P * 0.3f) / std::sqrt(2.0)));
       },
       {5 + 1}},
      {FRhypot, "rhypotf",
       [](float X, float Y, float, float, float, double, unsigned) {
         return float(1 / std::hypot(double(X), double(Y)));
       },
       {2 + 1}},
      {FNorm3d, "norm3df",
       [](float X, float Y, float A, float, float, double, unsigned) {
         return float(std::hypot(double(X), double(Y), double(A)));
       },
       {3 + 1}},
      {FRnorm3d, "rnorm3df",
       [](float X, float Y, float A, float, float, double, unsigned) {
         return float(1 / std::hypot(double(X), double(Y), double(A)));
       },
       {3 + 1}},
      {FD2F, "__double2float_rn",
       [](float, float, float, float, float, double D, unsigned) {
         return float(D);
       },
       {0}},
      {FI2F, "__int2float_rn",
       [](float, float, float, float, float, double, unsigned U) {
         return float(int(U));
       },
       {0}},
      {FU2F, "__uint2float_rn",
       [](float, float, float, float, float, double, unsigned U) {
         return float(U);
       },
       {0}},
      {FBits, "__int_as_float(__float_as_int(x) + 1)",
       [](float X, float, float, float, float, double, unsigned) {
         return std::nextafter(X, INFINITY);
       },
       {0}},
      {FMin, "min(float, float)",
       [](float X, float Y, float, float, float, double, unsigned) {
         return std::fmin(X, Y);
       },
       {0}},
      {FMax, "max(float, float)",
       [](float X, float Y, float, float, float, double, unsigned) {
         return std::fmax(X, Y);
       },
       {0}},
      {FSincosSin, "__sincosf (sin)",
       [](float, float, float A, float, float, double, unsigned) {
         return std::sin(A);
       },
       {1, std::ldexp(1.0, -21)}},
      {FSincosCos, "__sincosf (cos)",
       [](float, float, float A, float, float, double, unsigned) {
         return std::cos(A);
       },
       {1, std::ldexp(1.0, -21)}},
      // expf: 2 ULP.
      {FExpOverload, "exp(float)",
       [](float, float, float, float P, float, double, unsigned) {
         return float(std::exp(double(P)));
       },
       {2}},
      {FAbsOverload, "abs(float)",
       [](float, float, float, float P, float, double, unsigned) {
         return std::fabs(P);
       },
       {0}},
      {FSqrtOverload, "sqrt(float)",
       [](float X, float, float, float, float, double, unsigned) {
         return std::sqrt(X);
       },
       {0}},
      // powf: 4 ULP.
      {FPowOverload, "pow(float, float)",
       [](float X, float, float, float P, float, double, unsigned) {
         return float(std::pow(double(X), double(P * 0.3f)));
       },
       {4}},
  };
  (void)Two20;
  static_assert(std::size(Floats) == FloatFields, "one case per field");
  for (const FloatCase &C : Floats)
    for (unsigned I = 0; I < N; ++I) {
      float Want = C.Want(In.X[I], In.Y[I], In.A[I], In.P[I], In.S[I], In.D[I],
                          In.U[I]);
      float Got = Out.F[C.Field * N + I];
      if (!within(Got, Want, C.Limit, true)) {
        std::printf("FAIL %s: %s[%u] = %.9g, host %.9g (%lld ULP)\n", Name,
                    C.What, I, Got, Want, ulps(Got, Want, true));
        return false;
      }
    }

  struct DoubleCase {
    int Field;
    const char *What;
    double (*Want)(double, float, float, float, float);
    long long MaxUlps;
  };
  const DoubleCase Doubles[] = {
      {DAddRn, "__dadd_rn",
       [](double E, float X, float, float, float) { return E + X; }, 0},
      {DMulRn, "__dmul_rn",
       [](double E, float, float Y, float, float) { return E * Y; }, 0},
      {DDivRn, "__ddiv_rn",
       [](double E, float, float Y, float, float) { return E / Y; }, 0},
      {DFmaRn, "__fma_rn",
       [](double E, float, float Y, float A, float) {
         return std::fma(E, double(Y), double(A));
       },
       0},
      {DSqrtRn, "__dsqrt_rn",
       [](double E, float, float, float, float) { return std::sqrt(E); }, 0},
      {DRcpRn, "__drcp_rn",
       [](double E, float, float, float, float) { return 1 / E; }, 0},
      // rsqrt, rcbrt: 1 ULP; normcdf: 5 ULP, and the erfc argument is
      // rounded differently here (x / sqrt(2), not x * 0.7071...) and
      // erfc magnifies that in the tail: 64.
      {DRsqrt, "rsqrt",
       [](double E, float, float, float, float) { return 1 / std::sqrt(E); },
       2},
      {DRcbrt, "rcbrt",
       // 1 ULP, and the reference's cbrt (1 ULP) and division (another).
       [](double E, float, float, float, float) { return 1 / std::cbrt(E); },
       1 + 1 + 1 + 1},
      {DNormcdf, "normcdf",
       [](double, float, float, float, float P) {
         return 0.5 * std::erfc(-double(P) * 0.3 / std::sqrt(2.0));
       },
       64},
      {DMin, "min(double, double)",
       [](double E, float, float Y, float, float) {
         return std::fmin(E, double(Y));
       },
       0},
  };
  static_assert(std::size(Doubles) == DoubleFields, "one case per field");
  for (const DoubleCase &C : Doubles)
    for (unsigned I = 0; I < N; ++I) {
      double Want = C.Want(In.D[I], In.X[I], In.Y[I], In.A[I], In.P[I]);
      double Got = Out.D[C.Field * N + I];
      if (ulps(Got, Want, false) > C.MaxUlps) {
        std::printf("FAIL %s: %s[%u] = %.17g, host %.17g\n", Name, C.What, I,
                    Got, Want);
        return false;
      }
    }

  for (unsigned I = 0; I < N; ++I) {
    float C = In.Special[I];
    double C125 = double(C) * 1.25;
    unsigned U = In.U[I], V = In.U[(I + 1) % N];
    unsigned long long W = (unsigned long long)U << 32 | V;
    unsigned long long W2 = ~W + 12345;
    unsigned Sel = I * 0x1234567u;
    auto Sext24 = [](unsigned A) { return (long long)(int32_t(A << 8) >> 8); };
    unsigned long long Perm = (unsigned long long)V << 32 | U;
    unsigned BytePerm = 0;
    for (int B = 0; B < 4; ++B)
      BytePerm |= unsigned(Perm >> 8 * (Sel >> 4 * B & 7) & 0xff) << 8 * B;
    const long long Want[IntFields] = {
        saturated<int>(std::nearbyint(C)),
        saturated<int>(std::trunc(C)),
        saturated<int>(std::floor(C)),
        saturated<int>(std::ceil(C)),
        saturated<unsigned>(std::nearbyint(C)),
        saturated<unsigned>(std::trunc(C)),
        saturated<long long>(std::nearbyint(C)),
        saturated<long long>(std::trunc(C)),
        saturated<int, true>(std::nearbyint(C125)),
        saturated<int, true>(std::trunc(C125)),
        std::popcount(U),
        std::popcount(W),
        std::countl_zero(U),
        U == 0 ? 64 : std::countl_zero(W),
        U == 0 ? 0 : std::countr_zero(U) + 1,
        W == 0 ? 0 : std::countr_zero(W) + 1,
        reverseBits(U, 32),
        (long long)(reverseBits(W >> 32, 32) |
                    (unsigned long long)reverseBits(W, 32) << 32),
        (long long)int((int64_t(int(U)) * int(V)) >> 32),
        (long long)((uint64_t(U) * V) >> 32),
        (long long)(int64_t)((__int128)(int64_t)W * (int64_t)W2 >> 64),
        (long long)(uint64_t)((unsigned __int128)W * W2 >> 64),
        (long long)int32_t(uint32_t(Sext24(U) * Sext24(V))),
        (long long)((U & 0xffffff) * (V & 0xffffff)),
        (long long)unsigned(I + unsigned(std::llabs((long long)int(U) -
                                                    (long long)int(V)))),
        (long long)unsigned(I + (U > V ? U - V : V - U)),
        (long long)int(((long long)int(U) + int(V)) >> 1),
        (long long)int(((long long)int(U) + int(V) + 1) >> 1),
        (long long)unsigned(((unsigned long long)U + V) >> 1),
        BytePerm,
        std::min(int(U), int(V)),
        std::max(U, V),
        std::bit_cast<int32_t>(In.X[I]),
        std::bit_cast<int64_t>(In.D[I]),
    };
    for (int F = 0; F < IntFields; ++F)
      if (Out.I[F * N + I] != Want[F]) {
        std::printf("FAIL %s: integer field %d at %u: %lld, host %lld "
                    "(input %.9g, %#x, %#x)\n",
                    Name, F, I, Out.I[F * N + I], Want[F], C, U, V);
        return false;
      }
  }
  return true;
}

// Atomics, index variables, barriers and warp functions.
bool checkThreads() {
  constexpr unsigned Blocks = N / BlockSize;
  std::vector<float> FSum(1);
  std::vector<int> Ints(8);
  Ints[6] = -1; // atomicAnd clears every bit
  std::vector<unsigned> Counters(6);
  std::vector<unsigned> PerBlock(Blocks);
  std::vector<unsigned> Index(N), Reversed(N), WarpSum(N), Ballot(N), Votes(N),
      Shuffled(N), Loaded(N);
  std::vector<unsigned> Source(N);
  for (unsigned I = 0; I < N; ++I)
    Source[I] = I * 7 + 1;
  mstage::kernel(
      [](auto &FSum, auto &Ints, auto &Counters, auto &PerBlock, auto &Index,
         auto &Reversed, auto &WarpSum, auto &Ballot, auto &Votes,
         auto &Shuffled, auto &Loaded, const auto &Source) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        atomicAdd(&FSum[0], 1.0f);
        atomicSub(&Ints[0], 2);
        atomicMax(&Ints[1], i);
        atomicMin(&Ints[2], -i);
        // One value from every thread: a result that does not depend on the
        // threads' order, which MSTAGE_CHECK=cpu compares with the CPU's.
        atomicExch(&Ints[3], 5);
        atomicOr(&Ints[4], 1 << (i % 32));
        atomicXor(&Ints[5], i);
        atomicAnd(&Ints[6], ~(1 << (i % 32)));
        int Seen = Ints[7];
        for (;;) { // a counter by compare-and-swap
          int Old = atomicCAS(&Ints[7], Seen, Seen + 1);
          if (Old == Seen)
            break;
          Seen = Old;
        }
        atomicInc(&Counters[0], 99u);
        atomicDec(&Counters[1], 99u);
        atomicAdd_block(&PerBlock[blockIdx.x], 1u);
        Index[i] = blockIdx.x * 1000000 + gridDim.x * 1000 + threadIdx.x;

        mstage::shared_array<unsigned, BlockSize> Tile;
        Tile[threadIdx.x] = unsigned(i);
        __syncthreads();
        Reversed[i] = Tile[blockDim.x - 1 - threadIdx.x];

        unsigned Sum = unsigned(i);
        for (int Delta = 16; Delta > 0; Delta /= 2)
          Sum += __shfl_down_sync(0xffffffffu, Sum, unsigned(Delta));
        unsigned All = unsigned(i);
        for (int Mask = 16; Mask > 0; Mask /= 2)
          All += __shfl_xor_sync(0xffffffffu, All, Mask);
        WarpSum[i] = (threadIdx.x % warpSize == 0 ? Sum : 0) + All * 2;
        Ballot[i] = __ballot_sync(0xffffffffu, i % 2);
        Votes[i] = __any_sync(0xffffffffu, i % 32 == 5) * 1 +
                   __all_sync(0xffffffffu, i >= 0) * 2 +
                   __all_sync(0xffffffffu, i % 32 != 5) * 4 +
                   (__activemask() == 0xffffffffu) * 8;
        Shuffled[i] = __shfl_sync(0xffffffffu, unsigned(i), 3) * 1000 +
                      __shfl_up_sync(0xffffffffu, unsigned(i), 1u);
        Loaded[i] = __ldg(&Source[(i * 5) % N]);
        __syncwarp();
      },
      Blocks, BlockSize)(FSum, Ints, Counters, PerBlock, Index, Reversed,
                         WarpSum, Ballot, Votes, Shuffled, Loaded, Source);

  int Xor = 0;
  for (unsigned I = 0; I < N; ++I)
    Xor ^= int(I);
  auto Fail = [](const char *What, long long Got, long long Want) {
    std::printf("FAIL %s: %s = %lld, want %lld\n", Name, What, Got, Want);
    return false;
  };
  if (FSum[0] != float(N))
    return Fail("atomicAdd(float) total", (long long)FSum[0], N);
  const long long WantInts[8] = {-2LL * N, N - 1, -(long long)(N - 1), 0,
                                 -1,       Xor,   0,                   N};
  const char *IntNames[8] = {"atomicSub", "atomicMax", "atomicMin",
                             "atomicExch", "atomicOr", "atomicXor",
                             "atomicAnd", "atomicCAS counter"};
  for (int K = 0; K < 8; ++K)
    if (K == 3 ? Ints[3] != 5 : Ints[K] != WantInts[K])
      return Fail(IntNames[K], Ints[K], WantInts[K]);
  // Inc wraps to 0 past 99; dec from 0 wraps to 99.
  if (Counters[0] != N % 100)
    return Fail("atomicInc(limit 99)", Counters[0], N % 100);
  if (Counters[1] != (100 - N % 100) % 100)
    return Fail("atomicDec(limit 99)", Counters[1], (100 - N % 100) % 100);
  for (unsigned B = 0; B < Blocks; ++B)
    if (PerBlock[B] != BlockSize)
      return Fail("atomicAdd_block per block", PerBlock[B], BlockSize);
  for (unsigned I = 0; I < N; ++I) {
    unsigned Block = I / BlockSize, Thread = I % BlockSize;
    unsigned Warp = I / 32 * 32, Lane = I % 32;
    unsigned WarpTotal = 0;
    for (unsigned L = 0; L < 32; ++L)
      WarpTotal += Warp + L;
    if (Index[I] != Block * 1000000 + Blocks * 1000 + Thread)
      return Fail("blockIdx, gridDim, threadIdx", Index[I],
                  Block * 1000000 + Blocks * 1000 + Thread);
    if (Reversed[I] != Block * BlockSize + BlockSize - 1 - Thread)
      return Fail("shared tile after __syncthreads", Reversed[I],
                  Block * BlockSize + BlockSize - 1 - Thread);
    if (WarpSum[I] != (Lane == 0 ? WarpTotal : 0) + WarpTotal * 2)
      return Fail("__shfl_down_sync/__shfl_xor_sync sums", WarpSum[I],
                  (Lane == 0 ? WarpTotal : 0) + WarpTotal * 2);
    if (Ballot[I] != 0xaaaaaaaau)
      return Fail("__ballot_sync", Ballot[I], 0xaaaaaaaau);
    if (Votes[I] != 1 + 2 + 0 + 8)
      return Fail("__any_sync/__all_sync/__activemask", Votes[I], 11);
    unsigned WantShuffled = (Warp + 3) * 1000 + (Lane == 0 ? I : I - 1);
    if (Shuffled[I] != WantShuffled)
      return Fail("__shfl_sync/__shfl_up_sync", Shuffled[I], WantShuffled);
    if (Loaded[I] != Source[(I * 5) % N])
      return Fail("__ldg", Loaded[I], Source[(I * 5) % N]);
  }
  return true;
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  Inputs In = makeInputs();
  if (!checkValues(In, computeOnDevice(In)) || !checkThreads())
    return 1;
  std::printf("PASS %s: %u inputs, %d float, %d double and %d integer "
              "functions within CUDA's bounds; atomics, index variables, "
              "__syncthreads and warp functions%s\n",
              Name, N, int(FloatFields), int(DoubleFields), int(IntFields),
              onCpu() ? " (CPU back end)" : "");
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
