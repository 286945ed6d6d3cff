#include <mstage.hpp>
#include <vector>

#ifndef SCALE
#define SCALE 1
#endif

void scale_all(std::vector<float> &v);
void shift_all(std::vector<float> &v);
