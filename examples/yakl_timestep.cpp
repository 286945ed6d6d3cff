// A YAKL-style 2-D loop nest with an adaptive time step, the way the seeds
// use YAKL: Fortran-order arrays with lower bounds 1, parallel_for over
// {1, ny} x {1, nx}, and a maxval (mstage::max) of the wave speed that picks
// each step's dt from a CFL condition. The same steps run on the host, and
// the two are compared.
//
// The model: upwind advection of a tracer q by a velocity field (u, v) that
// changes with time, on a periodic ny x nx grid.
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace mstage;

namespace {

constexpr float cfl = 0.5f;
constexpr float dx = 1.0f;

// Fortran order with lower bound 1: element (j, i) is at (j-1) + ny*(i-1).
inline int at(int j, int i, int ny) { return (j - 1) + ny * (i - 1); }

float speed(float u, float v) { return std::fabs(u) + std::fabs(v); }

// The velocity at step t: a rotating shear, so that the largest speed (and
// with it dt) differs from step to step.
void velocity(int ny, int nx, int t, std::vector<float> &u,
              std::vector<float> &v) {
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) {
      u[at(j, i, ny)] = std::sin(0.1f * j + 0.3f * t) * (1.0f + 0.1f * t);
      v[at(j, i, ny)] = std::cos(0.07f * i - 0.2f * t);
    }
}

} // namespace

int main(int argc, char **argv) {
  int ny = argc > 1 ? std::atoi(argv[1]) : 96;
  int nx = argc > 2 ? std::atoi(argv[2]) : 128;
  int steps = argc > 3 ? std::atoi(argv[3]) : 5;

  array<float, 2, fortran> q{"q", {1, ny}, {1, nx}}, qn{"qn", ny, nx},
      u{"u", ny, nx}, v{"v", ny, nx}, wave{"wave", ny, nx};
  std::vector<float> hq(std::size_t(ny) * nx), hu(hq.size()), hv(hq.size());
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i)
      hq[at(j, i, ny)] = std::exp(-0.01f * ((j - ny / 2) * (j - ny / 2) +
                                            (i - nx / 3) * (i - nx / 3)));
  q.from_host(hq);

  auto qv = q.view(), qnv = qn.view(), uv = u.view(), vv = v.view(),
       wv = wave.view();
  bounds<2> cells{{1, ny}, {1, nx}};
  float time = 0, host_time = 0;
  std::vector<float> hqn(hq.size());
  for (int t = 0; t < steps; ++t) {
    velocity(ny, nx, t, hu, hv);
    u.from_host(hu);
    v.from_host(hv);

    // dt from the largest wave speed: maxval, on the device and on the host.
    parallel_for(
        cells,
        [=](int j, int i) {
          wv(j, i) = __builtin_fabsf(uv(j, i)) + __builtin_fabsf(vv(j, i));
        },
        first_fastest);
    float dt = cfl * dx / max(wave);
    float host_max = 0;
    for (std::size_t k = 0; k < hu.size(); ++k)
      host_max = std::max(host_max, speed(hu[k], hv[k]));
    float host_dt = cfl * dx / host_max;

    // One upwind step.
    parallel_for(
        cells,
        [=](int j, int i) {
          int im = i == 1 ? nx : i - 1, ip = i == nx ? 1 : i + 1;
          int jm = j == 1 ? ny : j - 1, jp = j == ny ? 1 : j + 1;
          float a = uv(j, i), b = vv(j, i), c = qv(j, i);
          float fx = a > 0 ? a * (c - qv(j, im)) : a * (qv(j, ip) - c);
          float fy = b > 0 ? b * (c - qv(jm, i)) : b * (qv(jp, i) - c);
          qnv(j, i) = c - dt / dx * (fx + fy);
        },
        first_fastest);
    copy(qn, q);
    time += dt;

    for (int j = 1; j <= ny; ++j)
      for (int i = 1; i <= nx; ++i) {
        int im = i == 1 ? nx : i - 1, ip = i == nx ? 1 : i + 1;
        int jm = j == 1 ? ny : j - 1, jp = j == ny ? 1 : j + 1;
        float a = hu[at(j, i, ny)], b = hv[at(j, i, ny)], c = hq[at(j, i, ny)];
        float fx = a > 0 ? a * (c - hq[at(j, im, ny)])
                         : a * (hq[at(j, ip, ny)] - c);
        float fy = b > 0 ? b * (c - hq[at(jm, i, ny)])
                         : b * (hq[at(jp, i, ny)] - c);
        hqn[at(j, i, ny)] = c - host_dt / dx * (fx + fy);
      }
    hq.swap(hqn);
    host_time += host_dt;
  }

  if (mstage_rt_executes() != 1) {
    std::printf("yakl_timestep: %dx%d compiled to PTX only, result not "
                "checked\n", ny, nx);
    return 0;
  }
  std::vector<float> got = q.to_host();
  double worst = 0;
  for (std::size_t k = 0; k < got.size(); ++k)
    worst = std::max(worst, double(std::fabs(got[k] - hq[k])));
  float total = sum(q);
  bool ok = worst < 1e-4 && std::fabs(time - host_time) < 1e-5f * host_time;
  std::printf("yakl_timestep: %dx%d, %d steps to t=%.6f (host %.6f), sum q "
              "%.4f, largest difference %.2g: %s\n",
              ny, nx, steps, time, host_time, total, worst,
              ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
