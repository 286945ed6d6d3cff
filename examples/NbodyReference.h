// The n-body step of Listing5.h on the CPU, in double precision: the
// reference that examples/nbody.cpp and the benchmarks check against.
#ifndef MSTAGE_EXAMPLES_NBODYREFERENCE_H
#define MSTAGE_EXAMPLES_NBODYREFERENCE_H

#include "Listing5.h"

#include <cmath>
#include <vector>

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

#endif
