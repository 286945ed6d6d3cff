//===- LittleEndian.h - Fields of binary formats, for the tests -*- C++ -*-===//
//
// The unit tests of the binary formats build and inspect bytes field by
// field, little-endian as the formats are, independently of their code.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_UNITTESTS_LITTLEENDIAN_H
#define MSTAGE_UNITTESTS_LITTLEENDIAN_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace mstage::test {

// The Bytes-byte field at At.
inline uint64_t getLE(const std::string &B, size_t At, unsigned Bytes) {
  uint64_t V = 0;
  for (unsigned I = 0; I < Bytes; ++I)
    V |= uint64_t(uint8_t(B[At + I])) << (8 * I);
  return V;
}

// Writes V as the Bytes-byte field at At.
inline void putLE(std::string &B, size_t At, uint64_t V, unsigned Bytes) {
  for (unsigned I = 0; I < Bytes; ++I)
    B[At + I] = char(V >> (8 * I));
}

// Appends V as a Bytes-byte field.
inline void appendLE(std::string &B, uint64_t V, unsigned Bytes) {
  B.append(Bytes, '\0');
  putLE(B, B.size() - Bytes, V, Bytes);
}

} // namespace mstage::test

#endif
