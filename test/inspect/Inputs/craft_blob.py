"""Damages the first kernel blob of a dumped mstage_kernels section in place.

usage: craft_blob.py SECTION MODE, where MODE is one of
  offset-overflow   bitcode offset near 2^64 (offset + size wraps around)
  sites-overflow    0xffffffff stage sites at an offset near 2^32
  slots-overflow    0xffffffff pointer slots at an offset near 2^32
  string-offset     the kernel name's offset past the end
  bitcode-damage    one byte of the bitcode flipped (the hash no longer fits)
  zero-size         the blob's size field 0
  weight-nan        the JIT policy's weight (instructions a thread) NaN

The header layout is KernelBlob.cpp's: magic[8], version u32, header size
u32, total size u64, bitcode hash u64, bitcode offset u64, bitcode size
u64, name, pretty name, location offsets u32, parameters u32, stage-site
offset u32, stage sites u32, pointer-slot offset u32, pointer slots u32,
flags u32, loop depth u32, instructions u64, thread instructions f64,
static shared bytes u32, reserved u32; little-endian.
"""
import struct
import sys

path, mode = sys.argv[1], sys.argv[2]
data = bytearray(open(path, "rb").read())
start = data.find(b"MSTGKRN1")
if start < 0:
    sys.exit("craft_blob.py: no kernel blob in " + path)


def put(fmt, offset, value):
    struct.pack_into("<" + fmt, data, start + offset, value)


if mode == "offset-overflow":
    size = struct.unpack_from("<Q", data, start + 40)[0]
    put("Q", 32, (1 << 64) - size + 16)
elif mode == "sites-overflow":
    put("I", 64, 0xFFFFFFF0)
    put("I", 68, 0xFFFFFFFF)
elif mode == "slots-overflow":
    put("I", 72, 0xFFFFFFF0)
    put("I", 76, 0xFFFFFFFF)
elif mode == "string-offset":
    put("I", 48, 0xFFFFFFFF)
elif mode == "bitcode-damage":
    offset = struct.unpack_from("<Q", data, start + 32)[0]
    data[start + offset + 40] ^= 0x55
elif mode == "zero-size":
    put("Q", 16, 0)
elif mode == "weight-nan":
    put("d", 96, float("nan"))
else:
    sys.exit("craft_blob.py: unknown mode " + mode)
open(path, "wb").write(bytes(data))
