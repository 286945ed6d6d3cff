// What extern_main.cpp and extern_defs.cpp share: the extern declarations
// (extern_defs.cpp defines the variables after them) and its functions.
#include <mstage.hpp>

#include <vector>

namespace app {
#ifdef WRONG_TYPE
extern mstage::device_global<unsigned long> counter; // not the definition's
#else
extern mstage::device_global<unsigned> counter;
#endif
extern mstage::constant<float[8]> coeff;
} // namespace app

void addCoeffHere(std::vector<float> &x);
unsigned counterSeenHere();
