// The n-body step of Listing5.h on the CPU, in double precision: the
// reference that examples/nbody.cpp and the benchmarks check against.
#ifndef MSTAGE_EXAMPLES_NBODYREFERENCE_H
#define MSTAGE_EXAMPLES_NBODYREFERENCE_H

#include "Listing5.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

// MSTAGE_CHECK=cpu compares bodies as four floats each, with its tolerance.
template <> struct mstage::check_as<data_t> { using type = float; };

// N bodies at random in [-1, 1)^3, with masses in [0.5, 1.5) and small
// velocities: the same bodies (seed 42) in every program that uses them.
inline void randomBodies(size_t N, std::vector<data_t> &Pos,
                         std::vector<data_t> &Vel) {
  std::mt19937 Gen(42);
  std::uniform_real_distribution<float> Coord(-1.0f, 1.0f), Mass(0.5f, 1.5f);
  Pos.resize(N);
  Vel.resize(N);
  for (size_t I = 0; I < N; ++I) {
    Pos[I] = {Coord(Gen), Coord(Gen), Coord(Gen), Mass(Gen)};
    Vel[I] = {Coord(Gen) * 0.1f, Coord(Gen) * 0.1f, Coord(Gen) * 0.1f, 0};
  }
}

// One body against all, in double precision, for the check.
inline data_t referenceBody(const std::vector<data_t> &Pos,
                            const std::vector<data_t> &Vel, size_t I,
                            data_t &V) {
  const double Eps2 = 0.00125f;
  double Ax = 0, Ay = 0, Az = 0;
  for (const data_t &E : Pos) {
    double Rx = double(Pos[I].x) - E.x, Ry = double(Pos[I].y) - E.y,
           Rz = double(Pos[I].z) - E.z;
    double Rw = 1.0 / std::sqrt(Rx * Rx + Ry * Ry + Rz * Rz + Eps2);
    double Aw = double(G) * E.w * Rw * Rw * Rw;
    Ax += Aw * Rx, Ay += Aw * Ry, Az += Aw * Rz;
  }
  data_t P = Pos[I];
  V = Vel[I];
  P.x = float(P.x + V.x * double(dt) + Ax * 0.5 * dt * dt);
  P.y = float(P.y + V.y * double(dt) + Ay * 0.5 * dt * dt);
  P.z = float(P.z + V.z * double(dt) + Az * 0.5 * dt * dt);
  V.x = float(V.x + Ax * dt), V.y = float(V.y + Ay * dt),
  V.z = float(V.z + Az * dt);
  return P;
}

// The worst error of one step's NPos and NVel, from Pos and Vel, against
// referenceBody, over every Stride-th body: relative, with magnitudes below
// 1e-3 counted as 1e-3. NaN counts as the worst. WorstAt receives its body.
inline double worstNbodyError(const std::vector<data_t> &Pos,
                              const std::vector<data_t> &Vel,
                              const std::vector<data_t> &NPos,
                              const std::vector<data_t> &NVel, size_t Stride,
                              size_t &WorstAt) {
  double Worst = 0;
  WorstAt = 0;
  for (size_t I = 0; I < Pos.size(); I += Stride) {
    data_t V;
    data_t P = referenceBody(Pos, Vel, I, V);
    const float Got[] = {NPos[I].x, NPos[I].y, NPos[I].z,
                         NVel[I].x, NVel[I].y, NVel[I].z};
    const float Want[] = {P.x, P.y, P.z, V.x, V.y, V.z};
    for (int C = 0; C < 6; ++C) {
      double Err = std::fabs(double(Got[C]) - Want[C]) /
                   std::max(1e-3, std::fabs(double(Want[C])));
      if (!(Err <= Worst))
        Worst = std::isnan(Err) ? INFINITY : Err, WorstAt = I;
    }
  }
  return Worst;
}

#endif
