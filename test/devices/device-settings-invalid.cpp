// MSTAGE_VISIBLE_DEVICES and MSTAGE_PEER_ACCESS are checked on every back
// end: a value that is not a list of distinct device numbers, or not a
// boolean, leaves no device, and devices() and launches fail saying which
// setting is wrong. A valid list is accepted on the CPU back end, which
// still has one device.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_VISIBLE_DEVICES=1,x %t 2>&1 | FileCheck %s --check-prefix=WORD
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_VISIBLE_DEVICES=0,1,0 %t 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_VISIBLE_DEVICES=0, %t 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_PEER_ACCESS=maybe %t 2>&1 | FileCheck %s --check-prefix=PEER
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_VISIBLE_DEVICES=1,0 MSTAGE_PEER_ACCESS=0 %t 2>&1 | FileCheck %s --check-prefix=VALID
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>

int main() {
  try {
    std::printf("devices: %zu\n", mstage::devices().size());
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  try {
    mstage::device_vector<int> V(4, 0);
    mstage::kernel([](auto &V) { V[0] = 1; }, 1, 1)(V);
    std::printf("launched: %d\n", V.get(0));
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
}

// WORD: mstage: no device: MSTAGE_VISIBLE_DEVICES='1,x' is not a list of device numbers such as 0,1
// WORD: mstage: MSTAGE_VISIBLE_DEVICES='1,x' is not a list of device numbers such as 0,1
// TWICE: mstage: no device: MSTAGE_VISIBLE_DEVICES='0,1,0' is not a list of distinct device numbers (0 is repeated)
// EMPTY: mstage: no device: MSTAGE_VISIBLE_DEVICES='0,' is not a list of device numbers such as 0,1
// PEER: mstage: no device: MSTAGE_PEER_ACCESS='maybe' is not a boolean
// VALID: devices: 1
// VALID: launched: 1
