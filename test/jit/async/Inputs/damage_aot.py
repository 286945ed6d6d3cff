"""Damages the first ahead-of-time image of a program in place.

usage: damage_aot.py FILE MODE, where MODE is one of
  payload   one byte of the payload flipped (its checksum no longer fits)
  foreign   the image's KernelsHash changed (an image of other kernels)

The header layout is passes/formats/AotImage.cpp's: magic[8], version u32,
header size u32, total size u64, kind u32, kernels u32, arch[16], kernels hash
u64, names offset u64, names size u64, payload offset u64, payload size u64,
payload hash u64; little-endian.
"""
import struct
import sys

path, mode = sys.argv[1], sys.argv[2]
data = bytearray(open(path, "rb").read())
start = data.find(b"MSTGAOT1")
if start < 0:
    sys.exit("damage_aot.py: no ahead-of-time image in " + path)
if mode == "payload":
    offset = struct.unpack_from("<Q", data, start + 72)[0]
    data[start + offset + 8] ^= 0x55
elif mode == "foreign":
    (h,) = struct.unpack_from("<Q", data, start + 48)
    struct.pack_into("<Q", data, start + 48, h ^ 1)
else:
    sys.exit("damage_aot.py: unknown mode " + mode)
open(path, "wb").write(data)
